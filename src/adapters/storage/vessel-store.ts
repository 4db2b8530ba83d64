import { CompiledQuery, type Kysely, type SqlBool, sql, type Transaction } from "kysely";
import type pg from "pg";
import { isValidImo, parseMmsi, type VesselId } from "../../domain/identifiers.ts";
import { nameTerms, normalizeName } from "../../domain/vessels/names.ts";
import type { PositionFix } from "../../ports/positions.ts";
import type {
  EmissionImport,
  FleetImport,
  RegistryRefreshReport,
  VesselIdentifierLink,
  VesselMmsis,
  VesselNameLink,
  VesselRecord,
  VesselStore,
  VisibleStations,
} from "../../ports/vessels.ts";
import type { Engine } from "./database.ts";
import type { Database } from "./schema.ts";

/**
 * Bulk inserts for the vessel registry, the search index and the archive: PostgreSQL
 * through `unnest` of typed arrays (notes/storage.md: about twice as fast as multi-row
 * VALUES), SQLite through multi-row VALUES in bounded statements (node:sqlite is
 * synchronous, so each statement blocks the event loop for its duration).
 */

export type Cell = number | string | null;
export type BulkRow = Cell[];

/** PostgreSQL element types of the columns, in order. */
export type PgType = "int4" | "int8" | "float8" | "text";

const PG_CHUNK = 10_000;
/** Bound parameters per SQLite statement, well under its limit of 32,766. */
const SQLITE_PARAMS = 4_000;

// The helpers serve the main store and the archive, whose schemas differ.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any> | Transaction<any>;

const quoted = (cols: readonly string[]) => cols.map((c) => `"${c}"`).join(", ");

/** Inserts rows; `tail` is what follows the rows (`ON CONFLICT ...`, `RETURNING ...`). Returns rows RETURNING gave, if any. */
export async function bulkInsert(
  db: AnyDb,
  engine: Engine,
  table: string,
  columns: readonly string[],
  pgTypes: readonly PgType[],
  rows: readonly BulkRow[],
  tail = "",
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  if (rows.length === 0) return out;
  if (engine === "postgres") {
    for (let at = 0; at < rows.length; at += PG_CHUNK) {
      const chunk = rows.slice(at, at + PG_CHUNK);
      const arrays = columns.map((_, c) => chunk.map((r) => r[c] ?? null));
      const text = `INSERT INTO ${table} (${quoted(columns)}) SELECT * FROM unnest(${pgTypes.map((t, i) => `$${i + 1}::${t}[]`).join(", ")}) ${tail}`;
      const r = await db.executeQuery(CompiledQuery.raw(text, arrays));
      out.push(...(r.rows as Record<string, unknown>[]));
    }
    return out;
  }
  const per = Math.max(1, Math.floor(SQLITE_PARAMS / columns.length));
  const tuple = `(${columns.map(() => "?").join(",")})`;
  for (let at = 0; at < rows.length; at += per) {
    const chunk = rows.slice(at, at + per);
    const params: Cell[] = [];
    for (const r of chunk) for (const v of r) params.push(v ?? null);
    const text = `INSERT INTO ${table} (${quoted(columns)}) VALUES ${chunk.map(() => tuple).join(",")} ${tail}`;
    const r = await db.executeQuery(CompiledQuery.raw(text, params));
    out.push(...(r.rows as Record<string, unknown>[]));
  }
  return out;
}

/** `least`/`greatest` of two values: SQLite's scalar min/max take several arguments, PostgreSQL has LEAST/GREATEST. */
export function minOf(engine: Engine, a: string, b: string): string {
  return engine === "postgres" ? `LEAST(${a}, ${b})` : `min(${a}, ${b})`;
}

export function maxOf(engine: Engine, a: string, b: string): string {
  return engine === "postgres" ? `GREATEST(${a}, ${b})` : `max(${a}, ${b})`;
}

/** Members of one IN list. */
export const IN_CHUNK = 500;

