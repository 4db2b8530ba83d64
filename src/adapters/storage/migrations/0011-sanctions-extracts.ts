import type { Kysely, Migration } from "kysely";

/**
 * Whether a sanctions version is a dated extract (the demo's bundled samples) rather than
 * the list as published: screening then says so in its coverage and never reads a
 * no-match on an extract as "not sanctioned".
 */
export function sanctionsExtracts(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const table of ["sanctions_lists", "sanctions_versions"]) {
        await db.schema
          .alterTable(table)
          .addColumn("extract", "integer", (c) => c.notNull().defaultTo(0))
          .execute();
      }
    },
  };
}
