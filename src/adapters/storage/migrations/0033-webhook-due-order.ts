import { type Kysely, type Migration, sql } from "kysely";

/**
 * Workers claim the oldest due deliveries first, `ORDER BY next_attempt_at, id`. The due
 * index held only `next_attempt_at`: on PostgreSQL (whose index entries do not come in id
 * order) a claim then sorted every delivery due at the same instant, and an alert burst
 * records hundreds at one `now`. With `id` in the index a claim reads the index in claim order
 * and stops at its limit (measured in bench/README.md, "Webhook deliveries in batches").
 * SQLite's index already ended in the rowid, which is `id`; the same DDL keeps the two alike.
 */
export function webhookDueOrder(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`DROP INDEX webhook_deliveries_due`.execute(db);
      await sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status IN ('pending', 'retrying')`.execute(db);
    },
  };
}
