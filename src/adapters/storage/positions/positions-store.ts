import type { Kysely, Transaction } from "kysely";
import type {
  IngestBatch,
  IngestStation,
  PositionFix,
  PositionStore,
  StationCounters,
  VesselIdentity,
  VesselIdentityUpdate,
} from "../../../interfaces/positions.ts";
import type { BulkRow, ColumnType, SqlDialect } from "../dialect/dialect.ts";
import { fixFromRow, identityFromRow } from "./position-rows.ts";
import { identityEvents } from "./identity-events.ts";
import { writeVesselEvents } from "./vessel-event-rows.ts";
import type { Database } from "../schema.ts";

/**
 * Bits of `vessel_identities.fields`: which fields an identity update carries. Static
 * reports each carry a subset (24 A only the name, 24 B no name, 19 no call sign), and a
 * field an update does not carry must keep its stored value, while one it carries as
 * "not available" must become null. The mask travels with the row, so the upsert can
 * tell the two apart on both engines without reading first.
 */
export const IDENTITY_FIELDS = {
  imo: 1,
  name: 2,
  callsign: 4,
  shipType: 8,
  dimensions: 16,
  draught: 32,
  destination: 64,
  eta: 128,
} as const;

/** Members of one IN list. */
const IN_CHUNK = 500;

const POSITION_COLUMNS = ["mmsi", "time", "station_id", "lat", "lon", "sog", "cog", "heading", "nav_status"] as const;
const IDENTITY_COLUMNS = [
  "station_id",
  "mmsi",
  "imo",
  "name",
  "callsign",
  "ship_type",
  "to_bow",
  "to_stern",
  "to_port",
  "to_starboard",
  "draught",
  "destination",
  "eta",
  "updated_at",
  "fields",
] as const;
const POSITION_TYPES: ColumnType[] = ["int4", "int8", "int4", "float8", "float8", "float4", "float4", "int2", "int2"];
const LATEST_TYPES: ColumnType[] = ["int4", "int8", "int4", "float8", "float8", "float8", "float8", "int4", "int4"];
const IDENTITY_TYPES: ColumnType[] = ["int4", "int4", "int4", "text", "text", "int4", "int4", "int4", "int4", "int4", "float8", "text", "text", "int8", "int4"];

type Row = BulkRow;

function fixRow(p: PositionFix): Row {
  return [p.mmsi, p.time, p.stationId, p.lat, p.lon, p.sog, p.cog, p.heading, p.navStatus];
}

const QUEUE_COLUMNS = ["mmsi", "time", "station_id", "lat", "lon", "sog", "cog"] as const;
const QUEUE_TYPES: ColumnType[] = ["int4", "int8", "int4", "float8", "float8", "float8", "float8"];

function queueRow(p: PositionFix): Row {
  return [p.mmsi, p.time, p.stationId, p.lat, p.lon, p.sog, p.cog];
}

const DERIVED_QUEUE_COLUMNS = ["mmsi", "time", "station_id", "lat", "lon", "sog", "nav_status"] as const;
const DERIVED_QUEUE_TYPES: ColumnType[] = ["int4", "int8", "int4", "float8", "float8", "float8", "int2"];

function derivedQueueRow(p: PositionFix): Row {
  return [p.mmsi, p.time, p.stationId, p.lat, p.lon, p.sog, p.navStatus];
}

function identityRow(u: VesselIdentityUpdate): Row {
  let fields = 0;
  const has = (v: unknown) => v !== undefined;
  if (has(u.imo)) fields |= IDENTITY_FIELDS.imo;
  if (has(u.name)) fields |= IDENTITY_FIELDS.name;
  if (has(u.callsign)) fields |= IDENTITY_FIELDS.callsign;
  if (has(u.shipType)) fields |= IDENTITY_FIELDS.shipType;
  if (has(u.toBow)) fields |= IDENTITY_FIELDS.dimensions;
  if (has(u.draught)) fields |= IDENTITY_FIELDS.draught;
  if (has(u.destination)) fields |= IDENTITY_FIELDS.destination;
  if (has(u.eta)) fields |= IDENTITY_FIELDS.eta;
  return [
    u.stationId,
    u.mmsi,
    u.imo ?? null,
    u.name ?? null,
    u.callsign ?? null,
    u.shipType ?? null,
    u.toBow ?? null,
    u.toStern ?? null,
    u.toPort ?? null,
    u.toStarboard ?? null,
    u.draught ?? null,
    u.destination ?? null,
    u.eta ?? null,
    u.updatedAt,
    fields,
  ];
}

