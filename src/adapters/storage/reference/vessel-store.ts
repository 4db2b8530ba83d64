import type { Kysely } from "kysely";
import type { VesselId } from "../../../domain/identifiers.ts";
import type { PositionFix } from "../../../interfaces/positions.ts";
import type { EmissionImport, FleetImport, RegistryRefreshReport, VesselMmsis, VesselRecord, VesselStore, VisibleStations } from "../../../interfaces/vessels.ts";
import type { SqlDialect } from "../dialect/dialect.ts";
import type { Database } from "../schema.ts";
import { SqlVesselReads, type StationSets } from "../positions/vessel-reads.ts";
import { SqlVesselRegistry } from "./vessel-registry.ts";

/**
 * The vessel registry as the one object the VesselStore port asks for: reads filtered by
 * the caller's visible stations, and the registry's linking of sources (which keeps the
 * name index in step).
 */
export class SqlVesselStore implements VesselStore {
  readonly #reads: SqlVesselReads;
  readonly #registry: SqlVesselRegistry;
  readonly #exclusive: <T>(run: () => Promise<T>) => Promise<T | null>;

  /**
   * `stations`: where the caller's visible set comes from (own, shared and feed stations).
   * `exclusive`: runs a relink as the one relink of the registry among all processes (the
   * lock the periodic refresh takes), so an import's link never races a refresh's.
   */
  constructor(db: Kysely<Database>, dialect: SqlDialect, stations: StationSets, exclusive: <T>(run: () => Promise<T>) => Promise<T | null> = (run) => run()) {
    this.#reads = new SqlVesselReads(db, dialect, stations);
    this.#registry = new SqlVesselRegistry(db, dialect);
    this.#exclusive = exclusive;
  }

  visibleStations(accountId: string | null): Promise<number[]> {
    return this.#reads.visibleStations(accountId);
  }

  findByImo(imo: number, visible: VisibleStations): Promise<VesselRecord | null> {
    return this.#reads.findByImo(imo, visible);
  }

  findByMmsi(mmsi: number, visible: VisibleStations): Promise<VesselRecord | null> {
    return this.#reads.findByMmsi(mmsi, visible);
  }

  findMmsis(id: VesselId, visible: VisibleStations): Promise<VesselMmsis | null> {
    return this.#reads.findMmsis(id, visible);
  }

  mmsiUsers(mmsis: readonly number[], visible: VisibleStations): Promise<{ mmsi: number; vesselId: number; lastSeen: number; sources: string[] }[]> {
    return this.#reads.mmsiUsers(mmsis, visible);
  }

  mmsiImos(mmsis: readonly number[], visible: VisibleStations): Promise<{ mmsi: number; imo: number; lastSeen: number; sources: string[] }[]> {
    return this.#reads.mmsiImos(mmsis, visible);
  }

  latestFixes(mmsis: readonly number[], visible: VisibleStations): Promise<PositionFix[]> {
    return this.#reads.latestFixes(mmsis, visible);
  }

  heardBy(mmsi: number, visible: VisibleStations): Promise<boolean> {
    return this.#reads.heardBy(mmsi, visible);
  }

  replaceEmissions(records: readonly EmissionImport[], onBatch?: (rows: number) => void): Promise<void> {
    return this.#registry.replaceEmissions(records, onBatch);
  }

  replaceFleet(source: string, records: readonly FleetImport[], seenAt: number): Promise<void> {
    return this.#registry.replaceFleet(source, records, seenAt);
  }

  refresh(now: number): Promise<RegistryRefreshReport> {
    return this.#registry.refresh(now);
  }

  async linkSanctions(now: number): Promise<number> {
    return (await this.#exclusive(() => this.#registry.linkSanctions(now))) ?? 0;
  }

  linkIdentities(keys: readonly { stationId: number; mmsi: number }[]): Promise<number> {
    return this.#registry.linkAis(keys);
  }
}
