import type { Kysely, Migration } from "kysely";

/**
 * An operator's credits on top of an account's plans (`mds accounts set <id>
 * --monthly-credits <n>`, issue 19): a custom contract adds to whatever the plans give, and
 * keeps adding when the plans change. `monthly_credits` (0020) stays as the exact allowance
 * in place of the plans' (`--monthly-credits-total`), which tests and exact contracts use.
 * Null: nothing added. The same DDL on both engines.
 */
export function accountExtraCredits(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("accounts").addColumn("extra_monthly_credits", "integer").execute();
    },
  };
}
