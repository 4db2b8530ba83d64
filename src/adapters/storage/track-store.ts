import { CompiledQuery, type Kysely } from "kysely";
import type pg from "pg";
import { bucketCount } from "../../domain/tracks/window.ts";
import type { BucketQuery, TrackPoint, TrackStore } from "../../ports/tracks.ts";
import type { Engine } from "./database.ts";
import type { Database, PositionsTable } from "./schema.ts";

/** PostgreSQL: tracks of this many buckets or more are read in two halves at once (see lastPerBucket). */
const SPLIT_FROM_BUCKETS = 200;

/** A stored fix as the compaction job moves it. */
export interface StoredFix extends TrackPoint {
  mmsi: number;
}

type PointRow = Pick<PositionsTable, "time" | "station_id" | "lat" | "lon" | "sog" | "cog" | "nav_status">;

const toPoint = (r: PointRow): TrackPoint => ({
  time: Number(r.time),
  stationId: r.station_id,
  lat: r.lat,
  lon: r.lon,
  sog: r.sog,
  cog: r.cog,
  navStatus: r.nav_status,
});

/**
 * Reads of the `positions` table (written by station ingest, clustered by mmsi and time)
 * for tracks and for the archive compaction.
 *
 * The last fix per bucket is found with one index probe per bucket (backwards from the
 * bucket's end, skipping stations the caller may not see), not by reading every fix of
 * the window: a ship reporting every 10 s has ~60,000 fixes in 7 days, but a track has at
 * most 1,500 buckets, so the work follows the buckets. Both engines do it in one statement:
 * SQLite with a recursive CTE of bucket starts and a correlated subquery, PostgreSQL with
 * generate_series and a LATERAL subquery.
 */
export class SqlTrackStore implements TrackStore {
  readonly #db: Kysely<Database>;
  readonly #engine: Engine;
  readonly #pg: pg.Pool | null;

  /** `pgPool`: on PostgreSQL, the store's pool, for the bucket read as a named prepared statement. */
  constructor(db: Kysely<Database>, engine: Engine, pgPool: pg.Pool | null = null) {
    this.#db = db;
    this.#engine = engine;
    this.#pg = pgPool;
  }