/** `col = CASE WHEN the update carries it THEN new ELSE stored END` for each identity column. */
function identityAssignments(): string {
  const carried = (bit: number, col: string) =>
    `"${col}" = CASE WHEN (excluded.fields & ${bit}) <> 0 THEN excluded."${col}" ELSE vessel_identities."${col}" END`;
  return [
    carried(IDENTITY_FIELDS.imo, "imo"),
    carried(IDENTITY_FIELDS.name, "name"),
    carried(IDENTITY_FIELDS.callsign, "callsign"),
    carried(IDENTITY_FIELDS.shipType, "ship_type"),
    carried(IDENTITY_FIELDS.dimensions, "to_bow"),
    carried(IDENTITY_FIELDS.dimensions, "to_stern"),
    carried(IDENTITY_FIELDS.dimensions, "to_port"),
    carried(IDENTITY_FIELDS.dimensions, "to_starboard"),
    carried(IDENTITY_FIELDS.draught, "draught"),
    carried(IDENTITY_FIELDS.destination, "destination"),
    carried(IDENTITY_FIELDS.eta, "eta"),
    `"updated_at" = excluded."updated_at"`,
    `"fields" = vessel_identities."fields" | excluded."fields"`,
  ].join(", ");
}

const LATEST_CONFLICT = `ON CONFLICT (station_id, mmsi) DO UPDATE SET "time" = excluded."time", lat = excluded.lat, lon = excluded.lon, sog = excluded.sog, cog = excluded.cog, heading = excluded.heading, nav_status = excluded.nav_status WHERE excluded."time" >= latest_positions."time"`;
const IDENTITY_CONFLICT = `ON CONFLICT (station_id, mmsi) DO UPDATE SET ${identityAssignments()}`;
// `last_heard_at` is a time, every other counter a sum.
const COUNTER_CONFLICT = `ON CONFLICT (station_id, counter) DO UPDATE SET value = CASE WHEN excluded.counter = 'last_heard_at' THEN excluded.value ELSE station_counters.value + excluded.value END`;

/** Position history, latest fixes, identities and counters on SQLite or PostgreSQL. */
export class SqlPositionStore implements PositionStore {
  readonly #db: Kysely<Database>;
  readonly #dialect: SqlDialect;

  readonly #zoneQueue: () => boolean;
  readonly #derivedQueue: () => boolean;

  /**
   * While `zoneQueue()` says so, every batch's fixes are also queued for the zone evaluator
   * in the same transaction (zone-state-store.ts), so an acknowledged fix is never lost to
   * it by a crash. It says no while no zone exists: the queue costs ingest about a third of
   * its SQLite throughput (docs/webhooks.md).
   */
  constructor(db: Kysely<Database>, dialect: SqlDialect, options: { zoneQueue?: () => boolean; derivedQueue?: () => boolean } = {}) {
    this.#db = db;
    this.#dialect = dialect;
    this.#zoneQueue = options.zoneQueue ?? (() => false);
    // Likewise for the port-call and transit detectors (derived-store.ts), unless derivation is off.
    this.#derivedQueue = options.derivedQueue ?? (() => false);
  }

