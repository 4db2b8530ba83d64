import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Derived facts: port calls and chokepoint gate crossings (docs/derived-facts.md).
 *
 * `derived_feed` is the queue of fixes ingest committed, written in the ingest
 * transaction like `zone_feed` (0012), so a fix acknowledged to a station is derived even
 * if the process stops first. `derived_state` is each (station, vessel) detector state,
 * written in the transaction that records the facts and deletes the page from the queue.
 *
 * Every fact row carries the station it came from: reads apply the caller's visible
 * stations, so a private station's calls and crossings reach only its owner.
 */
export function derivedFacts({ engine, bigint, real }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("derived_feed")
        .addColumn("id", engine === "postgres" ? "bigserial" : "integer", (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("mmsi", "integer", (c) => c.notNull())
        .addColumn("time", bigint, (c) => c.notNull())
        .addColumn("station_id", "integer", (c) => c.notNull())
        .addColumn("lat", real, (c) => c.notNull())
        .addColumn("lon", real, (c) => c.notNull())
        .addColumn("sog", real)
        .addColumn("nav_status", "integer")
        .execute();

      await db.schema
        .createTable("derived_state")
        .addColumn("station_id", "integer", (c) => c.notNull())
        .addColumn("mmsi", "integer", (c) => c.notNull())
        .addColumn("last_time", bigint, (c) => c.notNull())
        // JSON of the detectors' state (domain/derived/derive.ts).
        .addColumn("state", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("derived_state_pk", ["station_id", "mmsi"])
        .execute();

      await db.schema
        .createTable("port_calls")
        // Deterministic (station, vessel, port, arrival): a recompute rewrites the same row.
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("station_id", "integer", (c) => c.notNull())
        .addColumn("mmsi", "integer", (c) => c.notNull())
        .addColumn("unlocode", "text", (c) => c.notNull())
        .addColumn("arrival", bigint, (c) => c.notNull())
        .addColumn("departure", bigint)
        .addColumn("confidence", "integer", (c) => c.notNull())
        .addColumn("version", "text", (c) => c.notNull())
        // JSON of the rest of the call (entered/left, waiting, observed flags, gaps).
        .addColumn("detail", "text", (c) => c.notNull())
        .addColumn("updated_at", bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("port_calls_vessel").on("port_calls").columns(["mmsi", "arrival"]).execute();
      await db.schema.createIndex("port_calls_port").on("port_calls").columns(["unlocode", "arrival"]).execute();

      await db.schema
        .createTable("gate_crossings")
        .addColumn("gate_id", "text", (c) => c.notNull())
        .addColumn("mmsi", "integer", (c) => c.notNull())
        .addColumn("station_id", "integer", (c) => c.notNull())
        .addColumn("time", bigint, (c) => c.notNull())
        .addColumn("direction", "text", (c) => c.notNull())
        .addColumn("gap_ms", bigint, (c) => c.notNull())
        // 1 when counted (gap and speed within the gate's limits), 0 when seen on both sides only.
        .addColumn("observed", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("gate_crossings_pk", ["gate_id", "time", "mmsi", "station_id"])
        .execute();

      // Hours in which a station heard any vessel near a gate: the coverage behind confidence.
      await db.schema
        .createTable("gate_coverage")
        .addColumn("gate_id", "text", (c) => c.notNull())
        .addColumn("hour", bigint, (c) => c.notNull())
        .addColumn("station_id", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("gate_coverage_pk", ["gate_id", "hour", "station_id"])
        .execute();
    },
  };
}
