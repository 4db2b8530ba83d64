import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * The last fetch of each sanctions list, whether it stored anything or not: when it was
 * tried, when it last succeeded, what failed and where it read from. A version row only
 * exists for a success, so without this a list that has been failing for days would look
 * the same as one nobody tried to fetch.
 */
export function sanctionsFetches({ bigint }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("sanctions_fetches")
        .addColumn("list", "text", (c) => c.primaryKey())
        .addColumn("attempted_at", bigint, (c) => c.notNull())
        .addColumn("outcome", "text", (c) => c.notNull())
        .addColumn("error", "text")
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("succeeded_at", bigint)
        .addColumn("succeeded_source", "text")
        .execute();
    },
  };
}
