import { SqlStore } from "../sql-store.ts";
import { type Kysely, sql, type Transaction } from "kysely";
import { isValidImo, parseMmsi } from "../../../domain/identifiers.ts";
import { normalizeName } from "../../../domain/vessels/names.ts";
import type { Designation } from "../../../domain/sanctions/designation.ts";
import { listedNames } from "../../../domain/sanctions/listed-facts.ts";
import type { EmissionImport, FleetImport, RegistryRefreshReport } from "../../../interfaces/vessels.ts";
import { chunks } from "../batches.ts";
import type { BulkRow, ColumnType, SqlDialect } from "../dialect/dialect.ts";
import type { Database, VesselAisSyncedTable } from "../schema.ts";
import { VesselNameIndex } from "./vessel-name-index.ts";

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
type AisRow = VesselAisSyncedTable;

/** AIS identity rows linked per transaction: bounded, so ingest writes are not held up long. */
const AIS_CHUNK = 500;
/** An identity seen again re-links (to move last_seen on) at most this often. */
const AIS_RESEEN_MS = 3_600_000;

const IDENTIFIER_COLUMNS = ["vessel_id", "kind", "value", "source", "station_id", "first_seen", "last_seen"];
const IDENTIFIER_TYPES: ColumnType[] = ["int4", "text", "text", "text", "int4", "int8", "int8"];
const NAME_COLUMNS = ["vessel_id", "name", "norm", "source", "station_id", "first_seen", "last_seen"];
const NAME_TYPES: ColumnType[] = ["int4", "text", "text", "text", "int4", "int8", "int8"];

/**
 * AIS identity rows not linked as they are now: never linked, or their IMO, name or call
 * sign differs from the linked one, or seen again an hour after the last link. Callers
 * append `AND ...` conditions.
 */
const AIS_CHANGED = `SELECT i.station_id, i.mmsi, i.imo, i.name, i.callsign, i.updated_at
  FROM vessel_identities i LEFT JOIN vessel_ais_synced s ON s.station_id = i.station_id AND s.mmsi = i.mmsi
  WHERE (s.station_id IS NULL OR s.imo IS DISTINCT FROM i.imo OR s.name IS DISTINCT FROM i.name
         OR s.callsign IS DISTINCT FROM i.callsign OR i.updated_at > s.updated_at + ${AIS_RESEEN_MS})`;

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
 * Links sources to ships in the vessel registry (migration 0004): datasets and sanctions
 * lists replace one source's links at a time; AIS identity rows that changed are linked
 * as they come (refresh). Names go into the search index as they are linked.
 */
