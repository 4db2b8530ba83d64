import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * The batches of credit increments that Redis's write-behind has applied, by the token each
 * batch was taken under. Applying a batch and recording its token are one transaction, so a
 * batch whose taker died after the commit (before it could drop the batch from Redis) is
 * recognised when another process takes it over, and never added twice
 * (docs/adr/0001-credit-ledger.md). Rows are forgotten after a day.
 */
export function creditBatches(types: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("credit_batches")
        .addColumn("token", "text", (c) => c.primaryKey())
        .addColumn("applied_at", types.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("credit_batches_applied_at").on("credit_batches").column("applied_at").execute();
    },
  };
}
