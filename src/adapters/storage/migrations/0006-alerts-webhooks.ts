import { type Kysely, type Migration, sql } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Alerts and webhooks: what accounts follow (vessels, ports), their zones and saved
 * searches; the alerts raised and one event per alert; webhook endpoints; and the
 * deliveries table, which is also the work queue (see webhooks-store.ts): a partial index
 * on the due rows keeps the workers' claim query small however long the log grows.
 */
export function alertsWebhooks({ engine, bigint, real }: ColumnTypes): Migration {
  const serial = engine === "postgres" ? "serial" : "integer";
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("alert_follows")
        .addColumn("id", serial, (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("imo", "integer")
        .addColumn("mmsi", "integer")
        .addColumn("unlocode", "text")
        // `imo:9176187`, `mmsi:244123456`, `unlocode:NLRTM`: one follow per account and identifier.
        .addColumn("ref", "text", (c) => c.notNull())
        .addColumn("created_at", bigint, (c) => c.notNull())
        .addUniqueConstraint("alert_follows_account_ref", ["account_id", "ref"])
        .execute();
      await db.schema.createIndex("alert_follows_imo").on("alert_follows").column("imo").execute();
      await db.schema.createIndex("alert_follows_mmsi").on("alert_follows").column("mmsi").execute();

      await db.schema
        .createTable("alert_zones")
        .addColumn("id", serial, (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("geometry", "text", (c) => c.notNull())
        .addColumn("min_lon", real, (c) => c.notNull())
        .addColumn("min_lat", real, (c) => c.notNull())
        .addColumn("max_lon", real, (c) => c.notNull())
        .addColumn("max_lat", real, (c) => c.notNull())
        .addColumn("created_at", bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("alert_zones_account").on("alert_zones").column("account_id").execute();

      await db.schema
        .createTable("alert_saved_searches")
        .addColumn("id", serial, (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("q", "text", (c) => c.notNull())
        .addColumn("kind", "text")
        .addColumn("created_at", bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("alert_saved_searches_account").on("alert_saved_searches").column("account_id").execute();

      // Positions of the alert engine in the outboxes it reads (sanctions_events).
      await db.schema
        .createTable("alert_cursors")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("value", bigint, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("alerts")
        .addColumn("id", serial, (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("account_id", "text", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("occurred_at", bigint, (c) => c.notNull())
        .addColumn("dedupe_key", "text", (c) => c.notNull().unique())
        .addColumn("detail", "text", (c) => c.notNull())
        .addColumn("created_at", bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("alerts_account").on("alerts").columns(["account_id", "id"]).execute();

      await db.schema
        .createTable("webhook_endpoints")
        .addColumn("id", serial, (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("description", "text")
        .addColumn("events", "text")
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("secret", "text", (c) => c.notNull())
        .addColumn("previous_secret", "text")
        .addColumn("previous_secret_expires_at", bigint)
        .addColumn("failure_streak", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("streak_started_at", bigint)
        .addColumn("disabled_at", bigint)
        .addColumn("disabled_reason", "text")
        .addColumn("created_at", bigint, (c) => c.notNull())
        .addColumn("updated_at", bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("webhook_endpoints_account").on("webhook_endpoints").column("account_id").execute();

      await db.schema
        .createTable("webhook_events")
        .addColumn("id", serial, (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("account_id", "text", (c) => c.notNull())
        .addColumn("alert_id", "integer")
        .addColumn("type", "text", (c) => c.notNull())
        // The exact bytes sent and signed; built once so every retry and endpoint gets the same body.
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("created_at", bigint, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("webhook_deliveries")
        .addColumn("id", serial, (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("event_id", "integer", (c) => c.notNull().references("webhook_events.id"))
        .addColumn("endpoint_id", "integer", (c) => c.notNull().references("webhook_endpoints.id"))
        .addColumn("account_id", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        // The trigger of the next attempt, and the final state a one-off attempt falls back to.
        .addColumn("trigger", "text", (c) => c.notNull())
        .addColumn("resume_status", "text")
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("tries", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_attempt_at", bigint)
        .addColumn("lease_token", "text")
        .addColumn("lease_until", bigint)
        .addColumn("created_at", bigint, (c) => c.notNull())
        .addColumn("updated_at", bigint, (c) => c.notNull())
        .addUniqueConstraint("webhook_deliveries_event_endpoint", ["event_id", "endpoint_id"])
        .execute();
      await sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'retrying')`.execute(db);
      await db.schema.createIndex("webhook_deliveries_endpoint").on("webhook_deliveries").columns(["endpoint_id", "id"]).execute();

      await db.schema
        .createTable("webhook_attempts")
        .addColumn("delivery_id", "integer", (c) => c.notNull().references("webhook_deliveries.id"))
        .addColumn("attempt", "integer", (c) => c.notNull())
        .addColumn("delivery_uuid", "text", (c) => c.notNull())
        .addColumn("trigger", "text", (c) => c.notNull())
        .addColumn("outcome", "text", (c) => c.notNull())
        .addColumn("started_at", bigint, (c) => c.notNull())
        .addColumn("duration_ms", "integer")
        .addColumn("status_code", "integer")
        .addColumn("error_class", "text")
        .addColumn("error", "text")
        .addColumn("response_snippet", "text")
        .addPrimaryKeyConstraint("webhook_attempts_pk", ["delivery_id", "attempt"])
        .execute();
    },
  };
}
