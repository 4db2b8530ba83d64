import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Screening receipts (issue 28): one row per charged screening answer, read back by id and
 * account, swept by age (SCREENING_RETENTION); and the deployment's Ed25519 signing key(s),
 * one row per generation so every process signs with the same one. The same DDL on both engines.
 */
export function screeningReceipts(types: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("screening_receipts")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("account_id", "text", (c) => c.notNull())
        .addColumn("screened_at", types.bigint, (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("kid", "text", (c) => c.notNull())
        .addColumn("signature", "text", (c) => c.notNull())
        .execute();
      // The retention sweep deletes by age; reads go by the primary key.
      await db.schema.createIndex("screening_receipts_screened_at").on("screening_receipts").column("screened_at").execute();
      await db.schema
        .createTable("screening_keys")
        .addColumn("generation", "integer", (c) => c.primaryKey())
        .addColumn("kid", "text", (c) => c.notNull().unique())
        .addColumn("public_key", "text", (c) => c.notNull())
        .addColumn("private_key", "text", (c) => c.notNull())
        .addColumn("created_at", types.bigint, (c) => c.notNull())
        .execute();
    },
  };
}
