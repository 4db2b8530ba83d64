import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Stations deleted by their owners. The row stays: positions, calls and events it delivered
 * keep naming it (foreign keys, the archive, derived facts), and stay its owner's. A deleted
 * station is gone from its owner's list and accepts nothing: its secret and UDP key are
 * replaced by unknown ones, its plain port, connect-out and sharing are released.
 */
export function stationDeletion(types: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("stations").addColumn("deleted_at", types.bigint).execute();
    },
  };
}
