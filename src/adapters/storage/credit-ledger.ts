import { type Kysely, sql } from "kysely";
import type { ChargeResult, CreditLedger } from "../../ports/accounts.ts";
import type { Database } from "./schema.ts";

/**
 * Credits live in one row per account and month. A charge is a single conditional
 * UPDATE (`used + cost <= limit`), which both engines apply atomically: PostgreSQL
 * re-checks the condition on the locked row, SQLite has one writer at a time. So an
 * account with N credits left never gets more than N credits of calls through.
 */
export class SqlCreditLedger implements CreditLedger {
  readonly #db: Kysely<Database>;
  /** Account-month rows known to exist, so the hot path is one statement. */
  readonly #rows = new Set<string>();

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async #ensureRows(accountId: string, keyId: string, period: string): Promise<void> {
    const k = `${accountId}|${keyId}|${period}`;
    if (this.#rows.has(k)) return;
    await this.#db.insertInto("credit_usage").values({ account_id: accountId, period, used: 0 }).onConflict((oc) => oc.doNothing()).execute();
    await this.#db.insertInto("key_usage").values({ key_id: keyId, period, calls: 0, credits: 0 }).onConflict((oc) => oc.doNothing()).execute();
    if (this.#rows.size > 100_000) this.#rows.clear();
    this.#rows.add(k);
  }

  async charge(accountId: string, keyId: string, period: string, cost: number, limit: number): Promise<ChargeResult> {
    await this.#ensureRows(accountId, keyId, period);
    const r = await this.#db
      .updateTable("credit_usage")
      .set({ used: sql`used + ${cost}` })
      .where("account_id", "=", accountId)
      .where("period", "=", period)
      .where(sql<boolean>`used + ${cost} <= ${limit}`)
      .returning("used")
      .executeTakeFirst();
    if (!r) {
      const cur = await this.#db.selectFrom("credit_usage").select("used").where("account_id", "=", accountId).where("period", "=", period).executeTakeFirst();
      return { ok: false, used: cur?.used ?? 0 };
    }
    await this.#db
      .updateTable("key_usage")
      .set({ calls: sql`calls + 1`, credits: sql`credits + ${cost}` })
      .where("key_id", "=", keyId)
      .where("period", "=", period)
      .execute();
    return { ok: true, used: r.used };
  }

  async refund(accountId: string, keyId: string, period: string, cost: number): Promise<void> {
    await this.#db.updateTable("credit_usage").set({ used: sql`used - ${cost}` }).where("account_id", "=", accountId).where("period", "=", period).execute();
    await this.#db
      .updateTable("key_usage")
      .set({ calls: sql`calls - 1`, credits: sql`credits - ${cost}` })
      .where("key_id", "=", keyId)
      .where("period", "=", period)
      .execute();
  }

  async usage(accountId: string, keyId: string, period: string) {
    const a = await this.#db.selectFrom("credit_usage").select("used").where("account_id", "=", accountId).where("period", "=", period).executeTakeFirst();
    const k = await this.#db.selectFrom("key_usage").select(["calls", "credits"]).where("key_id", "=", keyId).where("period", "=", period).executeTakeFirst();
    return { used: a?.used ?? 0, keyCalls: k?.calls ?? 0, keyCredits: k?.credits ?? 0 };
  }

  async setUsed(accountId: string, period: string, used: number): Promise<void> {
    await this.#db
      .insertInto("credit_usage")
      .values({ account_id: accountId, period, used })
      .onConflict((oc) => oc.columns(["account_id", "period"]).doUpdateSet({ used }))
      .execute();
  }
}
