import type { Kysely, Migration } from "kysely";

/**
 * The sanctions change feed (`GET /api/v1/sanctions/changes`) reads listings, delistings and
 * changes in import order, (version, id), from a cursor: an index in that order makes each
 * page a range read rather than a sort of the whole history. The same DDL on both engines.
 */
export function sanctionsFeedOrder(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex("sanctions_events_feed").on("sanctions_events").columns(["version_id", "id"]).execute();
      await db.schema.createIndex("sanctions_changes_feed").on("sanctions_changes").columns(["version_id", "id"]).execute();
    },
  };
}
