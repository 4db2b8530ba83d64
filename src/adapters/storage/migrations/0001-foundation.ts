import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/** Accounts, keys, credits, stations, ports, flags and the dataset log. */
export function foundation({ engine, bigint, real }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("accounts")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("web_plan", "text")
        .addColumn("api_plan", "text")
        .addColumn("created_at", bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("api_keys")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("hash", "text", (c) => c.notNull().unique())
        .addColumn("start", "text", (c) => c.notNull())
        .addColumn("name", "text")
        .addColumn("created_at", bigint, (c) => c.notNull())
        .addColumn("revoked_at", bigint)
        .execute();
      await db.schema.createIndex("api_keys_account").on("api_keys").column("account_id").execute();
      await db.schema
        .createTable("credit_usage")
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("period", "text", (c) => c.notNull())
        .addColumn("used", bigint, (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("credit_usage_pk", ["account_id", "period"])
        .execute();
      await db.schema
        .createTable("key_usage")
        .addColumn("key_id", "text", (c) => c.notNull().references("api_keys.id"))
        .addColumn("period", "text", (c) => c.notNull())
        .addColumn("calls", bigint, (c) => c.notNull().defaultTo(0))
        .addColumn("credits", bigint, (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("key_usage_pk", ["key_id", "period"])
        .execute();
      await db.schema
        .createTable("stations")
        .addColumn("id", engine === "postgres" ? "serial" : "integer", (c) =>
          engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("secret_hash", "text", (c) => c.notNull().unique())
        .addColumn("shared", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("ports")
        .addColumn("unlocode", "text", (c) => c.primaryKey())
        .addColumn("country", "text", (c) => c.notNull())
        .addColumn("location", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("name_ascii", "text", (c) => c.notNull())
        .addColumn("subdivision", "text")
        .addColumn("subdivision_name", "text")
        .addColumn("functions", "text", (c) => c.notNull())
        .addColumn("function_names", "text", (c) => c.notNull())
        .addColumn("status", "text")
        .addColumn("iata", "text")
        .addColumn("changed", "text")
        .addColumn("edition", "text", (c) => c.notNull())
        .addColumn("lat", real)
        .addColumn("lon", real)
        .addColumn("coord_source", "text")
        .addColumn("wpi", "text")
        .addColumn("details", "text", (c) => c.notNull())
        .execute();
      // Paging a country walks (country, unlocode); the primary key serves the global order.
      await db.schema.createIndex("ports_country").on("ports").columns(["country", "unlocode"]).execute();
      await db.schema
        .createTable("flags")
        .addColumn("iso2", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("record", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("datasets")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("rows", "integer", (c) => c.notNull())
        .addColumn("origin", "text", (c) => c.notNull())
        .addColumn("imported_at", bigint, (c) => c.notNull())
        .execute();
    },
  };
}
