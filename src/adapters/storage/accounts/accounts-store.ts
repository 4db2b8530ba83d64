import type { Kysely } from "kysely";
import { type AccountDeal, isPlanId, type PlanId } from "../../../domain/plans.ts";
import { hashSecret, newId, newSecret } from "../../../domain/secrets.ts";
import type { Account, AccountStore, CreatedKey, KeyListing, KeyPrincipalRecord } from "../../../interfaces/accounts.ts";
import type { Clock } from "../../../interfaces/clock.ts";
import type { AccountsTable, Database } from "../schema.ts";

const plan = (v: string | null): PlanId | null => (v !== null && isPlanId(v) ? v : null);

const dealOf = (r: Pick<AccountsTable, "monthly_credits" | "extra_monthly_credits" | "rate_per_second">): AccountDeal => ({
  monthlyCredits: r.monthly_credits === null ? null : Number(r.monthly_credits),
  extraMonthlyCredits: r.extra_monthly_credits === null ? null : Number(r.extra_monthly_credits),
  ratePerSecond: r.rate_per_second === null ? null : Number(r.rate_per_second),
});

function toAccount(r: AccountsTable): Account {
  return { id: r.id, name: r.name, webPlan: plan(r.web_plan), apiPlan: plan(r.api_plan), deal: dealOf(r), createdAt: r.created_at };
}

/** A new account's row (no deal of its own). */
export function newAccountRow(input: { name: string; webPlan: PlanId | null; apiPlan: PlanId | null }, now: number): AccountsTable {
  return { id: newId("acc"), name: input.name, web_plan: input.webPlan, api_plan: input.apiPlan, created_at: now, monthly_credits: null, extra_monthly_credits: null, rate_per_second: null };
}

export class SqlAccountStore implements AccountStore {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;

  constructor(db: Kysely<Database>, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  async createAccount(input: { name: string; webPlan: PlanId | null; apiPlan: PlanId | null }): Promise<Account> {
    const row = newAccountRow(input, this.#clock.now());
    await this.#db.insertInto("accounts").values(row).execute();
    return toAccount(row);
  }

  async getAccount(id: string): Promise<Account | null> {
    const r = await this.#db.selectFrom("accounts").selectAll().where("id", "=", id).executeTakeFirst();
    return r ? toAccount(r) : null;
  }

  async findAccountByName(name: string): Promise<Account | null> {
    const r = await this.#db.selectFrom("accounts").selectAll().where("name", "=", name).orderBy("created_at").executeTakeFirst();
    return r ? toAccount(r) : null;
  }

  async setPlan(accountId: string, slot: "web" | "api", planId: PlanId | null): Promise<void> {
    const q = this.#db.updateTable("accounts").where("id", "=", accountId);
    const r = await (slot === "web" ? q.set({ web_plan: planId }) : q.set({ api_plan: planId })).executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw new Error(`no account ${accountId}`);
  }

  async setDeal(accountId: string, deal: AccountDeal): Promise<boolean> {
    const r = await this.#db.updateTable("accounts").set({ monthly_credits: deal.monthlyCredits, extra_monthly_credits: deal.extraMonthlyCredits, rate_per_second: deal.ratePerSecond }).where("id", "=", accountId).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async createKey(accountId: string, name?: string): Promise<CreatedKey> {
    const key = newSecret("mds_sk");
    const id = newId("key");
    const start = key.slice(0, 11);
    await this.#db
      .insertInto("api_keys")
      .values({ id, account_id: accountId, hash: hashSecret(key), start, name: name ?? null, created_at: this.#clock.now(), revoked_at: null })
      .execute();
    return { id, key, start, accountId };
  }

  async listKeys(accountId: string): Promise<KeyListing[]> {
    const rows = await this.#db.selectFrom("api_keys").selectAll().where("account_id", "=", accountId).orderBy("created_at").execute();
    return rows.map((r) => ({ id: r.id, start: r.start, name: r.name, createdAt: r.created_at, revokedAt: r.revoked_at, lastUsedAt: r.last_used_at }));
  }

  async findKeyByHash(hash: string): Promise<KeyPrincipalRecord | null> {
    const r = await this.#db
      .selectFrom("api_keys")
      .innerJoin("accounts", "accounts.id", "api_keys.account_id")
      .select(["api_keys.id as keyId", "api_keys.hash", "api_keys.account_id as accountId", "api_keys.revoked_at", "accounts.web_plan", "accounts.api_plan", "accounts.monthly_credits", "accounts.extra_monthly_credits", "accounts.rate_per_second"])
      .where("api_keys.hash", "=", hash)
      .executeTakeFirst();
    if (!r) return null;
    return { keyId: r.keyId, accountId: r.accountId, revoked: r.revoked_at !== null, webPlan: plan(r.web_plan), apiPlan: plan(r.api_plan), deal: dealOf(r) };
  }

  async recordKeyUse(keyId: string, at: number): Promise<void> {
    await this.#db.updateTable("api_keys").set({ last_used_at: at }).where("id", "=", keyId).execute();
  }

  async revokeKey(keyId: string): Promise<boolean> {
    const r = await this.#db.updateTable("api_keys").set({ revoked_at: this.#clock.now() }).where("id", "=", keyId).where("revoked_at", "is", null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
