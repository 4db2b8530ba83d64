import { entitlements } from "../../domain/plans.ts";
import type { AppError } from "../../domain/errors.ts";
import { ANONYMOUS_ENTITLEMENTS } from "../../operations/authenticate.ts";
import { execute, type Pipeline } from "../../operations/execute.ts";
import type { Operation } from "../../operations/operation.ts";
import type { Principal } from "../../operations/principal.ts";

/**
 * The one place the pages run an API operation: through the same pipeline as REST and MCP
 * (rate limit, validation, rules, rights filter), so a page shows and refuses exactly what
 * the API would. A signed-in user runs as their account, with a principal built from the
 * account's plans; its key id `web:<user>` keeps the pages' rate limit apart from the keys'.
 */
const PAGE_RATE_PER_SECOND = 50;
/**
 * A visitor without an account, per client address: a public page view runs one to three
 * operations, which the API's anonymous rate (1 a second) would refuse.
 */
const VISITOR_RATE_PER_SECOND = 20;

export type PageOutcome<T> =
  | { ok: true; data: T; next: string | null; envelope: Record<string, unknown> }
  | { ok: false; status: number; message: string; param?: string; error: AppError | undefined };

interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface Who {
  userId: string;
  accountId: string;
  clientAddress: string;
}

async function accountPrincipal(pipeline: Pipeline, who: Who): Promise<Principal> {
  const account = await pipeline.services.accounts.getAccount(who.accountId);
  const ent = entitlements(account?.webPlan ?? null, account?.apiPlan ?? null, account?.deal);
  return {
    kind: "key",
    keyId: `web:${who.userId}`,
    accountId: who.accountId,
    // One page view runs two or three operations; a plan's API rate (a few per second on the small plans) would refuse a person clicking around.
    entitlements: { ...ent, ratePerSecond: Math.max(ent.ratePerSecond, PAGE_RATE_PER_SECOND) },
    clientAddress: who.clientAddress,
    subject: `web:${who.userId}`,
  };
}

async function run<T>(pipeline: Pipeline, op: Operation, principal: Principal, input: CallInput, use: "api" | "web"): Promise<PageOutcome<T>> {
  const outcome = await execute(pipeline, op, principal, {
    params: input.params ?? {},
    query: input.query ?? {},
    body: input.body,
    baseUrl: "",
    requestId: "web",
    use,
  });
  if (outcome.status === 200) {
    const body = outcome.body as { data: T; next?: string };
    const next = body.next ? (new URL(body.next, "http://x").searchParams.get("cursor") ?? null) : null;
    return { ok: true, data: body.data, next, envelope: outcome.body as Record<string, unknown> };
  }
  const e = (outcome.body as { error: { message: string; param?: string } }).error;
  return { ok: false, status: outcome.status, message: e.message, param: e.param, error: outcome.error };
}

/** An account page's call: the account's own things, judged as the API judges them. */
export async function runAsAccount<T = unknown>(pipeline: Pipeline, op: Operation, who: Who, input: CallInput = {}): Promise<PageOutcome<T>> {
  return run<T>(pipeline, op, await accountPrincipal(pipeline, who), input, "api");
}

/**
 * Who a public page runs as: a signed-in visitor as their account (their plan's history and
 * rights, their own stations), anyone else with an anonymous caller's rights (sandbox, the
 * last 24 hours, shared stations) and a rate of their own per address.
 */
export async function visitorPrincipal(pipeline: Pipeline, who: Who | { clientAddress: string }): Promise<Principal> {
  if ("accountId" in who) return accountPrincipal(pipeline, who);
  return { kind: "anonymous", subject: `web:ip:${who.clientAddress}`, entitlements: { ...ANONYMOUS_ENTITLEMENTS, ratePerSecond: VISITOR_RATE_PER_SECOND }, clientAddress: who.clientAddress };
}

/** A public page's call, judged for `web` use. Page views are not charged credits. */
export async function runAsVisitor<T = unknown>(pipeline: Pipeline, op: Operation, principal: Principal, input: CallInput = {}): Promise<PageOutcome<T>> {
  return run<T>(pipeline, op, principal, input, "web");
}
