import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Wrecks (NOAA AWOIS): one row per AWOIS record, keyed by its record number, which is
 * the wreck's entity id in the API and in page URLs. The record's facts are one JSON
 * value because they are only ever read whole, by id.
 */
export function wrecks({ real }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("wrecks")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("slug", "text", (c) => c.notNull())
        .addColumn("name", "text")
        .addColumn("lat", real, (c) => c.notNull())
        .addColumn("lon", real, (c) => c.notNull())
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("record", "text", (c) => c.notNull())
        .execute();
    },
  };
}
