import type { Kysely, Migration } from "kysely";

/**
 * Inspections an operator imported (src/domain/inspections): one row each, filed under the
 * source of the import, so a re-import of that source replaces exactly its rows. Read per ship.
 */
export function inspections(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("inspections")
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("imo", "integer", (c) => c.notNull())
        .addColumn("date", "text", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("port", "text", (c) => c.notNull())
        .addColumn("authority", "text", (c) => c.notNull())
        .addColumn("origin", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("inspections_imo").on("inspections").columns(["imo", "date"]).execute();
      await db.schema.createIndex("inspections_source").on("inspections").columns(["source"]).execute();
    },
  };
}
