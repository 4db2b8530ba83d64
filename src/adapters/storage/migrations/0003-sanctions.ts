import { type Kysely, type Migration, sql } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Sanctions lists with their history: one version row per import, the designations
 * as spells (listed .. delisted) keyed by the list's own record id, every IMO and MMSI
 * a designation ever carried, the field changes between versions, and an outbox of
 * listing/delisting events for webhooks.
 */
export function sanctions({ engine, bigint }: ColumnTypes): Migration {
  const serial = engine === "postgres" ? "serial" : "integer";
  return {
    async up(db: Kysely<unknown>) {
      // One row per list: the latest accepted version. Imports lock this row first, so two
      // imports of one list (scheduler and CLI, or two processes) run one after the other.
      await db.schema
        .createTable("sanctions_lists")
        .addColumn("list", "text", (c) => c.primaryKey())
        .addColumn("version_id", "integer")
        .addColumn("as_of", "text")
        .addColumn("imported_at", bigint)
        .addColumn("active", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("locked_at", bigint)
        .execute();

      await db.schema
        .createTable("sanctions_versions")
        .addColumn("id", serial, (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("list", "text", (c) => c.notNull())
        .addColumn("as_of", "text", (c) => c.notNull())
        .addColumn("imported_at", bigint, (c) => c.notNull())
        .addColumn("origin", "text", (c) => c.notNull())
        .addColumn("checksum", "text", (c) => c.notNull())
        .addColumn("bytes", bigint, (c) => c.notNull())
        .addColumn("records", "integer", (c) => c.notNull())
        .addColumn("active", "integer", (c) => c.notNull())
        .addColumn("listed", "integer", (c) => c.notNull())
        .addColumn("delisted", "integer", (c) => c.notNull())
        .addColumn("changed", "integer", (c) => c.notNull())
        .addColumn("unchanged", "integer", (c) => c.notNull())
        .addColumn("baseline", "integer", (c) => c.notNull())
        .addColumn("guard", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("sanctions_versions_list").on("sanctions_versions").columns(["list", "id"]).execute();

      await db.schema
        .createTable("sanctions_designations")
        .addColumn("id", serial, (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("list", "text", (c) => c.notNull())
        .addColumn("record_id", "text", (c) => c.notNull())
        .addColumn("active", "integer", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("program", "text")
        .addColumn("listed_at", "text")
        .addColumn("first_seen", "text", (c) => c.notNull())
        .addColumn("delisted_at", "text")
        .addColumn("delisted_source", "text")
        .addColumn("first_version_id", "integer", (c) => c.notNull())
        .addColumn("last_version_id", "integer", (c) => c.notNull())
        .addColumn("delisted_version_id", "integer")
        .addColumn("source_url", "text", (c) => c.notNull())
        .addColumn("all_imos", "text", (c) => c.notNull())
        .addColumn("all_mmsis", "text", (c) => c.notNull())
        .addColumn("record", "text", (c) => c.notNull())
        .execute();
      // A record id is designated at most once at a time; a re-listing after a delisting is a new spell.
      await db.schema
        .createIndex("sanctions_designations_active_record")
        .on("sanctions_designations")
        .columns(["list", "record_id"])
        .unique()
        .where(sql.ref("active"), "=", 1)
        .execute();
      await db.schema.createIndex("sanctions_designations_page").on("sanctions_designations").columns(["list", "active", "id"]).execute();

      await db.schema
        .createTable("sanctions_identifiers")
        .addColumn("designation_id", "integer", (c) => c.notNull().references("sanctions_designations.id"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("value", bigint, (c) => c.notNull())
        .addColumn("current", "integer", (c) => c.notNull())
        .addColumn("first_version_id", "integer", (c) => c.notNull())
        .addColumn("last_version_id", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("sanctions_identifiers_pk", ["designation_id", "kind", "value"])
        .execute();
      // Screening looks identifiers up by value alone (one IN list for IMOs and MMSIs, which
      // both engines serve from this index; the kind is checked on the few rows found).
      await db.schema.createIndex("sanctions_identifiers_value").on("sanctions_identifiers").columns(["value", "kind"]).execute();

      await db.schema
        .createTable("sanctions_changes")
        .addColumn("id", serial, (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("version_id", "integer", (c) => c.notNull())
        .addColumn("designation_id", "integer", (c) => c.notNull().references("sanctions_designations.id"))
        .addColumn("fields", "text", (c) => c.notNull())
        .addColumn("before", "text", (c) => c.notNull())
        .addColumn("after", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("sanctions_changes_designation").on("sanctions_changes").column("designation_id").execute();

      await db.schema
        .createTable("sanctions_events")
        .addColumn("id", serial, (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("version_id", "integer", (c) => c.notNull())
        .addColumn("designation_id", "integer", (c) => c.notNull().references("sanctions_designations.id"))
        .addColumn("list", "text", (c) => c.notNull())
        .addColumn("record_id", "text", (c) => c.notNull())
        .addColumn("action", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("imos", "text", (c) => c.notNull())
        .addColumn("mmsis", "text", (c) => c.notNull())
        .addColumn("program", "text")
        .addColumn("date", "text", (c) => c.notNull())
        .addColumn("date_source", "text", (c) => c.notNull())
        .addColumn("source_id", "text", (c) => c.notNull())
        .addColumn("source_url", "text", (c) => c.notNull())
        .addColumn("baseline", "integer", (c) => c.notNull())
        .addColumn("created_at", bigint, (c) => c.notNull())
        .execute();
    },
  };
}