  async writeBatch(batch: IngestBatch): Promise<{ inserted: number }> {
    const counters: Row[] = batch.counters.filter((c) => c.delta !== 0).map((c) => [c.stationId, c.counter, c.delta]);
    for (const h of batch.heard) counters.push([h.stationId, "last_heard_at", h.at]);
    const positions = batch.positions.map(fixRow);
    const latest = batch.latest.map(fixRow);
    const identities = batch.identities.map(identityRow);
    if (positions.length + latest.length + identities.length + counters.length === 0) return { inserted: 0 };
    return this.#db.transaction().execute(async (trx) => {
      const inserted = await this.#write(trx, "positions", POSITION_COLUMNS, POSITION_TYPES, positions, "ON CONFLICT DO NOTHING");
      if (this.#zoneQueue()) await this.#write(trx, "zone_feed", QUEUE_COLUMNS, QUEUE_TYPES, batch.positions.map(queueRow), "");
      if (this.#derivedQueue()) await this.#write(trx, "derived_feed", DERIVED_QUEUE_COLUMNS, DERIVED_QUEUE_TYPES, batch.positions.map(derivedQueueRow), "");
      // The latest table's columns are those of positions in the same order (see fixRow).
      await this.#write(trx, "latest_positions", POSITION_COLUMNS, LATEST_TYPES, latest, LATEST_CONFLICT);
      // Identity changes are judged against what is stored before it is overwritten.
      if (this.#derivedQueue() && batch.identities.length > 0) {
        const changes = await identityEvents(trx, batch.identities);
        await writeVesselEvents(trx, this.#dialect, changes, Date.now());
        // Their alerts are raised by derivation, which drains this queue in its own transaction.
        await this.#write(trx, "identity_event_feed", ["event_id"], ["text"], changes.map((e) => [e.id]), "ON CONFLICT DO NOTHING");
      }
      await this.#write(trx, "vessel_identities", IDENTITY_COLUMNS, IDENTITY_TYPES, identities, IDENTITY_CONFLICT);
      await this.#write(trx, "station_counters", ["station_id", "counter", "value"], ["int4", "text", "int8"], counters, COUNTER_CONFLICT);
      return { inserted };
    });
  }

  /** Inserts rows in bounded statements; returns the rows the engine reports as written. */
  async #write(trx: Transaction<Database>, table: string, columns: readonly string[], types: readonly ColumnType[], rows: Row[], conflict: string): Promise<number> {
    return (await this.#dialect.bulkInsert(trx, { table, columns, types, rows, tail: conflict })).written;
  }

  async latest(stationIds: readonly number[], since: number): Promise<PositionFix[]> {
    if (stationIds.length === 0) return [];
    const rows = await this.#db
      .selectFrom("latest_positions")
      .selectAll()
      .where("station_id", "in", [...stationIds])
      .where("time", ">=", since)
      .orderBy("time", "desc")
      .orderBy("mmsi")
      .execute();
    return rows.map(fixFromRow);
  }

  async identities(stationIds: readonly number[], mmsis: readonly number[]): Promise<VesselIdentity[]> {
    if (stationIds.length === 0 || mmsis.length === 0) return [];
    const out: VesselIdentity[] = [];
    for (let at = 0; at < mmsis.length; at += IN_CHUNK) {
      const rows = await this.#db
        .selectFrom("vessel_identities")
        .selectAll()
        .where("station_id", "in", [...stationIds])
        .where("mmsi", "in", mmsis.slice(at, at + IN_CHUNK))
        .execute();
      for (const r of rows) out.push(identityFromRow(r));
    }
    return out;
  }

  async track(mmsi: number, from: number, to: number, stationIds: readonly number[]): Promise<PositionFix[]> {
    if (stationIds.length === 0) return [];
    const rows = await this.#db
      .selectFrom("positions")
      .selectAll()
      .where("mmsi", "=", mmsi)
      .where("time", ">=", from)
      .where("time", "<", to)
      .where("station_id", "in", [...stationIds])
      .orderBy("time")
      .execute();
    return rows.map(fixFromRow);
  }

  async countPositions(stationId: number): Promise<number> {
    const r = await this.#db
      .selectFrom("positions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("station_id", "=", stationId)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  async counters(stationIds: readonly number[]): Promise<StationCounters[]> {
    if (stationIds.length === 0) return [];
    const rows = await this.#db.selectFrom("station_counters").selectAll().where("station_id", "in", [...stationIds]).execute();
    const by = new Map<number, StationCounters>(stationIds.map((id) => [id, { stationId: id, counters: {}, lastHeardAt: null }]));
    for (const r of rows) {
      const s = by.get(r.station_id);
      if (!s) continue;
      if (r.counter === "last_heard_at") s.lastHeardAt = Number(r.value);
      else s.counters[r.counter] = Number(r.value);
    }
    return [...by.values()];
  }

  async stationBySecretHash(hash: string): Promise<IngestStation | null> {
    const r = await this.#db.selectFrom("stations").select(["id", "account_id", "name", "shared", "secret_hash", "udp_key", "allow_from"]).where("secret_hash", "=", hash).executeTakeFirst();
    return r ? { id: r.id, accountId: r.account_id, name: r.name, shared: r.shared === 1, secretHash: r.secret_hash, udpKey: r.udp_key, allowFrom: r.allow_from === null ? null : r.allow_from.split(",") } : null;
  }

  async stationById(id: number): Promise<IngestStation | null> {
    if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
    const r = await this.#db
      .selectFrom("stations")
      .select(["id", "account_id", "name", "shared", "secret_hash", "udp_key", "allow_from"])
      // A public feed's station is seen by everyone (zone alerts of every account read it).
      .select((eb) => eb.exists(eb.selectFrom("feeds").select("feeds.station_id").whereRef("feeds.station_id", "=", "stations.id")).as("is_feed"))
      .where("id", "=", id)
      .executeTakeFirst();
    return r
      ? { id: r.id, accountId: r.account_id, name: r.name, shared: r.shared === 1 || Boolean(r.is_feed), secretHash: r.secret_hash, udpKey: r.udp_key, allowFrom: r.allow_from === null ? null : r.allow_from.split(",") }
      : null;
  }
}