  async lastPerBucket(q: BucketQuery): Promise<TrackPoint[]> {
    if (q.stationIds.length === 0 || q.to <= q.from) return [];
    let points: TrackPoint[];
    const buckets = bucketCount(q, q.bucketMs);
    if (this.#pg && buckets >= SPLIT_FROM_BUCKETS) {
      // PostgreSQL runs a statement on one core, and the probes are CPU work in its backend: a
      // long track is read as two halves, split at a bucket edge, on two connections at once
      // (1,009 buckets: 11.5 -> 7.9 ms measured side by side). It is the same work in all, so
      // it helps while a core is spare and should not help under full load (not measured there).
      const mid = (Math.floor(q.from / q.bucketMs) + Math.floor(buckets / 2)) * q.bucketMs;
      const [early, late] = await Promise.all([this.#read({ ...q, to: mid }), this.#read({ ...q, from: mid })]);
      points = [...early, ...late];
    } else {
      points = await this.#read(q);
    }
    // Two stations may hold a fix of the same instant; the bucket keeps one.
    return points.filter((p, i) => i === 0 || p.time !== points[i - 1]!.time);
  }

  async #read(q: BucketQuery): Promise<TrackPoint[]> {
    const compiled = bucketQuery(this.#engine, q);
    // PostgreSQL plans a named statement once per connection instead of on every track.
    const r = this.#pg ? await this.#pg.query({ name: "mds_track_buckets", text: compiled.sql, values: [...compiled.parameters] }) : await this.#db.executeQuery(compiled);
    return decodeBuckets(this.#engine, r.rows);
  }

  /** MMSIs with any stored fix, in order: every fix has its vessel's row in latest_positions, which is small. */
  async mmsis(): Promise<number[]> {
    const rows = await this.#db.selectFrom("latest_positions").select("mmsi").distinct().orderBy("mmsi").execute();
    return rows.map((r) => r.mmsi);
  }

  /** The oldest fixes of one vessel before `before`, in key order (time, station). */
  async oldest(mmsi: number, before: number, limit: number): Promise<StoredFix[]> {
    const rows = await this.#db
      .selectFrom("positions")
      .select(["time", "station_id", "lat", "lon", "sog", "cog", "nav_status"])
      .where("mmsi", "=", mmsi)
      .where("time", "<", before)
      .orderBy("time")
      .orderBy("station_id")
      .limit(limit)
      .execute();
    return rows.map((r) => ({ mmsi, ...toPoint(r) }));
  }

  /** Deletes the vessel's fixes up to and including the key (time, station) of the last one moved. */
  async deleteThrough(mmsi: number, time: number, stationId: number): Promise<number> {
    const r = await this.#db
      .deleteFrom("positions")
      .where("mmsi", "=", mmsi)
      .where((eb) => eb.or([eb("time", "<", time), eb.and([eb("time", "=", time), eb("station_id", "<=", stationId)])]))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}

/** Bytes per fix in PostgreSQL's packed answer: time 8, station 4, lat 8, lon 8, sog 4, cog 4, nav status 2. */
const PACKED_BYTES = 38;

/**
 * The fixes of a bucketQuery answer, in time order. PostgreSQL: one row, `b`, the packed
 * bytea. SQLite: one row, `j`, a JSON array of [time, station_id, lat, lon, sog, cog, nav_status].
 */
export function decodeBuckets(engine: Engine, rows: readonly unknown[]): TrackPoint[] {
  if (engine === "postgres") {
    const b = (rows[0] as { b: Buffer | null } | undefined)?.b;
    if (!b) return [];
    const points: TrackPoint[] = [];
    for (let o = 0; o + PACKED_BYTES <= b.length; o += PACKED_BYTES) {
      const sog = b.readFloatBE(o + 28);
      const cog = b.readFloatBE(o + 32);
      const nav = b.readInt16BE(o + 36);
      points.push({
        time: Number(b.readBigInt64BE(o)),
        stationId: b.readInt32BE(o + 8),
        lat: b.readDoubleBE(o + 12),
        lon: b.readDoubleBE(o + 20),
        sog: Number.isNaN(sog) ? null : sog,
        cog: Number.isNaN(cog) ? null : cog,
        navStatus: nav < 0 ? null : nav,
      });
    }
    return points;
  }
  // One JSON text for all buckets: node:sqlite builds a JS object per row, which cost more than the query itself.
  const text = (rows[0] as { j: string | null } | undefined)?.j;
  const arrays = text ? (JSON.parse(text) as [number, number, number, number, number | null, number | null, number | null][]) : [];
  const points = arrays.map((a) => ({ time: a[0], stationId: a[1], lat: a[2], lon: a[3], sog: a[4], cog: a[5], navStatus: a[6] }));
  return points.sort((a, b) => a.time - b.time);
}

/**
 * The statement of lastPerBucket (its answer read by decodeBuckets); exported for the
 * benchmark's bare-query baseline. Bucket edges are multiples of the length (window.ts
 * bucketCount); the first and last bucket are cut by the window's ends.
 */
export function bucketQuery(engine: Engine, q: BucketQuery): CompiledQuery<unknown> {
  if (engine === "postgres") {
    // The buckets come back packed into one bytea (PACKED_BYTES per fix, big-endian; NaN and -1
    // stand for null): PostgreSQL writing 1,440 rows of seven columns as text and node-pg
    // parsing them back took longer than the probes themselves (measured 7.5 against 5.9 ms).
    return CompiledQuery.raw(
      `SELECT string_agg(int8send(p."time") || int4send(p.station_id) || float8send(p.lat) || float8send(p.lon)
         || float4send(coalesce(p.sog, 'NaN'::real)) || float4send(coalesce(p.cog, 'NaN'::real))
         || int2send(coalesce(p.nav_status, -1::smallint)), ''::bytea ORDER BY p."time") AS b
       FROM generate_series($2::int8 - $2::int8 % $4::int8, $3::int8 - 1, $4::int8) AS b(s)
       CROSS JOIN LATERAL (
         SELECT "time", station_id, lat, lon, sog, cog, nav_status FROM positions
         WHERE mmsi = $1 AND "time" >= GREATEST(b.s, $2) AND "time" < LEAST(b.s + $4, $3) AND station_id = ANY($5::int4[])
         ORDER BY "time" DESC LIMIT 1
       ) p`,
      [q.mmsi, q.from, q.to, q.bucketMs, [...q.stationIds]],
    );
  }
  // The MATERIALIZED CTE fixes the plan: bucket starts, one probe each, then the fix's row by its key.
  // Station ids go into the text as numbers: an IN list of constants is checked per probe far
  // faster than one read from json_each (measured 4.0 against 7.6 ms for 1,440 buckets), and
  // the few distinct station sets keep node:sqlite's statement cache small.
  const stations = q.stationIds.map((id) => {
    if (!Number.isSafeInteger(id)) throw new Error(`station id ${id} is not an integer`);
    return String(id);
  });
  const inStations = `IN (${stations.join(",")})`;
  return CompiledQuery.raw(
    `WITH RECURSIVE b(s, e) AS (SELECT ?2, min((CAST(?2 / ?4 AS INTEGER) + 1) * ?4, ?3) UNION ALL SELECT e, min(e + ?4, ?3) FROM b WHERE e < ?3),
     t(tm) AS MATERIALIZED (
       SELECT (SELECT q."time" FROM positions q
               WHERE q.mmsi = ?1 AND q."time" >= b.s AND q."time" < b.e
                 AND q.station_id ${inStations}
               ORDER BY q."time" DESC LIMIT 1)
       FROM b)
     SELECT json_group_array(json_array(p."time", p.station_id, p.lat, p.lon, p.sog, p.cog, p.nav_status)) AS j
     FROM t CROSS JOIN positions p
     WHERE t.tm IS NOT NULL AND p.mmsi = ?1 AND p."time" = t.tm AND p.station_id ${inStations}`,
    [q.mmsi, q.from, q.to, q.bucketMs],
  );
}
