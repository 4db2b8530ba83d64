import { type Kysely, sql } from "kysely";
import type { StoredFix, TimePartition, TimePartitions } from "../../../interfaces/tracks.ts";

const DAY_MS = 86_400_000;

/** How many days ahead partitions exist, so a late upkeep run never leaves ingest without one. */
export const DAYS_AHEAD = 7;

/** One daily partition of `positions` on PostgreSQL: rows with `from <= time < to` (epoch ms, UTC days). */
export type PositionPartition = TimePartition;

/** The UTC day starting at or before `t`. */
export function dayStart(t: number): number {
  return Math.floor(t / DAY_MS) * DAY_MS;
}

/** `positions_d20261123`: the day in the name, so an operator reading `\d+ positions` sees what each holds. */
export function partitionName(from: number): string {
  return `positions_d${new Date(from).toISOString().slice(0, 10).replaceAll("-", "")}`;
}

const NAME = /^positions_d\d{8}$/;

/**
 * The daily partitions of `positions` on PostgreSQL (migration 0020). Created ahead by the
 * worker's upkeep; dropped whole by archive compaction once every row in them is in the
 * archive, which replaces deleting old fixes row by row. Rows outside every day partition
 * (a backfill older than the oldest one) land in `positions_default` and are compacted row
 * by row as before.
 */
export class PositionPartitions implements TimePartitions {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  /** Creates the partitions of the days from `now`'s to DAYS_AHEAD later that are missing; returns the names made. */
  async ensure(now: number): Promise<string[]> {
    const have = new Set((await this.list()).map((p) => p.name));
    const made: string[] = [];
    for (let d = 0; d <= DAYS_AHEAD; d++) {
      const from = dayStart(now) + d * DAY_MS;
      const name = partitionName(from);
      if (have.has(name)) continue;
      await this.#create(from);
      made.push(name);
    }
    return made;
  }

  /**
   * A day's partition. When the default partition already holds rows of that day (the
   * upkeep did not run for longer than DAYS_AHEAD while ingest went on), PostgreSQL refuses
   * the plain CREATE; the rows are then moved into the new partition in one transaction,
   * with the default detached meanwhile (ingest waits for that short moment).
   */
  async #create(from: number): Promise<void> {
    try {
      await createDayPartition(this.#db, from);
    } catch (e) {
      if ((e as { code?: string }).code !== "23514") throw e;
      const start = dayStart(from);
      const name = sql.table(partitionName(start));
      await this.#db.transaction().execute(async (trx) => {
        await sql`ALTER TABLE positions DETACH PARTITION positions_default`.execute(trx);
        await createDayPartition(trx, start);
        await sql`WITH moved AS (DELETE FROM positions_default WHERE "time" >= ${start} AND "time" < ${start + DAY_MS} RETURNING *)
          INSERT INTO ${name} SELECT mmsi, "time", station_id, lat, lon, sog, cog, heading, nav_status FROM moved`.execute(trx);
        await sql`ALTER TABLE positions ATTACH PARTITION positions_default DEFAULT`.execute(trx);
      });
    }
  }

  /** Every daily partition, oldest first. */
  async list(): Promise<PositionPartition[]> {
    const r = await sql<{ name: string; bound: string }>`
      SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname = 'positions' AND p.relnamespace = current_schema()::regnamespace`.execute(this.#db);
    const out: PositionPartition[] = [];
    for (const row of r.rows) {
      if (!NAME.test(row.name)) continue;
      const m = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(row.bound);
      if (m) out.push({ name: row.name, from: Number(m[1]), to: Number(m[2]) });
    }
    return out.sort((a, b) => a.from - b.from);
  }

  /** Partitions whose every row is older than `before`. */
  async before(before: number): Promise<PositionPartition[]> {
    return (await this.list()).filter((p) => p.to <= before);
  }

  /**
   * Up to `limit` rows of one partition after the key (mmsi, time, station), in key order:
   * compaction reads a partition through in bounded statements.
   */
  async rows(partition: PositionPartition, after: { mmsi: number; time: number; stationId: number } | null, limit: number): Promise<StoredFix[]> {
    const table = sql.table(partition.name);
    const where = after ? sql`WHERE (mmsi, "time", station_id) > (${after.mmsi}, ${after.time}, ${after.stationId})` : sql``;
    const r = await sql<{ mmsi: number; time: number; station_id: number; lat: number; lon: number; sog: number | null; cog: number | null; nav_status: number | null }>`
      SELECT mmsi, "time", station_id, lat, lon, sog, cog, nav_status FROM ${table} ${where}
      ORDER BY mmsi, "time", station_id LIMIT ${limit}`.execute(this.#db);
    return r.rows.map((x) => ({ mmsi: x.mmsi, time: Number(x.time), stationId: x.station_id, lat: x.lat, lon: x.lon, sog: x.sog, cog: x.cog, navStatus: x.nav_status }));
  }

  /** Drops a partition whole: its rows are in the archive. Instant, and leaves no dead rows to vacuum. */
  async drop(partition: PositionPartition): Promise<void> {
    if (!NAME.test(partition.name)) throw new Error(`not a daily positions partition: ${partition.name}`);
    await sql`DROP TABLE IF EXISTS ${sql.table(partition.name)}`.execute(this.#db);
  }
}

/** One day's partition; a no-op when it exists. */
export async function createDayPartition<T>(db: Kysely<T>, from: number): Promise<void> {
  const start = dayStart(from);
  await sql`CREATE TABLE IF NOT EXISTS ${sql.table(partitionName(start))} PARTITION OF positions FOR VALUES FROM (${sql.lit(start)}) TO (${sql.lit(start + DAY_MS)})`.execute(db);
}
