import { type Kysely, type Migration, sql } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Companies (src/domain/companies): one row per company record as one source states it,
 * keyed by (source, key) so a re-import of a source replaces exactly its rows, and the
 * ships each record ties to the company. Records join into one company on a company IMO
 * number or an LEI (indexed). Names and other names are indexed for search as terms: the
 * normalised name from each word's start on, so a name prefix and a later word are both one
 * range read (compared bytewise: COLLATE "C" on PostgreSQL, as SQLite does).
 */
export function companies({ engine }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("company_records")
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("key", "text", (c) => c.notNull())
        .addColumn("entity_id", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("norm", "text", (c) => c.notNull())
        .addColumn("company_imo", "text")
        .addColumn("lei", "text")
        .addColumn("record", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("company_records_pk", ["source", "key"])
        .execute();
      await db.schema.createIndex("company_records_entity").on("company_records").columns(["entity_id"]).execute();
      await db.schema.createIndex("company_records_imo").on("company_records").columns(["company_imo"]).execute();
      await db.schema.createIndex("company_records_lei").on("company_records").columns(["lei"]).execute();
      await db.schema
        .createTable("company_name_terms")
        .addColumn("term", engine === "postgres" ? sql`text collate "C"` : "text", (c) => c.notNull())
        .addColumn("rank", "integer", (c) => c.notNull())
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("key", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("company_name_terms_term").on("company_name_terms").columns(["rank", "term"]).execute();
      await db.schema.createIndex("company_name_terms_record").on("company_name_terms").columns(["source", "key"]).execute();

      await db.schema
        .createTable("company_fleet")
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("key", "text", (c) => c.notNull())
        .addColumn("imo", "integer")
        .addColumn("mmsi", "integer")
        .addColumn("vessel_name", "text")
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("evidence", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("company_fleet_record").on("company_fleet").columns(["source", "key"]).execute();
      await db.schema.createIndex("company_fleet_imo").on("company_fleet").columns(["imo"]).execute();
      await db.schema.createIndex("company_fleet_mmsi").on("company_fleet").columns(["mmsi"]).execute();
    },
  };
}
