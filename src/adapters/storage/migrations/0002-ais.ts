import { type Kysely, type Migration, sql } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * AIS from users' stations: position history, latest fix and identity per station and
 * vessel, per-station ingest counters.
 *
 * Layout follows docs/storage-measurements.md: positions are clustered by (mmsi, time) so a track
 * is one range read. SQLite: a WITHOUT ROWID table whose primary key is the clustering
 * key. PostgreSQL: the primary key index INCLUDEs the fix's columns, so tracks are
 * index-only scans. station_id is part of the key because two stations hearing the same
 * report are two observations with different owners (and different privacy).
 *
 * No foreign keys on the hot tables: every insert would pay a lookup in `stations`, and
 * rows only come from the ingest pipeline, which has authenticated the station already.
 */
export function ais({ engine, bigint, real }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine === "postgres") {
        await sql`CREATE TABLE positions (
          mmsi integer NOT NULL,
          "time" bigint NOT NULL,
          station_id integer NOT NULL,
          lat double precision NOT NULL,
          lon double precision NOT NULL,
          sog real,
          cog real,
          heading smallint,
          nav_status smallint,
          CONSTRAINT positions_pk PRIMARY KEY (mmsi, "time", station_id) INCLUDE (lat, lon, sog, cog, heading, nav_status)
        )`.execute(db);
      } else {
        await sql`CREATE TABLE positions (
          mmsi integer NOT NULL,
          "time" integer NOT NULL,
          station_id integer NOT NULL,
          lat real NOT NULL,
          lon real NOT NULL,
          sog real,
          cog real,
          heading integer,
          nav_status integer,
          PRIMARY KEY (mmsi, "time", station_id)
        ) WITHOUT ROWID`.execute(db);
      }

      // One row per station and vessel: what the private feed reads, so it never scans history.
      let latest = db.schema
        .createTable("latest_positions")
        .addColumn("station_id", "integer", (c) => c.notNull())
        .addColumn("mmsi", "integer", (c) => c.notNull())
        .addColumn("time", bigint, (c) => c.notNull())
        .addColumn("lat", real, (c) => c.notNull())
        .addColumn("lon", real, (c) => c.notNull())
        .addColumn("sog", real)
        .addColumn("cog", real)
        .addColumn("heading", "integer")
        .addColumn("nav_status", "integer")
        .addPrimaryKeyConstraint("latest_positions_pk", ["station_id", "mmsi"]);
      if (engine === "sqlite") latest = latest.modifyEnd(sql`without rowid`);
      await latest.execute();
      await db.schema.createIndex("latest_positions_station_time").on("latest_positions").columns(["station_id", "time"]).execute();

      let identities = db.schema
        .createTable("vessel_identities")
        .addColumn("station_id", "integer", (c) => c.notNull())
        .addColumn("mmsi", "integer", (c) => c.notNull())
        .addColumn("imo", "integer")
        .addColumn("name", "text")
        .addColumn("callsign", "text")
        .addColumn("ship_type", "integer")
        .addColumn("to_bow", "integer")
        .addColumn("to_stern", "integer")
        .addColumn("to_port", "integer")
        .addColumn("to_starboard", "integer")
        .addColumn("draught", real)
        .addColumn("destination", "text")
        .addColumn("eta", "text")
        .addColumn("updated_at", bigint, (c) => c.notNull())
        // Bit set of the fields ever broadcast (see positions-store.ts): an update carrying
        // only some fields (type 24 part A is just the name) leaves the others as they were.
        .addColumn("fields", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("vessel_identities_pk", ["station_id", "mmsi"]);
      if (engine === "sqlite") identities = identities.modifyEnd(sql`without rowid`);
      await identities.execute();

      // Counters as (station, name) -> value, so a new counter needs no migration and every
      // flush is one additive upsert that is safe with several ingest processes.
      await db.schema
        .createTable("station_counters")
        .addColumn("station_id", "integer", (c) => c.notNull().references("stations.id"))
        .addColumn("counter", "text", (c) => c.notNull())
        .addColumn("value", bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint("station_counters_pk", ["station_id", "counter"])
        .execute();
    },
  };
}