export class SqlVesselRegistry extends SqlStore {
  readonly #names: VesselNameIndex;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    super(db, dialect);
    this.#names = new VesselNameIndex(dialect);
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
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom("vessel_emissions").execute();
      const rows = records.map((r): BulkRow => [r.imo, r.year, r.name, r.shipType, r.portOfRegistry, r.co2T, r.fuelT, r.timeAtSeaH]);
      for (const part of chunks(rows, 10_000)) {
        await this.dialect.bulkInsert(tx, {
          table: "vessel_emissions",
          columns: ["imo", "year", "name", "ship_type", "port_of_registry", "co2_t", "fuel_t", "time_at_sea_h"],
          types: ["int4", "int4", "text", "text", "text", "float8", "float8", "float8"],
          rows: part,
        });
        onBatch?.(part.length);
      }
      await this.#relinkSource(tx, "emsa_mrv", entries, null);
    });
    await this.#analyze();
  }

  /** Statistics that describe the tables after a bulk load, so the search join walks the term index. */
  async #analyze(): Promise<void> {
    await this.dialect.analyze(this.db, ["vessels", "vessel_identifiers", "vessel_names", "vessel_name_terms", "vessel_emissions", "vessel_fleet"]);
  }

  async replaceFleet(source: string, records: readonly FleetImport[], seenAt: number): Promise<void> {
    const entries: SourceEntry[] = records.map((r) => ({ key: { imo: r.imo }, names: [{ name: r.name, firstSeen: seenAt, lastSeen: seenAt }], identifiers: [] }));
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom("vessel_fleet").where("source", "=", source).execute();
      const rows = records.map((r): BulkRow => [r.imo, source, r.name, r.shipType, r.grossTons, r.deadweightTons, r.yearBuilt, r.operator]);
      await this.dialect.bulkInsert(tx, {
        table: "vessel_fleet",
        columns: ["imo", "source", "name", "ship_type", "gross_tons", "deadweight_tons", "year_built", "operator"],
        types: ["int4", "text", "text", "text", "float8", "float8", "int4", "text"],
        rows,
      });
      await this.#relinkSource(tx, source, entries, null);
    });
    await this.#analyze();
  }

  async refresh(now: number): Promise<RegistryRefreshReport> {
    const sanctionsDesignations = await this.linkSanctions(now);
    const aisIdentities = await this.#refreshAis();
    // A refresh that linked many rows (the first one after a sanctions import, or a new station) changes the statistics.
    if (aisIdentities + sanctionsDesignations > 1_000) await this.#analyze();
    return { aisIdentities, sanctionsDesignations };
  }

  /**
   * Re-links every list whose latest version is not the one linked last. A list's links are
   * what search finds a ship by (every name its records give, listed, other and former, and
   * its MMSIs); the vessel answer dates the list's facts by the listing, not by these links.
   */
  async linkSanctions(now: number): Promise<number> {
    const lists = await this.db.selectFrom("sanctions_lists").select(["list", "version_id", "as_of"]).where("version_id", "is not", null).execute();
    let linked = 0;
    for (const l of lists) {
      // `:names` since the links carry every name a record gives: lists linked before are linked again.
      const mark = `sanctions:names:${l.list}`;
      const state = await this.db.selectFrom("vessel_registry_state").select("value").where("key", "=", mark).executeTakeFirst();
      if (state?.value === l.version_id) continue;
      const designations = await this.db
        .selectFrom("sanctions_designations")
        .select(["id", "name", "active", "listed_at", "first_seen", "delisted_at", "record"])
        .where("list", "=", l.list)
        .execute();
      const ids = await this.db
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
        // Other and former names end where the listed name starts, so the listed name stays the one a
        // page address and a hit's link are made from (the newest).
        const names = listedNames(JSON.parse(d.record) as Designation).map((n) =>
          n.as === "name" ? { name: n.name, firstSeen, lastSeen } : { name: n.name, firstSeen: firstSeen - 1, lastSeen: firstSeen - 1 },
        );
        for (const key of keys) {
          entries.push({
            key,
            names,
            identifiers: mmsis.map((m) => ({ kind: "mmsi" as const, value: String(m), firstSeen, lastSeen })),
          });
        }
      }
      await this.db.transaction().execute(async (tx) => {
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
      const rows = await this.dialect.raw<AisRow>(
        this.db,
        `${AIS_CHANGED} AND (i.station_id > ? OR (i.station_id = ? AND i.mmsi > ?)) ORDER BY i.station_id, i.mmsi LIMIT ${AIS_CHUNK}`,
        [after.station, after.station, after.mmsi],
      );
      if (rows.length === 0) return total;
      await this.db.transaction().execute((tx) => this.#linkAis(tx, rows));
      total += rows.length;
      const last = rows.at(-1)!;
      after = { station: last.station_id, mmsi: last.mmsi };
      if (rows.length < AIS_CHUNK) return total;
    }
  }

  /**
   * Links the identity rows of these (station, MMSI) pairs that changed, at once: ingest
   * calls this as soon as a batch with static reports is committed, so a ship's IMO
   * answers without waiting for `refresh`. Returns the rows linked.
   */
  async linkAis(keys: readonly { stationId: number; mmsi: number }[]): Promise<number> {
    const byStation = new Map<number, number[]>();
    for (const k of keys) {
      const list = byStation.get(k.stationId) ?? [];
      list.push(k.mmsi);
      byStation.set(k.stationId, list);
    }
    let total = 0;
    for (const [stationId, mmsis] of [...byStation].sort((a, b) => a[0] - b[0])) {
      for (const part of chunks([...new Set(mmsis)].sort((a, b) => a - b), AIS_CHUNK)) {
        const rows = await this.dialect.raw<AisRow>(
          this.db,
          `${AIS_CHANGED} AND i.station_id = ? AND i.mmsi IN (${part.map(() => "?").join(", ")}) ORDER BY i.mmsi`,
          [stationId, ...part],
        );
        if (rows.length === 0) continue;
        await this.db.transaction().execute((tx) => this.#linkAis(tx, rows));
        total += rows.length;
      }
    }
    return total;
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
      `ON CONFLICT (${table === "vessel_names" ? "vessel_id, name, source" : "vessel_id, kind, value, source"}) DO UPDATE SET first_seen = ${this.dialect.least(`${table}.first_seen`, "excluded.first_seen")}, last_seen = ${this.dialect.greatest(`${table}.last_seen`, "excluded.last_seen")}`;
    await this.dialect.bulkInsert(tx, { table: "vessel_identifiers", columns: IDENTIFIER_COLUMNS, types: IDENTIFIER_TYPES, rows: [...identifiers.values()], tail: seen("vessel_identifiers") });
    if (names.size > 0) {
      const vesselIds = [...new Set([...names.values()].map((r) => Number(r[0])))];
      const existing = new Set<string>();
      for (const part of chunks(vesselIds)) {
        for (const e of await tx.selectFrom("vessel_names").select(["vessel_id", "name", "source"]).where("vessel_id", "in", part).execute()) {
          existing.add(`${e.vessel_id}\0${e.name}\0${e.source}`);
        }
      }
      const { rows: stored } = await this.dialect.bulkInsert(tx, {
        table: "vessel_names",
        columns: NAME_COLUMNS,
        types: NAME_TYPES,
        rows: [...names.values()],
        tail: `${seen("vessel_names")} RETURNING id, vessel_id, name, norm, source`,
      });
      await this.#names.add(
        tx,
        stored.filter((s) => !existing.has(`${s.vessel_id}\0${s.name}\0${s.source}`)).map((s) => ({ id: Number(s.id), norm: String(s.norm) })),
      );
    }
    await this.dialect.bulkInsert(tx, {
      table: "vessel_ais_synced",
      columns: ["station_id", "mmsi", "imo", "name", "callsign", "updated_at"],
      types: ["int4", "int4", "int4", "text", "text", "int8"],
      rows: rows.map((r) => [r.station_id, r.mmsi, r.imo, r.name, r.callsign, r.updated_at]),
      tail: "ON CONFLICT (station_id, mmsi) DO UPDATE SET imo = excluded.imo, name = excluded.name, callsign = excluded.callsign, updated_at = excluded.updated_at",
    });
  }

  /** The registry id of each key, creating ships not yet known. */
  async #ensureVessels(tx: Tx, keys: readonly VesselKey[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    const imos = [...new Set(keys.flatMap((k) => ("imo" in k ? [k.imo] : [])))];
    const mmsis = [...new Set(keys.flatMap((k) => ("mmsi" in k ? [k.mmsi] : [])))];
    const load = async () => {
      const wantImos = imos.filter((i) => !ids.has(`i:${i}`));
      const wantMmsis = mmsis.filter((m) => !ids.has(`m:${m}`));
      // As few statements as the engine allows: a first import asks for 20,000 IMOs at once.
      for (const part of chunks(wantImos, this.dialect.anyOfLimit)) {
        for (const v of (await sql<{ id: number; imo: number }>`SELECT id, imo FROM vessels WHERE ${this.dialect.anyOf("imo", part)}`.execute(tx)).rows) ids.set(`i:${v.imo}`, v.id);
      }
      for (const part of chunks(wantMmsis, this.dialect.anyOfLimit)) {
        for (const v of (await sql<{ id: number; mmsi_key: number }>`SELECT id, mmsi_key FROM vessels WHERE ${this.dialect.anyOf("mmsi_key", part)}`.execute(tx)).rows) ids.set(`m:${v.mmsi_key}`, v.id);
      }
    };
    await load();
    const now = Date.now();
    const missing: BulkRow[] = [
      ...imos.filter((i) => !ids.has(`i:${i}`)).map((i): BulkRow => [i, null, now]),
      ...mmsis.filter((m) => !ids.has(`m:${m}`)).map((m): BulkRow => [null, m, now]),
    ];
    if (missing.length > 0) {
      await this.dialect.bulkInsert(tx, { table: "vessels", columns: ["imo", "mmsi_key", "created_at"], types: ["int4", "int4", "int8"], rows: missing, tail: "ON CONFLICT DO NOTHING" });
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
    await this.dialect.bulkInsert(tx, { table: "vessel_identifiers", columns: IDENTIFIER_COLUMNS, types: IDENTIFIER_TYPES, rows: [...identifiers.values()] });

    const existing = await tx.selectFrom("vessel_names").select(["id", "vessel_id", "name", "norm"]).where("source", "=", source).execute();
    const kept = new Set<string>();
    const gone: { id: number; norm: string }[] = [];
    for (const e of existing) {
      const k = `${e.vessel_id}\0${e.name}`;
      if (wanted.has(k)) kept.add(k);
      else gone.push({ id: e.id, norm: e.norm });
    }
    await this.#names.remove(tx, gone);
    for (const part of chunks(gone.map((g) => g.id))) await tx.deleteFrom("vessel_names").where("id", "in", part).execute();
    const { rows: stored } = await this.dialect.bulkInsert(tx, {
      table: "vessel_names",
      columns: NAME_COLUMNS,
      types: NAME_TYPES,
      rows: [...wanted.values()],
      tail: "ON CONFLICT (vessel_id, name, source) DO UPDATE SET first_seen = excluded.first_seen, last_seen = excluded.last_seen RETURNING id, vessel_id, name, norm",
    });
    await this.#names.add(
      tx,
      stored.filter((s) => !kept.has(`${s.vessel_id}\0${s.name}`)).map((s) => ({ id: Number(s.id), norm: String(s.norm) })),
    );
  }
}
