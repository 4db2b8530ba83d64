import { type Kysely, type Migration, sql } from "kysely";
import { createDayPartition, DAYS_AHEAD, dayStart } from "../positions/position-partitions.ts";
import type { ColumnTypes } from "./column-types.ts";

const DAY_MS = 86_400_000;
/** Existing rows older than this many days go to the default partition (compaction moves them to the archive soon). */
const DAYS_BACK = 120;

/**
 * Scale-out (issue 19).
 *
 * 1. An operator's own allowance per account (`mds accounts set`): monthly credits and rate
 *    per second that, when set, replace what the account's plans give.
 * 2. PostgreSQL only: `positions` partitioned by time, one partition per UTC day
 *    (`positions_dYYYYMMDD`) and a default partition for older backfills. The primary key
 *    and its covering columns are as before (0002), per partition. Existing rows are moved
 *    into the new table; this takes as long as copying them (about 200k rows/s on the
 *    machines measured in docs/storage-measurements.md).
 */
export function scale({ engine }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("accounts").addColumn("monthly_credits", "integer").execute();
      await db.schema.alterTable("accounts").addColumn("rate_per_second", "integer").execute();
      if (engine !== "postgres") return;

      await sql`ALTER TABLE positions RENAME TO positions_unpartitioned`.execute(db);
      await sql`ALTER TABLE positions_unpartitioned RENAME CONSTRAINT positions_pk TO positions_unpartitioned_pk`.execute(db);
      // The same columns as before (0002), now split by time; the key and its covering columns are as before, per partition.
      await sql`CREATE TABLE positions (LIKE positions_unpartitioned INCLUDING DEFAULTS) PARTITION BY RANGE ("time")`.execute(db);
      await sql`ALTER TABLE positions ADD CONSTRAINT positions_pk PRIMARY KEY (mmsi, "time", station_id) INCLUDE (lat, lon, sog, cog, heading, nav_status)`.execute(db);
      await sql`CREATE TABLE positions_default PARTITION OF positions DEFAULT`.execute(db);

      const now = Date.now();
      const r = await sql<{ lo: number | null }>`SELECT min("time") AS lo FROM positions_unpartitioned`.execute(db);
      const oldest = r.rows[0]?.lo === null || r.rows[0]?.lo === undefined ? now : Number(r.rows[0].lo);
      const first = Math.max(dayStart(oldest), dayStart(now) - DAYS_BACK * DAY_MS);
      for (let from = first; from <= dayStart(now) + DAYS_AHEAD * DAY_MS; from += DAY_MS) await createDayPartition(db, from);

      await sql`INSERT INTO positions SELECT mmsi, "time", station_id, lat, lon, sog, cog, heading, nav_status FROM positions_unpartitioned`.execute(db);
      await sql`DROP TABLE positions_unpartitioned`.execute(db);
      await sql`ANALYZE positions`.execute(db);
    },
  };
}
