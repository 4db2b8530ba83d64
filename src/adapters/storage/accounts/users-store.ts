import type { Kysely } from "kysely";
import { randomBase62 } from "../../../domain/secrets.ts";
import type { Clock } from "../../../interfaces/clock.ts";
import type { CreateUserResult, User, UserStore } from "../../../interfaces/people.ts";
import type { PlanId } from "../../../domain/plans.ts";
import type { Database, UsersTable } from "../schema.ts";
import { newAccountRow } from "./accounts-store.ts";

function toUser(r: UsersTable): User {
  return { id: r.id, accountId: r.account_id, email: r.email, passwordHash: r.password_hash, createdAt: r.created_at, updatedAt: r.updated_at };
}

/** A unique-constraint violation on either engine (SQLite's message, PostgreSQL's SQLSTATE 23505). */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err?.code === "23505" || /UNIQUE constraint failed/i.test(String(err?.message));
}

export class SqlUserStore implements UserStore {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;

  constructor(db: Kysely<Database>, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  async createUser(input: { accountId: string; email: string; passwordHash: string }): Promise<CreateUserResult> {
    const now = this.#clock.now();
    const row: UsersTable = { id: `usr_${randomBase62(16)}`, account_id: input.accountId, email: input.email, password_hash: input.passwordHash, created_at: now, updated_at: now };
    try {
      await this.#db.insertInto("users").values(row).execute();
    } catch (e) {
      if (isUniqueViolation(e)) return { ok: false, reason: "email_taken" };
      throw e;
    }
    return { ok: true, user: toUser(row) };
  }

  async createAccountWithUser(input: { account: { name: string; webPlan: PlanId | null; apiPlan: PlanId | null }; email: string; passwordHash: string }): Promise<CreateUserResult> {
    const now = this.#clock.now();
    const account = newAccountRow(input.account, now);
    const row: UsersTable = { id: `usr_${randomBase62(16)}`, account_id: account.id, email: input.email, password_hash: input.passwordHash, created_at: now, updated_at: now };
    try {
      // A taken e-mail fails the user's insert, which rolls the account's back.
      await this.#db.transaction().execute(async (tx) => {
        await tx.insertInto("accounts").values(account).execute();
        await tx.insertInto("users").values(row).execute();
      });
    } catch (e) {
      if (isUniqueViolation(e)) return { ok: false, reason: "email_taken" };
      throw e;
    }
    return { ok: true, user: toUser(row) };
  }

  async findByEmail(email: string): Promise<User | null> {
    const r = await this.#db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
    return r ? toUser(r) : null;
  }

  async getUser(id: string): Promise<User | null> {
    const r = await this.#db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    return r ? toUser(r) : null;
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<boolean> {
    const r = await this.#db.updateTable("users").set({ password_hash: passwordHash, updated_at: this.#clock.now() }).where("id", "=", userId).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
