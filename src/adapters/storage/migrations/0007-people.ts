import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * People who sign in to the web pages (each belongs to an account), their server-side
 * sessions (stored by the SHA-256 of the cookie value, so a copy of the table signs no one
 * in), and when each API key was last used, for the keys page.
 */
export function people({ bigint }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("users")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        // Stored already lower-cased by the application, so a plain unique index is case-insensitive.
        .addColumn("email", "text", (c) => c.notNull().unique())
        .addColumn("password_hash", "text", (c) => c.notNull())
        .addColumn("created_at", bigint, (c) => c.notNull())
        .addColumn("updated_at", bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("users_account").on("users").column("account_id").execute();

      await db.schema
        .createTable("sessions")
        .addColumn("id_hash", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
        .addColumn("created_at", bigint, (c) => c.notNull())
        .addColumn("last_seen_at", bigint, (c) => c.notNull())
        .addColumn("expires_at", bigint, (c) => c.notNull())
        .addColumn("ip", "text")
        .addColumn("user_agent", "text")
        .execute();
      await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();

      await db.schema.alterTable("api_keys").addColumn("last_used_at", bigint).execute();
    },
  };
}
