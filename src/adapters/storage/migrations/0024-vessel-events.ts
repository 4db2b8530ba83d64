import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Behaviour events (domain/derived/vessel-event.ts, docs/vessel-events.md): one row per
 * event and vessel (an encounter is two rows, one for each ship, each naming the other).
 * Like port calls, each row carries the station it came from, so reads apply the caller's
 * visible stations; the id is deterministic, so a recompute rewrites the same row.
 */
export function vesselEvents({ bigint, real }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("vessel_events")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("station_id", "integer", (c) => c.notNull())
        .addColumn("mmsi", "integer", (c) => c.notNull())
        .addColumn("start", bigint, (c) => c.notNull())
        .addColumn("end", bigint)
        .addColumn("lat", real)
        .addColumn("lon", real)
        .addColumn("counterpart_mmsi", "integer")
        // JSON: details, method, inputs (the rest of domain/derived/vessel-event.ts).
        .addColumn("detail", "text", (c) => c.notNull())
        .addColumn("method", "text", (c) => c.notNull())
        .addColumn("version", "text", (c) => c.notNull())
        .addColumn("confidence", real, (c) => c.notNull())
        .addColumn("updated_at", bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("vessel_events_vessel").on("vessel_events").columns(["mmsi", "start"]).execute();
      await db.schema.createIndex("vessel_events_time").on("vessel_events").columns(["start"]).execute();

      // Slow episodes that ended far from port and lasted 2 h: what encounters are judged from,
      // one vessel's against another's at the same station and place.
      await db.schema
        .createTable("slow_episodes")
        .addColumn("station_id", "integer", (c) => c.notNull())
        .addColumn("mmsi", "integer", (c) => c.notNull())
        .addColumn("start", bigint, (c) => c.notNull())
        .addColumn("last", bigint, (c) => c.notNull())
        .addColumn("lat", real, (c) => c.notNull())
        .addColumn("lon", real, (c) => c.notNull())
        .addPrimaryKeyConstraint("slow_episodes_pk", ["station_id", "mmsi", "start"])
        .execute();
      await db.schema.createIndex("slow_episodes_station_time").on("slow_episodes").columns(["station_id", "last"]).execute();

      // Identity changes recorded by ingest and not yet alerted: ingest queues each in its
      // transaction, derivation raises the alerts and takes them off in its own.
      await db.schema
        .createTable("identity_event_feed")
        .addColumn("event_id", "text", (c) => c.primaryKey())
        .execute();

      // Hours and quarter-degree cells in which a station heard any vessel: the coverage that
      // tells an AIS gap from a receiver outage.
      await db.schema
        .createTable("station_heard")
        .addColumn("station_id", "integer", (c) => c.notNull())
        .addColumn("hour", bigint, (c) => c.notNull())
        .addColumn("cell", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("station_heard_pk", ["station_id", "hour", "cell"])
        .execute();
    },
  };
}
