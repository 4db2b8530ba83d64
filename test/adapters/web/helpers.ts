import type { LightMyRequestResponse } from "fastify";
import { hashPassword } from "../../../src/adapters/web/password-hasher.ts";
import { SqlUserStore } from "../../../src/adapters/storage/accounts/users-store.ts";
import type { PlanId } from "../../../src/domain/plans.ts";
import type { TestService } from "../../helpers/service.ts";

export const PASSWORD = "correct horse battery";

/** A browser's cookie jar, as far as these tests need one. */
export class Browser {
  readonly t: TestService;
  readonly cookies = new Map<string, string>();
  constructor(t: TestService) {
    this.t = t;
  }

  #remember(res: LightMyRequestResponse): void {
    for (const c of res.cookies) {
      if (c.value === "" || (c.maxAge !== undefined && c.maxAge <= 0) || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    const res = await this.t.service.app.inject({ method: "GET", url, headers: { cookie: this.cookieHeader } });
    this.#remember(res);
    return res;
  }

  /** Posts a form as a browser would; the CSRF token is read from the page at `from` unless given. */
  async post(url: string, fields: Record<string, string>, from?: string): Promise<LightMyRequestResponse> {
    const form = { ...fields };
    if (form._csrf === undefined) form._csrf = csrfFrom((await this.get(from ?? "/account")).body);
    const res = await this.t.service.app.inject({
      method: "POST",
      url,
      headers: { cookie: this.cookieHeader, "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(form).toString(),
    });
    this.#remember(res);
    return res;
  }

  async signIn(email: string, password = PASSWORD, next?: string): Promise<LightMyRequestResponse> {
    return this.post("/login", { email, password, ...(next ? { next } : {}) }, "/login");
  }
}

export function csrfFrom(page: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!m) throw new Error("no CSRF token on the page");
  return m[1]!;
}

/** An account of the plan with one user who can sign in. */
export async function makeUser(t: TestService, email: string, plan: PlanId = "pro"): Promise<{ accountId: string; userId: string }> {
  const account = await t.service.services.accounts.createAccount({ name: email, webPlan: plan, apiPlan: null });
  const users = new SqlUserStore(t.service.store.db, t.clock);
  const r = await users.createUser({ accountId: account.id, email, passwordHash: await hashPassword(PASSWORD) });
  if (!r.ok) throw new Error("user exists");
  return { accountId: account.id, userId: r.user.id };
}
