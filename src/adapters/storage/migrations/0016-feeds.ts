import { type Kysely, type Migration, sql } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Public AIS feeds (`mds feeds add`). Each feed has a station of its own (so its positions
 * are tagged, stored and filtered like any station's), owned by the service's feeds account,
 * which this migration creates. A removed feed keeps its row (with `removed_at`), so the
 * positions it stored keep their source and licence; a new feed may reuse the name.
 *
 * The status columns are written by the process that runs the feed, so any process can
 * answer `GET /api/v1/sources` with the last message time, rate and alarm.
 */
export const FEEDS_ACCOUNT_ID = "acc_public_feeds";

export function feeds({ bigint, real }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`INSERT INTO accounts (id, name, web_plan, api_plan, created_at) VALUES (${FEEDS_ACCOUNT_ID}, ${"Public AIS feeds (operator)"}, NULL, NULL, ${0})`.execute(db);
      await db.schema
        .createTable("feeds")
        .addColumn("station_id", "integer", (c) => c.primaryKey().references("stations.id"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("url", "text", (c) => c.notNull())
        // Sealed like webhook secrets (secret-box.ts): an API key or a member username.
        .addColumn("key_sealed", "text")
        .addColumn("created_at", bigint, (c) => c.notNull())
        .addColumn("removed_at", bigint)
        .addColumn("state", "text")
        .addColumn("last_message_at", bigint)
        .addColumn("rate", real)
        .addColumn("alarm", "text")
        .addColumn("alarm_since", bigint)
        .addColumn("last_error", "text")
        .addColumn("reported_at", bigint)
        .execute();
      await sql`CREATE UNIQUE INDEX feeds_active_name ON feeds (name) WHERE removed_at IS NULL`.execute(db);
    },
  };
}
