import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Durable zone alerts. `zone_feed` is a queue of the fixes ingest committed, written in the
 * same transaction as the positions, so a fix acknowledged to a station is a fix the zone
 * evaluator will read even if the process stops before evaluating it. The evaluator
 * consumes it in id order and deletes what it has read.
 *
 * `zone_presence` is the evaluator's state: per account (the viewer) and vessel, the last
 * fix time and which of the account's zones the vessel is in, entering or leaving. It is
 * written in the transaction that records the alerts and moves the `zone_feed` cursor
 * (in `alert_cursors`), so state, cursor and alerts never disagree after a crash.
 */
export function zoneState({ engine, bigint, real }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // A 64-bit id: the queue is written at ingest rates and its ids are never reused.
      await db.schema
        .createTable("zone_feed")
        .addColumn("id", engine === "postgres" ? "bigserial" : "integer", (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("mmsi", "integer", (c) => c.notNull())
        .addColumn("time", bigint, (c) => c.notNull())
        .addColumn("station_id", "integer", (c) => c.notNull())
        .addColumn("lat", real, (c) => c.notNull())
        .addColumn("lon", real, (c) => c.notNull())
        .addColumn("sog", real)
        .addColumn("cog", real)
        .execute();

      await db.schema
        .createTable("zone_presence")
        .addColumn("account_id", "text", (c) => c.notNull())
        .addColumn("mmsi", "integer", (c) => c.notNull())
        .addColumn("last_time", bigint, (c) => c.notNull())
        .addColumn("last_seen", bigint, (c) => c.notNull())
        // JSON [[zoneId, "entering" | "inside" | "leaving"], ...], null when in no zone.
        .addColumn("zones", "text")
        .addPrimaryKeyConstraint("zone_presence_pk", ["account_id", "mmsi"])
        .execute();
    },
  };
}
