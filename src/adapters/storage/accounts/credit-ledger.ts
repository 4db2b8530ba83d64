import { CompiledQuery, type Kysely, sql } from "kysely";
import type { ChargeResult, CreditLedger } from "../../../interfaces/accounts.ts";
import type { SqlDialect } from "../dialect/dialect.ts";
import type { Database } from "../schema.ts";

/**
 * Credits live in one row per account and month. A charge is a single conditional
 * UPDATE (`used + cost <= limit`), which both engines apply atomically: PostgreSQL
 * re-checks the condition on the locked row, SQLite has one writer at a time. So an
 * account with N credits left never gets more than N credits of calls through.
 *
 * The per-key tallies are for reporting only; they are buffered in memory and written
 * once a second (and before any usage read), so the hot path is one statement.
 */
/** One account-month's increment in a batch written behind. */
export interface CreditIncrement {
  accountId: string;
  period: string;
  delta: number;
}

/** Keys per statement when the tallies are written (4 parameters each, far below either engine's limit). */
const KEY_TALLY_CHUNK = 500;

export class SqlCreditLedger implements CreditLedger {
  readonly #db: Kysely<Database>;
  /** Account-month rows known to exist. */
  readonly #rows = new Set<string>();
  readonly #chargeSql: string;
  /** key|period -> calls and credits not yet written. */
  readonly #pending = new Map<string, { keyId: string; period: string; calls: number; credits: number }>();
  #timer: NodeJS.Timeout | null = null;
  /** The last write of the tallies: a flush waits for it, so what it carries is in before a read. */
  #writing: Promise<void> = Promise.resolve();

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    this.#db = db;
    // Written once per engine rather than built per call: this runs on every paid request.
    this.#chargeSql = dialect.chargeSql;
  }

  async #ensureRow(accountId: string, period: string): Promise<void> {
    const k = `${accountId}|${period}`;
    if (this.#rows.has(k)) return;
    await this.#db.insertInto("credit_usage").values({ account_id: accountId, period, used: 0 }).onConflict((oc) => oc.doNothing()).execute();
    if (this.#rows.size > 100_000) this.#rows.clear();
    this.#rows.add(k);
  }

  async charge(accountId: string, keyId: string, period: string, cost: number, limit: number): Promise<ChargeResult> {
    await this.#ensureRow(accountId, period);
    const r = await this.#db.executeQuery<{ used: number }>(CompiledQuery.raw(this.#chargeSql, [cost, accountId, period, limit]));
    const row = r.rows[0];
    if (!row) {
      const cur = await this.#db.selectFrom("credit_usage").select("used").where("account_id", "=", accountId).where("period", "=", period).executeTakeFirst();
      return { ok: false, used: Number(cur?.used ?? 0) };
    }
    this.#tally(keyId, period, 1, cost);
    return { ok: true, used: Number(row.used) };
  }

  async refund(accountId: string, keyId: string, period: string, cost: number): Promise<void> {
    await this.#db.updateTable("credit_usage").set({ used: sql`used - ${cost}` }).where("account_id", "=", accountId).where("period", "=", period).execute();
    this.#tally(keyId, period, -1, -cost);
  }

  /** Adds to the period's usage without a limit: the write-behind ledger's increments. */
  async add(accountId: string, period: string, delta: number): Promise<void> {
    await this.#ensureRow(accountId, period);
    await this.#db.updateTable("credit_usage").set({ used: sql`used + ${delta}` }).where("account_id", "=", accountId).where("period", "=", period).execute();
  }

  /**
   * Adds a batch of increments taken from Redis under `token`, once: the token is recorded in
   * the same transaction, so a batch applied before its taker died is recognised when another
   * process takes it over. False when the batch had already been applied.
   */
  async applyBatch(token: string, increments: readonly CreditIncrement[], now = Date.now()): Promise<boolean> {
    return this.#db.transaction().execute(async (tx) => {
      const recorded = await tx.insertInto("credit_batches").values({ token, applied_at: now }).onConflict((oc) => oc.doNothing()).returning("token").executeTakeFirst();
      if (!recorded) return false;
      for (const { accountId, period, delta } of increments) {
        await tx.insertInto("credit_usage").values({ account_id: accountId, period, used: 0 }).onConflict((oc) => oc.doNothing()).execute();
        await tx.updateTable("credit_usage").set({ used: sql`used + ${delta}` }).where("account_id", "=", accountId).where("period", "=", period).execute();
      }
      return true;
    });
  }

  /** Forgets the tokens of batches applied before `before` (epoch ms): no taker outlives them. */
  async forgetBatches(before: number): Promise<void> {
    await this.#db.deleteFrom("credit_batches").where("applied_at", "<", before).execute();
  }

  tally(keyId: string, period: string, calls: number, credits: number): void {
    this.#tally(keyId, period, calls, credits);
  }

  #tally(keyId: string, period: string, calls: number, credits: number): void {
    const k = `${keyId}|${period}`;
    const p = this.#pending.get(k);
    if (p) {
      p.calls += calls;
      p.credits += credits;
    } else {
      this.#pending.set(k, { keyId, period, calls, credits });
    }
    if (!this.#timer) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        void this.flush().catch(() => undefined);
      }, 1_000);
      this.#timer.unref();
    }
  }

  /**
   * Writes the buffered per-key tallies, a statement per chunk of keys rather than per key:
   * a deployment whose callers rotate hundreds of keys would otherwise spend a round trip on
   * each, several times a second. Writes follow one another: a flush that found nothing
   * pending still waits for a timed write already under way, or `usage()` could read the
   * table before the calls that write carries are in it.
   */
  flush(): Promise<void> {
    const write = this.#writing.catch(() => undefined).then(() => this.#writePending());
    this.#writing = write;
    return write;
  }

  async #writePending(): Promise<void> {
    const batch = [...this.#pending.values()];
    this.#pending.clear();
    for (let i = 0; i < batch.length; i += KEY_TALLY_CHUNK) {
      const chunk = batch.slice(i, i + KEY_TALLY_CHUNK);
      try {
        await this.#db
          .insertInto("key_usage")
          .values(chunk.map((p) => ({ key_id: p.keyId, period: p.period, calls: p.calls, credits: p.credits })))
          .onConflict((oc) => oc.columns(["key_id", "period"]).doUpdateSet({ calls: sql`key_usage.calls + excluded.calls`, credits: sql`key_usage.credits + excluded.credits` }))
          .execute();
      } catch (e) {
        // Kept for the next flush rather than dropped: the tallies are what the usage page reports.
        for (const p of batch.slice(i)) this.#tally(p.keyId, p.period, p.calls, p.credits);
        throw e;
      }
    }
  }

  /** The credits an account has used in a period. */
  async balance(accountId: string, period: string): Promise<number> {
    const a = await this.#db.selectFrom("credit_usage").select("used").where("account_id", "=", accountId).where("period", "=", period).executeTakeFirst();
    return Number(a?.used ?? 0);
  }

  async usage(accountId: string, keyId: string, period: string) {
    await this.flush();
    const a = await this.#db.selectFrom("credit_usage").select("used").where("account_id", "=", accountId).where("period", "=", period).executeTakeFirst();
    const k = await this.#db.selectFrom("key_usage").select(["calls", "credits"]).where("key_id", "=", keyId).where("period", "=", period).executeTakeFirst();
    return { used: Number(a?.used ?? 0), keyCalls: Number(k?.calls ?? 0), keyCredits: Number(k?.credits ?? 0) };
  }

  async setUsed(accountId: string, period: string, used: number): Promise<void> {
    await this.#db
      .insertInto("credit_usage")
      .values({ account_id: accountId, period, used })
      .onConflict((oc) => oc.columns(["account_id", "period"]).doUpdateSet({ used }))
      .execute();
  }

  async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.flush();
  }
}
