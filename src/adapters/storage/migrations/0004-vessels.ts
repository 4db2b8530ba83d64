import { type Kysely, type Migration, sql } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * The vessel registry (src/interfaces/vessels.ts): ships keyed by IMO (or, without one, by
 * MMSI), the identifiers and names each source linked to them with first and last seen,
 * the name search index, EU MRV emissions and fleet-list rows.
 *
 * Links are rows, never overwritten columns: an MMSI change or a rename adds a row, so
 * the history stays and two ships are never merged by a later report.
 */
export function vessels({ engine, bigint, real }: ColumnTypes): Migration {
  const serial = engine === "postgres" ? "serial" : "integer";
  const withoutRowid = <T extends { modifyEnd(s: ReturnType<typeof sql>): T }>(b: T): T => (engine === "sqlite" ? b.modifyEnd(sql`without rowid`) : b);
  return {
    async up(db: Kysely<unknown>) {
      // UNIQUE allows many NULLs on both engines: a ship has an IMO key or an MMSI key.
      await db.schema
        .createTable("vessels")
        .addColumn("id", serial, (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("imo", "integer", (c) => c.unique())
        .addColumn("mmsi_key", "integer", (c) => c.unique())
        .addColumn("created_at", bigint, (c) => c.notNull())
        .addCheckConstraint("vessels_one_key", sql`(imo IS NULL) <> (mmsi_key IS NULL)`)
        .execute();

      // MMSIs and call signs per ship and source. station_id is set for links learned from a
      // station, so reads can leave out what the caller's visible stations did not hear.
      await withoutRowid(
        db.schema
          .createTable("vessel_identifiers")
          .addColumn("vessel_id", "integer", (c) => c.notNull())
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("value", "text", (c) => c.notNull())
          .addColumn("source", "text", (c) => c.notNull())
          .addColumn("station_id", "integer")
          .addColumn("first_seen", bigint, (c) => c.notNull())
          .addColumn("last_seen", bigint, (c) => c.notNull())
          .addPrimaryKeyConstraint("vessel_identifiers_pk", ["vessel_id", "kind", "value", "source"]),
      ).execute();
      // "Which ship used MMSI x": the mmsi- form of the vessel id and MMSI search.
      await db.schema.createIndex("vessel_identifiers_value").on("vessel_identifiers").columns(["kind", "value"]).execute();

      await db.schema
        .createTable("vessel_names")
        .addColumn("id", serial, (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("vessel_id", "integer", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("norm", "text", (c) => c.notNull())
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("station_id", "integer")
        .addColumn("first_seen", bigint, (c) => c.notNull())
        .addColumn("last_seen", bigint, (c) => c.notNull())
        .addUniqueConstraint("vessel_names_unique", ["vessel_id", "name", "source"])
        .execute();
      // A re-import replaces one source's names: found by source.
      await db.schema.createIndex("vessel_names_source").on("vessel_names").columns(["source"]).execute();

      // The search index: every suffix of every normalised name with its rank (name start,
      // word start, inside a word), so prefix, word and substring matches are all one range
      // read of this key. PostgreSQL compares the terms bytewise (COLLATE "C"), as SQLite does:
      // a prefix range under a linguistic collation would not be a prefix.
      await withoutRowid(
        db.schema
          .createTable("vessel_name_terms")
          .addColumn("rank", "integer", (c) => c.notNull())
          .addColumn("term", engine === "postgres" ? sql`text collate "C"` : "text", (c) => c.notNull())
          .addColumn("name_id", "integer", (c) => c.notNull())
          .addPrimaryKeyConstraint("vessel_name_terms_pk", ["rank", "term", "name_id"]),
      ).execute();

      await withoutRowid(
        db.schema
          .createTable("vessel_emissions")
          .addColumn("imo", "integer", (c) => c.notNull())
          .addColumn("year", "integer", (c) => c.notNull())
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("ship_type", "text")
          .addColumn("port_of_registry", "text")
          .addColumn("co2_t", real)
          .addColumn("fuel_t", real)
          .addColumn("time_at_sea_h", real)
          .addPrimaryKeyConstraint("vessel_emissions_pk", ["imo", "year"]),
      ).execute();

      await db.schema
        .createTable("vessel_fleet")
        .addColumn("imo", "integer", (c) => c.notNull())
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("ship_type", "text")
        .addColumn("gross_tons", real)
        .addColumn("deadweight_tons", real)
        .addColumn("year_built", "integer")
        .addColumn("operator", "text")
        .addPrimaryKeyConstraint("vessel_fleet_pk", ["imo", "source"])
        .execute();

      // What the registry last linked of each AIS identity row (vessel_identities is one row
      // per station and MMSI, updated in place): a refresh links only rows that differ.
      await withoutRowid(
        db.schema
          .createTable("vessel_ais_synced")
          .addColumn("station_id", "integer", (c) => c.notNull())
          .addColumn("mmsi", "integer", (c) => c.notNull())
          .addColumn("imo", "integer")
          .addColumn("name", "text")
          .addColumn("callsign", "text")
          .addColumn("updated_at", bigint, (c) => c.notNull())
          .addPrimaryKeyConstraint("vessel_ais_synced_pk", ["station_id", "mmsi"]),
      ).execute();

      // Marks of the refresh (e.g. the last sanctions version linked).
      await db.schema
        .createTable("vessel_registry_state")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("value", bigint, (c) => c.notNull())
        .execute();
    },
  };
}
