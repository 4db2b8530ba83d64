import type { Kysely, Transaction } from "kysely";
import type { SqlDialect } from "./dialect/dialect.ts";
import type { Database } from "./schema.ts";

/** Tables holding per-account objects whose number a plan limits. */
export type LimitedTable = "alert_follows" | "alert_zones" | "alert_saved_searches" | "webhook_endpoints";

/**
 * Count-then-insert as one atomic step, so N concurrent creates against a limit of L give
 * exactly L rows. PostgreSQL: the account's row is locked first, which queues every create
 * of that account behind the one holding it (READ COMMITTED alone would let two see the
 * same count). SQLite: the transaction runs alone on the process's one connection, and a
 * second process writing in between makes the commit fail rather than overdraw.
 */
export async function insertWithinLimit<R>(
  db: Kysely<Database>,
  dialect: SqlDialect,
  table: LimitedTable,
  accountId: string,
  limit: number,
  insert: (trx: Transaction<Database>) => Promise<R>,
): Promise<{ ok: true; value: R } | { ok: false; limit: number }> {
  return db.transaction().execute(async (trx) => {
    await dialect.lockAccount(trx, accountId);
    const { n } = await trx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("account_id", "=", accountId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= limit) return { ok: false as const, limit };
    return { ok: true as const, value: await insert(trx) };
  });
}
