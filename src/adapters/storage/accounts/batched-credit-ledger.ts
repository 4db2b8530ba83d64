import { CompiledQuery, type Kysely } from "kysely";
import type { ChargeResult, CreditLedger } from "../../../interfaces/accounts.ts";
import type { Database } from "../schema.ts";
import type { SqlCreditLedger } from "./credit-ledger.ts";

/** The stored function of migration 0032: one entry per call in each array, decided in order per account-month. */
const CHARGE_CALLS = "select charged, balances from mds_charge_calls($1::text[], $2::text[], $3::bigint[], $4::bigint[])";

/**
 * Calls per statement: a busy process's calls of a few event-loop turns fit in one, and a
 * statement stays far below any limit on array parameters.
 */
const MAX_BATCH = 1_000;

type Waiting = { accountId: string; keyId: string; period: string; cost: number; limit: number; resolve: (r: ChargeResult) => void; reject: (e: unknown) => void };

/**
 * Credits on PostgreSQL without Redis, where several API processes share one exact balance
 * through the database. A charge per statement held the whole pipeline to about 13% of bare
 * `node:http`, so the charges a process receives go to the database together: every call of
 * an event-loop turn joins one statement, and while a statement is out, the calls that arrive
 * wait for the next one (one statement in flight per process). The statement
 * (`mds_charge_calls`, migration 0032) locks each account-month's row once, decides every
 * call alone and in order as the single conditional UPDATE did (charged only if the balance
 * plus its cost stays within the limit), and writes the row once. Nothing is leased or
 * estimated, so the balance is exact across any number of processes
 * (docs/adr/0001-credit-ledger.md).
 *
 * A call is answered only once its statement has committed: a process killed before that
 * has charged nothing for it, and one killed after had already charged it once. A statement
 * that fails charges none of its calls (each is refused with the error: a 503 that costs
 * nothing). Refunds, usage and the per-key tallies are the SQL ledger's.
 */
export class BatchedCreditLedger implements CreditLedger {
  readonly #db: Kysely<Database>;
  readonly #store: SqlCreditLedger;
  #queue: Waiting[] = [];
  #scheduled = false;
  #inFlight: Promise<void> | null = null;

  /** `db`: the pool charges go to (the store's counters pool, which commits without waiting for the WAL flush). */
  constructor(db: Kysely<Database>, store: SqlCreditLedger) {
    this.#db = db;
    this.#store = store;
  }

  charge(accountId: string, keyId: string, period: string, cost: number, limit: number): Promise<ChargeResult> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ accountId, keyId, period, cost, limit, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight || this.#queue.length === 0) return;
    this.#scheduled = true;
    // After this turn's I/O callbacks: every call that arrived with them joins the statement.
    setImmediate(() => {
      this.#scheduled = false;
      const batch = this.#queue.splice(0, MAX_BATCH);
      this.#inFlight = this.#run(batch).finally(() => {
        this.#inFlight = null;
        this.#schedule();
      });
    });
  }

  async #run(batch: Waiting[]): Promise<void> {
    let charged: boolean[];
    let balances: unknown[];
    try {
      const r = await this.#db.executeQuery<{ charged: boolean[]; balances: unknown[] }>(
        CompiledQuery.raw(CHARGE_CALLS, [batch.map((w) => w.accountId), batch.map((w) => w.period), batch.map((w) => w.cost), batch.map((w) => w.limit)]),
      );
      ({ charged, balances } = r.rows[0]!);
    } catch (e) {
      for (const w of batch) w.reject(e);
      return;
    }
    batch.forEach((w, i) => {
      const used = Number(balances[i]);
      if (!charged[i]) return w.resolve({ ok: false, used });
      this.#store.tally(w.keyId, w.period, 1, w.cost);
      w.resolve({ ok: true, used });
    });
  }

  refund(accountId: string, keyId: string, period: string, cost: number): Promise<void> {
    return this.#store.refund(accountId, keyId, period, cost);
  }

  usage(accountId: string, keyId: string, period: string): Promise<{ used: number; keyCalls: number; keyCredits: number }> {
    return this.#store.usage(accountId, keyId, period);
  }

  setUsed(accountId: string, period: string, used: number): Promise<void> {
    return this.#store.setUsed(accountId, period, used);
  }

  tally(keyId: string, period: string, calls: number, credits: number): void {
    this.#store.tally(keyId, period, calls, credits);
  }

  flush(): Promise<void> {
    return this.#store.flush();
  }

  /** Answers the calls still waiting (their statements run to the end), then writes the tallies. */
  async close(): Promise<void> {
    while (this.#inFlight || this.#scheduled || this.#queue.length > 0) {
      if (this.#inFlight) await this.#inFlight;
      else await new Promise((r) => setImmediate(r));
    }
    await this.#store.close();
  }
}
