import { type Kysely, type Migration, sql } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * The OAuth authorization server: clients (self-registered or fetched metadata documents),
 * grants (the "connected apps" of an account), codes and tokens, the last two stored only as
 * SHA-256 hashes. Revoking a grant or a token family is one UPDATE, so a disconnect takes
 * effect on the next call.
 *
 * key_usage loses its foreign key to api_keys: calls made with an OAuth token are tallied
 * per grant (`grant:<id>`) in the same table, beside the per-key tallies.
 */
export function oauth({ engine, bigint }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("oauth_clients")
        .addColumn("client_id", "text", (c) => c.primaryKey())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("metadata_json", "text", (c) => c.notNull())
        .addColumn("fetched_at", bigint, (c) => c.notNull())
        .addColumn("expires_at", bigint)
        .execute();

      await db.schema
        .createTable("oauth_grants")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        // The signed-in person who approved; users live in the people tables, so no foreign key here.
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("client_id", "text", (c) => c.notNull())
        // The redirect URI last approved: "connected apps" shows its host.
        .addColumn("redirect_uri", "text", (c) => c.notNull())
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("created_at", bigint, (c) => c.notNull())
        .addColumn("last_used_at", bigint)
        .addColumn("revoked_at", bigint)
        .execute();
      await db.schema.createIndex("oauth_grants_account").on("oauth_grants").columns(["account_id", "created_at"]).execute();

      await db.schema
        .createTable("oauth_codes")
        .addColumn("hash", "text", (c) => c.primaryKey())
        .addColumn("grant_id", "text", (c) => c.notNull().references("oauth_grants.id"))
        .addColumn("redirect_uri", "text", (c) => c.notNull())
        .addColumn("code_challenge", "text", (c) => c.notNull())
        .addColumn("resource", "text", (c) => c.notNull())
        .addColumn("family_id", "text", (c) => c.notNull())
        .addColumn("expires_at", bigint, (c) => c.notNull())
        .addColumn("used_at", bigint)
        .execute();

      await db.schema
        .createTable("oauth_tokens")
        .addColumn("hash", "text", (c) => c.primaryKey())
        .addColumn("grant_id", "text", (c) => c.notNull().references("oauth_grants.id"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("family_id", "text", (c) => c.notNull())
        .addColumn("resource", "text", (c) => c.notNull())
        .addColumn("expires_at", bigint, (c) => c.notNull())
        .addColumn("revoked_at", bigint)
        .addColumn("used_at", bigint)
        .execute();
      await db.schema.createIndex("oauth_tokens_family").on("oauth_tokens").column("family_id").execute();
      await db.schema.createIndex("oauth_tokens_grant").on("oauth_tokens").column("grant_id").execute();

      if (engine === "postgres") {
        await sql`ALTER TABLE key_usage DROP CONSTRAINT IF EXISTS key_usage_key_id_fkey`.execute(db);
      } else {
        // SQLite cannot drop a constraint: the table is rebuilt with the same rows.
        await sql`CREATE TABLE key_usage_new (key_id text NOT NULL, period text NOT NULL, calls integer DEFAULT 0 NOT NULL, credits integer DEFAULT 0 NOT NULL, CONSTRAINT key_usage_pk PRIMARY KEY (key_id, period))`.execute(db);
        await sql`INSERT INTO key_usage_new (key_id, period, calls, credits) SELECT key_id, period, calls, credits FROM key_usage`.execute(db);
        await sql`DROP TABLE key_usage`.execute(db);
        await sql`ALTER TABLE key_usage_new RENAME TO key_usage`.execute(db);
      }
    },
  };
}
