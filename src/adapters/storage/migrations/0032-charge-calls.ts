import { type Kysely, type Migration, sql } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * `mds_charge_calls`: a batch of paid calls checked and charged in one statement on
 * PostgreSQL, for a deployment without Redis (storage/accounts/batched-credit-ledger.ts,
 * docs/adr/0001-credit-ledger.md). The arrays hold one entry per call; each call is decided
 * alone, in its order within its account-month: charged if the balance plus its cost stays
 * within its limit. Per account-month the row is locked once (`FOR UPDATE`, which waits for
 * any other process's batch and then reads the balance it left), the decisions are made on
 * that figure, and the row is written once with their sum. Account-months are taken in one
 * order (account, then period) so that two batches never wait on each other in a cycle.
 * Returns, per call, whether it was charged and the balance after it (after the batch's
 * earlier calls on the same account-month).
 *
 * SQLite has no stored functions and needs none: one process serves its file and charges in
 * memory (write-behind-ledger.ts).
 */
export function chargeCalls({ engine }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine !== "postgres") return;
      await sql`
        CREATE FUNCTION mds_charge_calls(accounts text[], periods text[], costs bigint[], limits bigint[], OUT charged boolean[], OUT balances bigint[])
        LANGUAGE plpgsql AS $$
        DECLARE
          c record;
          cur_account text;
          cur_period text;
          balance bigint;
          start_balance bigint;
        BEGIN
          charged := array_fill(false, ARRAY[cardinality(costs)]);
          balances := array_fill(0::bigint, ARRAY[cardinality(costs)]);
          FOR c IN
            SELECT t.account_id, t.period, t.cost, t.lim, t.n
            FROM unnest(accounts, periods, costs, limits) WITH ORDINALITY AS t(account_id, period, cost, lim, n)
            ORDER BY t.account_id, t.period, t.n
          LOOP
            IF cur_account IS DISTINCT FROM c.account_id OR cur_period IS DISTINCT FROM c.period THEN
              IF cur_account IS NOT NULL AND balance <> start_balance THEN
                UPDATE credit_usage SET used = used + (balance - start_balance) WHERE account_id = cur_account AND period = cur_period;
              END IF;
              cur_account := c.account_id;
              cur_period := c.period;
              SELECT u.used INTO balance FROM credit_usage u WHERE u.account_id = cur_account AND u.period = cur_period FOR UPDATE;
              IF NOT FOUND THEN
                -- A new month: another batch may be creating the row too; whichever inserts, both then lock it.
                INSERT INTO credit_usage (account_id, period, used) VALUES (cur_account, cur_period, 0) ON CONFLICT DO NOTHING;
                SELECT u.used INTO balance FROM credit_usage u WHERE u.account_id = cur_account AND u.period = cur_period FOR UPDATE;
              END IF;
              start_balance := balance;
            END IF;
            IF balance + c.cost <= c.lim THEN
              balance := balance + c.cost;
              charged[c.n] := true;
            END IF;
            balances[c.n] := balance;
          END LOOP;
          IF cur_account IS NOT NULL AND balance <> start_balance THEN
            UPDATE credit_usage SET used = used + (balance - start_balance) WHERE account_id = cur_account AND period = cur_period;
          END IF;
        END
        $$`.execute(db);
    },
  };
}