export function chunks<T>(items: readonly T[], size = IN_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

type Tx = Kysely<Database> | Transaction<Database>;

/** A ship's key in the registry: its IMO when a valid one is known, else its MMSI. */
type VesselKey = { imo: number } | { mmsi: number };

const keyText = (k: VesselKey) => ("imo" in k ? `i:${k.imo}` : `m:${k.mmsi}`);

/** What one source says about one ship: names and identifiers with when it said so. */
interface SourceEntry {
  key: VesselKey;
  names: { name: string; firstSeen: number; lastSeen: number }[];
  identifiers: { kind: "mmsi" | "callsign"; value: string; firstSeen: number; lastSeen: number }[];
}

/** An AIS identity row that changed since the registry last linked it. */
interface AisRow {
  station_id: number;
  mmsi: number;
  imo: number | null;
  name: string | null;
  callsign: string | null;
  updated_at: number;
}

/** AIS identity rows linked per transaction: bounded, so ingest writes are not held up long. */
const AIS_CHUNK = 500;
/** An identity seen again re-links (to move last_seen on) at most this often. */
const AIS_RESEEN_MS = 3_600_000;

const IDENTIFIER_COLUMNS = ["vessel_id", "kind", "value", "source", "station_id", "first_seen", "last_seen"];
const IDENTIFIER_TYPES: PgType[] = ["int4", "text", "text", "text", "int4", "int8", "int8"];
const NAME_COLUMNS = ["vessel_id", "name", "norm", "source", "station_id", "first_seen", "last_seen"];
const NAME_TYPES: PgType[] = ["int4", "text", "text", "text", "int4", "int8", "int8"];

/** AIS names are padded with `@` (six-bit "no character") or blanks by some transmitters. */
function cleanAisText(v: string | null): string | null {
  if (v === null) return null;
  const s = v.replace(/@+/g, " ").replace(/\s+/g, " ").trim();
  return s === "" ? null : s;
}

function dayMs(isoDate: string | null | undefined, fallback: number): number {
  const t = isoDate ? Date.parse(isoDate) : Number.NaN;
  return Number.isFinite(t) ? t : fallback;
}

/**
 * The vessel registry on SQLite or PostgreSQL (migration 0004). Reads filter links by
 * the caller's visible stations; writes replace one source's links at a time (datasets,
 * sanctions lists) or link what AIS identity rows changed (refresh).
 */
export class SqlVesselStore implements VesselStore {
  readonly #db: Kysely<Database>;
  readonly #engine: Engine;
  readonly #pg: pg.Pool | null;

  /** `pgPool`: on PostgreSQL, the store's pool, for the per-request read of visible stations as a named statement. */
  constructor(db: Kysely<Database>, engine: Engine, pgPool: pg.Pool | null = null) {
    this.#db = db;
    this.#engine = engine;
    this.#pg = pgPool;
  }

  async visibleStations(accountId: string | null): Promise<number[]> {
    if (this.#pg) {
      const r = await this.#pg.query<{ id: number }>({ name: "mds_visible_stations", text: "SELECT id FROM stations WHERE shared = 1 OR account_id = $1 ORDER BY id", values: [accountId] });
      return r.rows.map((x) => x.id);
    }
    let q = this.#db.selectFrom("stations").select("id");
    q = accountId === null ? q.where("shared", "=", 1) : q.where((eb) => eb.or([eb("shared", "=", 1), eb("account_id", "=", accountId)]));
    return (await q.orderBy("id").execute()).map((r) => r.id);
  }

  async findByImo(imo: number, visible: VisibleStations): Promise<VesselRecord | null> {
    const v = await this.#db.selectFrom("vessels").select(["id", "imo", "mmsi_key"]).where("imo", "=", imo).executeTakeFirst();
    return v ? this.#record(v, visible) : null;
  }

  async findByMmsi(mmsi: number, visible: VisibleStations): Promise<VesselRecord | null> {
    const links = await this.#db
      .selectFrom("vessel_identifiers")
      .select(["vessel_id", "last_seen"])
      .where("kind", "=", "mmsi")
      .where("value", "=", String(mmsi))
      .where(visibleFilter(visible))
      .execute();
    if (links.length === 0) return null;
    // The ship that used the MMSI last: an MMSI reassigned to another ship points to the new one.
    const seen = new Map<number, number>();
    for (const l of links) seen.set(l.vessel_id, Math.max(seen.get(l.vessel_id) ?? 0, l.last_seen));
    const [vesselId] = [...seen.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]!;
    const v = await this.#db.selectFrom("vessels").select(["id", "imo", "mmsi_key"]).where("id", "=", vesselId).executeTakeFirstOrThrow();
    return this.#record(v, visible);
  }

  async #record(v: { id: number; imo: number | null; mmsi_key: number | null }, visible: VisibleStations): Promise<VesselRecord | null> {
    const [identifiers, names, emissions, fleet] = await Promise.all([
      this.#db.selectFrom("vessel_identifiers").selectAll().where("vessel_id", "=", v.id).where(visibleFilter(visible)).execute(),
      this.#db.selectFrom("vessel_names").select(["name", "source", "station_id", "first_seen", "last_seen"]).where("vessel_id", "=", v.id).where(visibleFilter(visible)).execute(),
      v.imo === null ? [] : this.#db.selectFrom("vessel_emissions").selectAll().where("imo", "=", v.imo).orderBy("year").execute(),
      v.imo === null ? [] : this.#db.selectFrom("vessel_fleet").selectAll().where("imo", "=", v.imo).orderBy("source").execute(),
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
        : sql`(SELECT vessel_id FROM vessel_identifiers WHERE kind = 'mmsi' AND value = ${String(id.mmsi)} AND ${visibleFilter(visible)}
            ORDER BY last_seen DESC, vessel_id LIMIT 1)`;
    // Each MMSI with this ship's last sighting and any other ship's, in one statement (one round trip on a track's path).
    const r = await sql<{ id: number; imo: number | null; mmsi_key: number | null; value: string | null; last_seen: number | null; other: number | null }>`
      SELECT v.id, v.imo, v.mmsi_key, i.value, max(i.last_seen) AS last_seen,
        (SELECT max(o.last_seen) FROM vessel_identifiers o
          WHERE o.kind = 'mmsi' AND o.value = i.value AND o.vessel_id <> v.id AND ${visibleFilter(visible, "o.station_id")}) AS other
      FROM vessels v LEFT JOIN vessel_identifiers i ON i.vessel_id = v.id AND i.kind = 'mmsi' AND ${visibleFilter(visible, "i.station_id")}
      WHERE v.id = ${ship}
      GROUP BY v.id, v.imo, v.mmsi_key, i.value`.execute(this.#db);
    const first = r.rows[0];
    if (!first) return null;
    const mmsis = r.rows
      .filter((x) => x.value !== null)
      .map((x) => ({ mmsi: Number(x.value), lastSeen: Number(x.last_seen), otherLastSeen: x.other === null ? null : Number(x.other) }));
    // Without a visible MMSI the ship may still be visible (a dataset's ship); without anything visible it does not exist.
    if (mmsis.length === 0 && !(await this.#record({ id: first.id, imo: first.imo, mmsi_key: first.mmsi_key }, visible))) return null;
    return { vesselId: first.id, imo: first.imo, mmsiKey: first.mmsi_key, mmsis };
  }

  async mmsiUsers(mmsis: readonly number[], visible: VisibleStations): Promise<{ mmsi: number; vesselId: number; lastSeen: number }[]> {
    if (mmsis.length === 0) return [];
    const rows = await this.#db
      .selectFrom("vessel_identifiers")
      .select(["vessel_id", "value", "last_seen"])
      .where("kind", "=", "mmsi")
      .where("value", "in", mmsis.map(String))
      .where(visibleFilter(visible))
      .execute();
    const out = new Map<string, { mmsi: number; vesselId: number; lastSeen: number }>();
    for (const r of rows) {
      const k = `${r.value}:${r.vessel_id}`;
      const had = out.get(k);
      if (!had || r.last_seen > had.lastSeen) out.set(k, { mmsi: Number(r.value), vesselId: r.vessel_id, lastSeen: r.last_seen });
    }
    return [...out.values()];
  }

  async latestFixes(mmsis: readonly number[], visible: VisibleStations): Promise<PositionFix[]> {
    if (mmsis.length === 0 || visible.length === 0) return [];
    const rows = await this.#db
      .selectFrom("latest_positions")
      .selectAll()
      .where("station_id", "in", [...visible])
      .where("mmsi", "in", [...mmsis])
      .orderBy("time", "desc")
      .execute();
    return rows.map((r) => ({ mmsi: r.mmsi, time: r.time, stationId: r.station_id, lat: r.lat, lon: r.lon, sog: r.sog, cog: r.cog, heading: r.heading, navStatus: r.nav_status }));
  }

  async heardBy(mmsi: number, visible: VisibleStations): Promise<boolean> {
    if (visible.length === 0) return false;
    const r = await this.#db.selectFrom("latest_positions").select("mmsi").where("station_id", "in", [...visible]).where("mmsi", "=", mmsi).limit(1).executeTakeFirst();
    return r !== undefined;
  }

  async replaceEmissions(records: readonly EmissionImport[], onBatch?: (rows: number) => void): Promise<void> {
    const byImo = new Map<number, Map<string, { first: number; last: number }>>();
    for (const r of records) {
      let names = byImo.get(r.imo);
      if (!names) byImo.set(r.imo, (names = new Map()));
      const n = names.get(r.name);
      names.set(r.name, { first: Math.min(n?.first ?? r.year, r.year), last: Math.max(n?.last ?? r.year, r.year) });
    }
    // A name reported for years y1..y2 was seen from the start of y1 to the end of y2.
    const entries: SourceEntry[] = [...byImo].map(([imo, names]) => ({
      key: { imo },
      names: [...names].map(([name, y]) => ({ name, firstSeen: Date.UTC(y.first, 0, 1), lastSeen: Date.UTC(y.last, 11, 31, 23, 59, 59) })),
      identifiers: [],
    }));
    await this.#db.transaction().execute(async (tx) => {
      await tx.deleteFrom("vessel_emissions").execute();
      const rows = records.map((r): BulkRow => [r.imo, r.year, r.name, r.shipType, r.portOfRegistry, r.co2T, r.fuelT, r.timeAtSeaH]);
      for (const part of chunks(rows, 10_000)) {
        await bulkInsert(tx, this.#engine, "vessel_emissions", ["imo", "year", "name", "ship_type", "port_of_registry", "co2_t", "fuel_t", "time_at_sea_h"], ["int4", "int4", "text", "text", "text", "float8", "float8", "float8"], part);
        onBatch?.(part.length);
      }
      await this.#relinkSource(tx, "emsa_mrv", entries, null);
    });
    await this.#analyze();
  }

  /**
   * PostgreSQL plans from table statistics; right after a bulk load they still describe
   * the empty tables, and the search join then sorts instead of walking the term index.
   */
  async #analyze(): Promise<void> {
    if (this.#engine !== "postgres") return;
    await this.#db.executeQuery(CompiledQuery.raw("ANALYZE vessels, vessel_identifiers, vessel_names, vessel_name_terms, vessel_emissions, vessel_fleet"));
  }

  async replaceFleet(source: string, records: readonly FleetImport[], seenAt: number): Promise<void> {
    const entries: SourceEntry[] = records.map((r) => ({ key: { imo: r.imo }, names: [{ name: r.name, firstSeen: seenAt, lastSeen: seenAt }], identifiers: [] }));
    await this.#db.transaction().execute(async (tx) => {
      await tx.deleteFrom("vessel_fleet").where("source", "=", source).execute();
      const rows = records.map((r): BulkRow => [r.imo, source, r.name, r.shipType, r.grossTons, r.deadweightTons, r.yearBuilt, r.operator]);
      await bulkInsert(tx, this.#engine, "vessel_fleet", ["imo", "source", "name", "ship_type", "gross_tons", "deadweight_tons", "year_built", "operator"], ["int4", "text", "text", "text", "float8", "float8", "int4", "text"], rows);
      await this.#relinkSource(tx, source, entries, null);
    });
    await this.#analyze();
  }

  async refresh(now: number): Promise<RegistryRefreshReport> {
    const sanctionsDesignations = await this.#refreshSanctions(now);
    const aisIdentities = await this.#refreshAis();
    // A refresh that linked many rows (the first one after a sanctions import, or a new station) changes the statistics.
    if (aisIdentities + sanctionsDesignations > 1_000) await this.#analyze();
    return { aisIdentities, sanctionsDesignations };
  }

  /** Re-links every list whose latest version is not the one linked last. */
  async #refreshSanctions(now: number): Promise<number> {
    const lists = await this.#db.selectFrom("sanctions_lists").select(["list", "version_id", "as_of"]).where("version_id", "is not", null).execute();
    let linked = 0;
    for (const l of lists) {
      const mark = `sanctions:${l.list}`;
      const state = await this.#db.selectFrom("vessel_registry_state").select("value").where("key", "=", mark).executeTakeFirst();
      if (state?.value === l.version_id) continue;
      const designations = await this.#db
        .selectFrom("sanctions_designations")
        .select(["id", "name", "active", "listed_at", "first_seen", "delisted_at"])
        .where("list", "=", l.list)
        .execute();
      const ids = await this.#db
        .selectFrom("sanctions_identifiers as i")
        .innerJoin("sanctions_designations as d", "d.id", "i.designation_id")
        .select(["i.designation_id", "i.kind", "i.value", "i.current"])
        .where("d.list", "=", l.list)
        .execute();
      const byDesignation = new Map<number, { kind: string; value: number; current: number }[]>();
      for (const i of ids) {
        const list = byDesignation.get(i.designation_id) ?? [];
        list.push({ kind: i.kind, value: Number(i.value), current: i.current });
        byDesignation.set(i.designation_id, list);
      }
      const asOf = dayMs(l.as_of, now);
      const entries: SourceEntry[] = [];
      for (const d of designations) {
        const idents = byDesignation.get(d.id) ?? [];
        // Only IMOs with a valid check digit key a ship; current ones first (a corrected IMO replaced a wrong one).
        const imosOf = (current: boolean) => [...new Set(idents.filter((i) => i.kind === "imo" && (!current || i.current === 1) && isValidImo(i.value)).map((i) => i.value))];
        const mmsis = [...new Set(idents.filter((i) => i.kind === "mmsi" && parseMmsi(i.value) !== null).map((i) => i.value))];
        const currentMmsis = idents.filter((i) => i.kind === "mmsi" && i.current === 1 && parseMmsi(i.value) !== null).map((i) => i.value);
        const imos = imosOf(true).length > 0 ? imosOf(true) : imosOf(false);
        const keys: VesselKey[] = imos.length > 0 ? imos.map((imo) => ({ imo })) : mmsis.length > 0 ? [{ mmsi: currentMmsis[0] ?? mmsis[0]! }] : [];
        const firstSeen = dayMs(d.listed_at ?? d.first_seen, asOf);
        const lastSeen = Math.max(firstSeen, d.active === 1 ? asOf : dayMs(d.delisted_at, asOf));
        for (const key of keys) {
          entries.push({
            key,
            names: [{ name: d.name, firstSeen, lastSeen }],
            identifiers: mmsis.map((m) => ({ kind: "mmsi" as const, value: String(m), firstSeen, lastSeen })),
          });
        }
      }
      await this.#db.transaction().execute(async (tx) => {
        await this.#relinkSource(tx, l.list, entries, null);
        await tx
          .insertInto("vessel_registry_state")
          .values({ key: mark, value: l.version_id! })
          .onConflict((oc) => oc.column("key").doUpdateSet({ value: l.version_id! }))
          .execute();
      });
      linked += designations.length;
    }
    return linked;
  }

  /** Links the AIS identity rows that differ from what was linked last (or were seen again after an hour). */
  async #refreshAis(): Promise<number> {
    let after = { station: -1, mmsi: -1 };
    let total = 0;
    for (;;) {
      const r = await this.#db.executeQuery<AisRow>(
        CompiledQuery.raw(
          this.#numbered(`SELECT i.station_id, i.mmsi, i.imo, i.name, i.callsign, i.updated_at
           FROM vessel_identities i LEFT JOIN vessel_ais_synced s ON s.station_id = i.station_id AND s.mmsi = i.mmsi
           WHERE (i.station_id > ? OR (i.station_id = ? AND i.mmsi > ?))
             AND (s.station_id IS NULL OR s.imo IS DISTINCT FROM i.imo OR s.name IS DISTINCT FROM i.name
                  OR s.callsign IS DISTINCT FROM i.callsign OR i.updated_at > s.updated_at + ${AIS_RESEEN_MS})
           ORDER BY i.station_id, i.mmsi LIMIT ${AIS_CHUNK}`),
          [after.station, after.station, after.mmsi],
        ),
      );
      const rows = r.rows;
      if (rows.length === 0) return total;
      await this.#db.transaction().execute((tx) => this.#linkAis(tx, rows));
      total += rows.length;
      const last = rows.at(-1)!;
      after = { station: last.station_id, mmsi: last.mmsi };
      if (rows.length < AIS_CHUNK) return total;
    }
  }

  /** `?` placeholders as PostgreSQL's `$n`. */
  #numbered(text: string): string {
    if (this.#engine !== "postgres") return text;
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  }

  async #linkAis(tx: Transaction<Database>, rows: AisRow[]): Promise<void> {
    const keyOf = (r: AisRow): VesselKey => (r.imo !== null && isValidImo(r.imo) ? { imo: r.imo } : { mmsi: r.mmsi });
    const ids = await this.#ensureVessels(tx, rows.map(keyOf));
    const identifiers = new Map<string, BulkRow>();
    const names = new Map<string, BulkRow>();
    const merge = (map: Map<string, BulkRow>, k: string, row: BulkRow, firstAt: number, lastAt: number) => {
      const had = map.get(k);
      if (had) {
        had[firstAt] = Math.min(Number(had[firstAt]), Number(row[firstAt]));
        had[lastAt] = Math.max(Number(had[lastAt]), Number(row[lastAt]));
      } else map.set(k, row);
    };
    for (const r of rows) {
      const vid = ids.get(keyText(keyOf(r)))!;
      const source = `station:${r.station_id}`;
      const t = Number(r.updated_at);
      merge(identifiers, `${vid}\0mmsi\0${r.mmsi}\0${source}`, [vid, "mmsi", String(r.mmsi), source, r.station_id, t, t], 5, 6);
      const callsign = cleanAisText(r.callsign);
      if (callsign) merge(identifiers, `${vid}\0callsign\0${callsign}\0${source}`, [vid, "callsign", callsign, source, r.station_id, t, t], 5, 6);
      const name = cleanAisText(r.name);
      if (name) merge(names, `${vid}\0${name}\0${source}`, [vid, name, normalizeName(name), source, r.station_id, t, t], 5, 6);
    }
    const seen = (table: string) =>
      `ON CONFLICT (${table === "vessel_names" ? "vessel_id, name, source" : "vessel_id, kind, value, source"}) DO UPDATE SET first_seen = ${minOf(this.#engine, `${table}.first_seen`, "excluded.first_seen")}, last_seen = ${maxOf(this.#engine, `${table}.last_seen`, "excluded.last_seen")}`;
    await bulkInsert(tx, this.#engine, "vessel_identifiers", IDENTIFIER_COLUMNS, IDENTIFIER_TYPES, [...identifiers.values()], seen("vessel_identifiers"));
    if (names.size > 0) {
      const vesselIds = [...new Set([...names.values()].map((r) => Number(r[0])))];
      const existing = new Set<string>();
      for (const part of chunks(vesselIds)) {
        for (const e of await tx.selectFrom("vessel_names").select(["vessel_id", "name", "source"]).where("vessel_id", "in", part).execute()) {
          existing.add(`${e.vessel_id}\0${e.name}\0${e.source}`);
        }
      }
      const stored = await bulkInsert(tx, this.#engine, "vessel_names", NAME_COLUMNS, NAME_TYPES, [...names.values()], `${seen("vessel_names")} RETURNING id, vessel_id, name, norm, source`);
      await this.#insertTerms(
        tx,
        stored.filter((s) => !existing.has(`${s.vessel_id}\0${s.name}\0${s.source}`)).map((s) => ({ id: Number(s.id), norm: String(s.norm) })),
      );
    }
    await bulkInsert(
      tx,
      this.#engine,
      "vessel_ais_synced",
      ["station_id", "mmsi", "imo", "name", "callsign", "updated_at"],
      ["int4", "int4", "int4", "text", "text", "int8"],
      rows.map((r) => [r.station_id, r.mmsi, r.imo, r.name, r.callsign, r.updated_at]),
      "ON CONFLICT (station_id, mmsi) DO UPDATE SET imo = excluded.imo, name = excluded.name, callsign = excluded.callsign, updated_at = excluded.updated_at",
    );
  }

  /** The registry id of each key, creating ships not yet known. */
  async #ensureVessels(tx: Tx, keys: readonly VesselKey[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    const imos = [...new Set(keys.flatMap((k) => ("imo" in k ? [k.imo] : [])))];
    const mmsis = [...new Set(keys.flatMap((k) => ("mmsi" in k ? [k.mmsi] : [])))];
    const load = async () => {
      const wantImos = imos.filter((i) => !ids.has(`i:${i}`));
      const wantMmsis = mmsis.filter((m) => !ids.has(`m:${m}`));
      if (this.#engine === "postgres") {
        // One array parameter instead of IN lists: a first import asks for 20,000 IMOs at once.
        if (wantImos.length > 0) for (const v of (await sql<{ id: number; imo: number }>`SELECT id, imo FROM vessels WHERE imo = ANY(${wantImos}::int4[])`.execute(tx)).rows) ids.set(`i:${v.imo}`, v.id);
        if (wantMmsis.length > 0) for (const v of (await sql<{ id: number; mmsi_key: number }>`SELECT id, mmsi_key FROM vessels WHERE mmsi_key = ANY(${wantMmsis}::int4[])`.execute(tx)).rows) ids.set(`m:${v.mmsi_key}`, v.id);
        return;
      }
      for (const part of chunks(wantImos)) {
        for (const v of await tx.selectFrom("vessels").select(["id", "imo"]).where("imo", "in", part).execute()) ids.set(`i:${v.imo}`, v.id);
      }
      for (const part of chunks(wantMmsis)) {
        for (const v of await tx.selectFrom("vessels").select(["id", "mmsi_key"]).where("mmsi_key", "in", part).execute()) ids.set(`m:${v.mmsi_key}`, v.id);
      }
    };
    await load();
    const now = Date.now();
    const missing: BulkRow[] = [
      ...imos.filter((i) => !ids.has(`i:${i}`)).map((i): BulkRow => [i, null, now]),
      ...mmsis.filter((m) => !ids.has(`m:${m}`)).map((m): BulkRow => [null, m, now]),
    ];
    if (missing.length > 0) {
      await bulkInsert(tx, this.#engine, "vessels", ["imo", "mmsi_key", "created_at"], ["int4", "int4", "int8"], missing, "ON CONFLICT DO NOTHING");
      await load();
    }
    return ids;
  }

  /**
   * Makes one source's links exactly `entries`: identifiers replaced, names diffed (kept
   * names keep their id and search terms, gone ones are removed with their terms).
   */
  async #relinkSource(tx: Transaction<Database>, source: string, entries: readonly SourceEntry[], stationId: number | null): Promise<void> {
    const ids = await this.#ensureVessels(tx, entries.map((e) => e.key));
    const identifiers = new Map<string, BulkRow>();
    const wanted = new Map<string, BulkRow>();
    for (const e of entries) {
      const vid = ids.get(keyText(e.key))!;
      for (const i of e.identifiers) {
        const k = `${vid}\0${i.kind}\0${i.value}`;
        const had = identifiers.get(k);
        if (had) {
          had[5] = Math.min(Number(had[5]), i.firstSeen);
          had[6] = Math.max(Number(had[6]), i.lastSeen);
        } else identifiers.set(k, [vid, i.kind, i.value, source, stationId, i.firstSeen, i.lastSeen]);
      }
      for (const n of e.names) {
        const k = `${vid}\0${n.name}`;
        const had = wanted.get(k);
        if (had) {
          had[5] = Math.min(Number(had[5]), n.firstSeen);
          had[6] = Math.max(Number(had[6]), n.lastSeen);
        } else wanted.set(k, [vid, n.name, normalizeName(n.name), source, stationId, n.firstSeen, n.lastSeen]);
      }
    }
    await tx.deleteFrom("vessel_identifiers").where("source", "=", source).execute();
    await bulkInsert(tx, this.#engine, "vessel_identifiers", IDENTIFIER_COLUMNS, IDENTIFIER_TYPES, [...identifiers.values()]);

    const existing = await tx.selectFrom("vessel_names").select(["id", "vessel_id", "name", "norm"]).where("source", "=", source).execute();
    const kept = new Set<string>();
    const gone: { id: number; norm: string }[] = [];
    for (const e of existing) {
      const k = `${e.vessel_id}\0${e.name}`;
      if (wanted.has(k)) kept.add(k);
      else gone.push({ id: e.id, norm: e.norm });
    }
    for (const g of gone) {
      const terms = nameTerms(g.norm);
      for (const rank of [0, 1, 2] as const) {
        const of = terms.filter((t) => t.rank === rank).map((t) => t.term);
        for (const part of chunks(of)) await tx.deleteFrom("vessel_name_terms").where("rank", "=", rank).where("term", "in", part).where("name_id", "=", g.id).execute();
      }
    }
    for (const part of chunks(gone.map((g) => g.id))) await tx.deleteFrom("vessel_names").where("id", "in", part).execute();
    const stored = await bulkInsert(
      tx,
      this.#engine,
      "vessel_names",
      NAME_COLUMNS,
      NAME_TYPES,
      [...wanted.values()],
      "ON CONFLICT (vessel_id, name, source) DO UPDATE SET first_seen = excluded.first_seen, last_seen = excluded.last_seen RETURNING id, vessel_id, name, norm",
    );
    await this.#insertTerms(
      tx,
      stored.filter((s) => !kept.has(`${s.vessel_id}\0${s.name}`)).map((s) => ({ id: Number(s.id), norm: String(s.norm) })),
    );
  }

  async #insertTerms(tx: Tx, names: readonly { id: number; norm: string }[]): Promise<void> {
    const rows: [number, string, number][] = [];
    for (const n of names) for (const t of nameTerms(n.norm)) rows.push([t.rank, t.term, n.id]);
    // In key order, inserts append to the index instead of landing all over it: a bulk load of
    // a million terms stays within the page cache (measured: minutes unsorted, seconds sorted).
    rows.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || a[2] - b[2]);
    // Terms are written only for names inserted just now (new ids), so none can exist yet: no conflict clause to check.
    await bulkInsert(tx, this.#engine, "vessel_name_terms", ["rank", "term", "name_id"], ["int4", "text", "int4"], rows);
  }
}

/** Links from datasets (no station) and from the stations the caller may see. */
export function visibleFilter(visible: VisibleStations, column = "station_id") {
  const col = sql.ref(column);
  return visible.length === 0 ? sql<SqlBool>`${col} IS NULL` : sql<SqlBool>`(${col} IS NULL OR ${col} IN (${sql.join([...visible])}))`;
}
