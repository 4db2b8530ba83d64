import { SqlStore } from "../sql-store.ts";
import { type Kysely, sql } from "kysely";
import type { VesselId } from "../../../domain/identifiers.ts";
import type { PositionFix } from "../../../interfaces/positions.ts";
import type { VesselIdentifierLink, VesselMmsis, VesselNameLink, VesselRecord, VisibleStations } from "../../../interfaces/vessels.ts";
import type { SqlDialect } from "../dialect/dialect.ts";
import { fixFromRow } from "./position-rows.ts";
import type { Database } from "../schema.ts";
import { visibleFilter, visibleUnion } from "./visible-filter.ts";

/**
 * The station sets a caller's visible set is the union of. The service passes cached
 * snapshots (shared-stations.ts, feed-stations.ts, own-stations.ts): they are asked on
 * nearly every request.
 */
export interface StationSets {
  /** Every shared station. */
  shared: () => Promise<readonly number[]>;
  /** The stations of public feeds. */
  feeds: () => Promise<readonly number[]>;
  /** An account's own stations. */
  own: (accountId: string) => Promise<readonly number[]>;
}

/**
 * Reads of the vessel registry (migration 0004). Every read filters links by the caller's
 * visible stations: a ship only a station the caller may not see has heard does not exist
 * for the caller.
 */
export class SqlVesselReads extends SqlStore {

  readonly #sets: StationSets;

  /** `sets`: where the parts of a caller's visible set come from. */
  constructor(db: Kysely<Database>, dialect: SqlDialect, sets: StationSets) {
    super(db, dialect);
    this.#sets = sets;
  }

  /** What any principal (anonymous included) may see: own stations ∪ shared stations ∪ public feeds' stations (visible-filter.ts). */
  async visibleStations(accountId: string | null): Promise<number[]> {
    const [own, shared, feeds] = await Promise.all([this.#ownStations(accountId), this.#sets.shared(), this.#sets.feeds()]);
    return visibleUnion(own, shared, feeds);
  }

  async #ownStations(accountId: string | null): Promise<readonly number[]> {
    return accountId === null ? [] : this.#sets.own(accountId);
  }

  async findByImo(imo: number, visible: VisibleStations): Promise<VesselRecord | null> {
    const v = await this.db.selectFrom("vessels").select(["id", "imo", "mmsi_key"]).where("imo", "=", imo).executeTakeFirst();
    return v ? this.#record(v, visible) : null;
  }

  async findByMmsi(mmsi: number, visible: VisibleStations): Promise<VesselRecord | null> {
    const links = await this.db
      .selectFrom("vessel_identifiers")
      .select(["vessel_id", "last_seen"])
      .where("kind", "=", "mmsi")
      .where("value", "=", String(mmsi))
      .where(visibleFilter(this.dialect, visible))
      .execute();
    if (links.length === 0) return null;
    // The ship that used the MMSI last: an MMSI reassigned to another ship points to the new one.
    const seen = new Map<number, number>();
    for (const l of links) seen.set(l.vessel_id, Math.max(seen.get(l.vessel_id) ?? 0, l.last_seen));
    const [vesselId] = [...seen.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]!;
    const v = await this.db.selectFrom("vessels").select(["id", "imo", "mmsi_key"]).where("id", "=", vesselId).executeTakeFirstOrThrow();
    return this.#record(v, visible);
  }

  async #record(v: { id: number; imo: number | null; mmsi_key: number | null }, visible: VisibleStations): Promise<VesselRecord | null> {
    const [identifiers, names, emissions, fleet] = await Promise.all([
      this.db.selectFrom("vessel_identifiers").selectAll().where("vessel_id", "=", v.id).where(visibleFilter(this.dialect, visible)).execute(),
      this.db.selectFrom("vessel_names").select(["name", "source", "station_id", "first_seen", "last_seen"]).where("vessel_id", "=", v.id).where(visibleFilter(this.dialect, visible)).execute(),
      v.imo === null ? [] : this.db.selectFrom("vessel_emissions").selectAll().where("imo", "=", v.imo).orderBy("year").execute(),
      v.imo === null ? [] : this.db.selectFrom("vessel_fleet").selectAll().where("imo", "=", v.imo).orderBy("source").execute(),
    ]);
    // A ship only a station the caller may not see has heard does not exist for the caller.
    if (identifiers.length + names.length + emissions.length + fleet.length === 0) return null;
    return {
      vesselId: v.id,
      imo: v.imo,
      mmsiKey: v.mmsi_key,
      identifiers: identifiers.map(
        (r): VesselIdentifierLink => ({ kind: r.kind, value: r.value, source: r.source, stationId: r.station_id, firstSeen: r.first_seen, lastSeen: r.last_seen }),
      ),
      names: names.map((r): VesselNameLink => ({ name: r.name, source: r.source, stationId: r.station_id, firstSeen: r.first_seen, lastSeen: r.last_seen })),
      emissions: emissions.map((r) => ({ year: r.year, name: r.name, shipType: r.ship_type, portOfRegistry: r.port_of_registry, co2T: r.co2_t, fuelT: r.fuel_t, timeAtSeaH: r.time_at_sea_h })),
      fleet: fleet.map((r) => ({
        source: r.source,
        name: r.name,
        shipType: r.ship_type,
        grossTons: r.gross_tons,
        deadweightTons: r.deadweight_tons,
        yearBuilt: r.year_built,
        operator: r.operator,
      })),
    };
  }

