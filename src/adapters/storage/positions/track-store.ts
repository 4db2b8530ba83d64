import { SqlStore } from "../sql-store.ts";
import { type Kysely, sql } from "kysely";
import { bucketCount } from "../../../domain/tracks/window.ts";
import type { BucketCountQuery, BucketQuery, RecentPositions, StoredFix, TrackPoint, TrackStore } from "../../../interfaces/tracks.ts";
import { PositionPartitions } from "./position-partitions.ts";
import type { SqlDialect } from "../dialect/dialect.ts";
import type { Database, PositionsTable } from "../schema.ts";

/** Tracks of this many buckets or more are read in two halves at once where the dialect says so (see lastPerBucket). */
const SPLIT_FROM_BUCKETS = 200;

/** A stored fix as the compaction job moves it. */
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
 * most 1,500 buckets, so the work follows the buckets. Both engines do it in one statement
 * (the dialect's bucketQuery), planned once per connection where the engine allows.
 */
export class SqlTrackStore extends SqlStore implements TrackStore, RecentPositions {
  /** PostgreSQL keeps positions in daily partitions (migration 0020); SQLite in one table. */
  readonly partitions: PositionPartitions | null;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    super(db, dialect);
    this.partitions = dialect.engine === "postgres" ? new PositionPartitions(db as unknown as Kysely<unknown>) : null;
  }

  async lastPerBucket(q: BucketQuery): Promise<TrackPoint[]> {
    if (q.stationIds.length === 0 || q.to <= q.from) return [];
    let points: TrackPoint[];
    const buckets = bucketCount(q, q.bucketMs);
    if (this.dialect.splitsLongTracks && buckets >= SPLIT_FROM_BUCKETS) {
      // Split at a bucket edge, so each bucket is read by one half. It is the same work in
      // all, so it helps while a core is spare and should not help under full load (not measured there).
      const mid = (Math.floor(q.from / q.bucketMs) + Math.floor(buckets / 2)) * q.bucketMs;
      const [early, late] = await Promise.all([this.#read({ ...q, to: mid }), this.#read({ ...q, from: mid })]);
      points = [...early, ...late];
    } else {
      points = await this.#read(q);
    }
    // Two stations may hold a fix of the same instant; the bucket keeps one.
    return points.filter((p, i) => i === 0 || p.time !== points[i - 1]!.time);
  }

  /**
   * The buckets each station holds a fix in, counted with one index probe per bucket and
   * station (stopping at the first fix), as lastPerBucket reads them: counting the distinct
   * buckets of every fix read the whole window instead, and took twice as long on
   * PostgreSQL for a week of 10-second fixes. A bucket any of the ranges fills counts once.
   */
  async bucketCounts(q: BucketCountQuery): Promise<Map<number, number>> {
    const ranges = q.ranges.filter((r) => r.to > q.from);
    if (q.stationIds.length === 0 || ranges.length === 0) return new Map();
    for (const v of [q.from, q.bucketMs, ...q.stationIds, ...ranges.flatMap((r) => [r.mmsi, r.to])]) {
      if (!Number.isSafeInteger(v)) throw new Error(`${v} is not an integer`);
    }
    if (q.bucketMs <= 0) throw new Error(`bucket length ${q.bucketMs} is not positive`);
    const end = Math.max(...ranges.map((r) => r.to));
    let query;
    if (this.dialect.engine === "postgres") {
      // A LATERAL with LIMIT 1 keeps the probes per bucket: PostgreSQL turns an EXISTS here into a
      // hash semi-join over every fix of the ship, which took seconds for a week of 10-second fixes.
      const probes = ranges.map(
        (r) => sql`(SELECT 1 FROM positions p WHERE p.mmsi = ${r.mmsi} AND p."time" >= GREATEST(b.s, ${q.from}::int8)
          AND p."time" < LEAST(b.s + ${q.bucketMs}::int8, ${r.to}::int8) AND p.station_id = st.id LIMIT 1)`,
      );
      query = sql<{ station_id: number; n: number | string }>`SELECT st.id AS station_id, count(*) AS n
        FROM unnest(${[...q.stationIds]}::int4[]) AS st(id)
        CROSS JOIN generate_series(${q.from}::int8 - ${q.from}::int8 % ${q.bucketMs}::int8, ${end}::int8 - 1, ${q.bucketMs}::int8) AS b(s)
        CROSS JOIN LATERAL (SELECT 1 FROM (${sql.join(probes, sql` UNION ALL `)}) u LIMIT 1) held
        GROUP BY st.id`;
    } else {
      // Bucket edges as in the dialect's bucketQuery; station ids (checked integers above) go into the text.
      const stations = sql.raw(q.stationIds.map((id) => `(${id})`).join(", "));
      const probes = ranges.map(
        (r) => sql`EXISTS (SELECT 1 FROM positions p WHERE p.mmsi = ${r.mmsi} AND p."time" >= b.s AND p."time" < min(b.e, ${r.to}) AND p.station_id = st.id)`,
      );
      query = sql<{ station_id: number; n: number | string }>`WITH RECURSIVE
          b(s, e) AS (SELECT ${q.from}, min((CAST(${q.from} / ${q.bucketMs} AS INTEGER) + 1) * ${q.bucketMs}, ${end}) UNION ALL SELECT e, min(e + ${q.bucketMs}, ${end}) FROM b WHERE e < ${end}),
          st(id) AS (VALUES ${stations})
        SELECT st.id AS station_id, count(*) AS n FROM st CROSS JOIN b
        WHERE ${sql.join(probes, sql` OR `)}
        GROUP BY st.id`;
    }
    const { rows } = await query.execute(this.db);
    return new Map(rows.map((r) => [Number(r.station_id), Number(r.n)]));
  }

  async #read(q: BucketQuery): Promise<TrackPoint[]> {
    const rows = await this.dialect.prepared<unknown>(this.db, "mds_track_buckets", this.dialect.bucketQuery(q));
    return this.dialect.decodeBuckets(rows);
  }

  /** MMSIs with any stored fix, in order: every fix has its vessel's row in latest_positions, which is small. */
  async mmsis(): Promise<number[]> {
    const rows = await this.db.selectFrom("latest_positions").select("mmsi").distinct().orderBy("mmsi").execute();
    return rows.map((r) => r.mmsi);
  }

  /** The oldest fixes of one vessel before `before`, in key order (time, station). */
  async oldest(mmsi: number, before: number, limit: number): Promise<StoredFix[]> {
    const rows = await this.db
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
    const r = await this.db
      .deleteFrom("positions")
      .where("mmsi", "=", mmsi)
      .where((eb) => eb.or([eb("time", "<", time), eb.and([eb("time", "=", time), eb("station_id", "<=", stationId)])]))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