  async findMmsis(id: VesselId, visible: VisibleStations): Promise<VesselMmsis | null> {
    // The ship: by IMO its row; by MMSI the ship seen with that MMSI last, among visible links.
    const ship =
      id.kind === "imo"
        ? sql`(SELECT id FROM vessels WHERE imo = ${id.imo})`
        : sql`(SELECT vessel_id FROM vessel_identifiers WHERE kind = 'mmsi' AND value = ${String(id.mmsi)} AND ${visibleFilter(this.dialect, visible)}
            ORDER BY last_seen DESC, vessel_id LIMIT 1)`;
    // Each MMSI with this ship's last sighting and any other ship's, in one statement (one round trip on a track's path).
    const r = await sql<{ id: number; imo: number | null; mmsi_key: number | null; value: string | null; last_seen: number | null; other: number | null }>`
      SELECT v.id, v.imo, v.mmsi_key, i.value, max(i.last_seen) AS last_seen,
        (SELECT max(o.last_seen) FROM vessel_identifiers o
          WHERE o.kind = 'mmsi' AND o.value = i.value AND o.vessel_id <> v.id AND ${visibleFilter(this.dialect, visible, "o.station_id")}) AS other
      FROM vessels v LEFT JOIN vessel_identifiers i ON i.vessel_id = v.id AND i.kind = 'mmsi' AND ${visibleFilter(this.dialect, visible, "i.station_id")}
      WHERE v.id = ${ship}
      GROUP BY v.id, v.imo, v.mmsi_key, i.value`.execute(this.db);
    const first = r.rows[0];
    if (!first) return null;
    const mmsis = r.rows
      .filter((x) => x.value !== null)
      .map((x) => ({ mmsi: Number(x.value), lastSeen: Number(x.last_seen), otherLastSeen: x.other === null ? null : Number(x.other) }));
    // Without a visible MMSI the ship may still be visible (a dataset's ship); without anything visible it does not exist.
    if (mmsis.length === 0 && !(await this.#record({ id: first.id, imo: first.imo, mmsi_key: first.mmsi_key }, visible))) return null;
    return { vesselId: first.id, imo: first.imo, mmsiKey: first.mmsi_key, mmsis };
  }

  async mmsiUsers(mmsis: readonly number[], visible: VisibleStations): Promise<{ mmsi: number; vesselId: number; lastSeen: number; sources: string[] }[]> {
    if (mmsis.length === 0) return [];
    const rows = await this.db
      .selectFrom("vessel_identifiers")
      .select(["vessel_id", "value", "last_seen", "source"])
      .where("kind", "=", "mmsi")
      .where("value", "in", mmsis.map(String))
      .where(visibleFilter(this.dialect, visible))
      .execute();
    const out = new Map<string, { mmsi: number; vesselId: number; lastSeen: number; sources: string[] }>();
    for (const r of rows) {
      const k = `${r.value}:${r.vessel_id}`;
      const had = out.get(k) ?? { mmsi: Number(r.value), vesselId: r.vessel_id, lastSeen: r.last_seen, sources: [] };
      had.lastSeen = Math.max(had.lastSeen, r.last_seen);
      if (!had.sources.includes(r.source)) had.sources.push(r.source);
      out.set(k, had);
    }
    return [...out.values()].map((u) => ({ ...u, sources: u.sources.sort() }));
  }

  async mmsiImos(mmsis: readonly number[], visible: VisibleStations): Promise<{ mmsi: number; imo: number; lastSeen: number; sources: string[] }[]> {
    if (mmsis.length === 0) return [];
    const rows = await this.db
      .selectFrom("vessel_identifiers")
      .innerJoin("vessels", "vessels.id", "vessel_identifiers.vessel_id")
      .select(["vessel_identifiers.value as value", "vessel_identifiers.last_seen as last_seen", "vessel_identifiers.source as source", "vessels.imo as imo"])
      .where("vessel_identifiers.kind", "=", "mmsi")
      .where("vessel_identifiers.value", "in", mmsis.map(String))
      .where("vessels.imo", "is not", null)
      .where(visibleFilter(this.dialect, visible, "vessel_identifiers.station_id"))
      .execute();
    const out = new Map<string, { mmsi: number; imo: number; lastSeen: number; sources: string[] }>();
    for (const r of rows) {
      const k = `${r.value}:${r.imo}`;
      const had = out.get(k) ?? { mmsi: Number(r.value), imo: r.imo!, lastSeen: r.last_seen, sources: [] };
      had.lastSeen = Math.max(had.lastSeen, r.last_seen);
      if (!had.sources.includes(r.source)) had.sources.push(r.source);
      out.set(k, had);
    }
    return [...out.values()].map((u) => ({ ...u, sources: u.sources.sort() })).sort((a, b) => a.mmsi - b.mmsi || b.lastSeen - a.lastSeen || a.imo - b.imo);
  }

  async latestFixes(mmsis: readonly number[], visible: VisibleStations): Promise<PositionFix[]> {
    if (mmsis.length === 0 || visible.length === 0) return [];
    const rows = await this.db
      .selectFrom("latest_positions")
      .selectAll()
      .where("station_id", "in", [...visible])
      .where("mmsi", "in", [...mmsis])
      .orderBy("time", "desc")
      .execute();
    return rows.map(fixFromRow);
  }

  async heardBy(mmsi: number, visible: VisibleStations): Promise<boolean> {
    if (visible.length === 0) return false;
    const r = await this.db.selectFrom("latest_positions").select("mmsi").where("station_id", "in", [...visible]).where("mmsi", "=", mmsi).limit(1).executeTakeFirst();
    return r !== undefined;
  }
}
