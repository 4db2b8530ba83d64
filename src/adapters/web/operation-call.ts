import type { z } from "zod";
import { type Entitlements, entitlements } from "../../domain/plans.ts";
import type { Result, TopValues } from "../../operations/answer.ts";
import { ANONYMOUS_ENTITLEMENTS } from "../../operations/authenticate.ts";
import { execute, type Pipeline } from "../../operations/execute.ts";
import type { Operation, TopSchemas } from "../../operations/operation.ts";
import type { Principal, SessionPrincipal } from "../../operations/principal.ts";

/**
 * The one place the pages run an API operation: through the same pipeline as REST and MCP
 * (rate limit, validation, rules, rights filter), so a page shows and refuses exactly what
 * the API would. A signed-in user runs as a session principal of their account, with the
 * account's plans; its usage and rate limit (`web:<user>`) stay apart from the keys'.
 */
const PAGE_RATE_PER_SECOND = 50;
/**
 * A visitor without an account, per client address: a public page view runs one to three
 * operations, which the API's anonymous rate (1 a second) would refuse.
 */
const VISITOR_RATE_PER_SECOND = 20;

/** A page's call: path parameters, query and body as the address and the form carry them. The answer is the operation's typed Result. */
export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface Who {
  userId: string;
  accountId: string;
  clientAddress: string;
}

/** What an account's plans allow (credits, rate, webhook endpoints...): pages show limits before a form runs into them. */
export async function accountEntitlements(pipeline: Pipeline, accountId: string): Promise<Entitlements> {
  const account = await pipeline.services.accounts.getAccount(accountId);
  return entitlements(account?.webPlan ?? null, account?.apiPlan ?? null, account?.deal);
}

async function accountPrincipal(pipeline: Pipeline, who: Who): Promise<SessionPrincipal> {
  const ent = await accountEntitlements(pipeline, who.accountId);
  return {
    kind: "session",
    userId: who.userId,
    accountId: who.accountId,
    // One page view runs two or three operations; a plan's API rate (a few per second on the small plans) would refuse a person clicking around.
    entitlements: { ...ent, ratePerSecond: Math.max(ent.ratePerSecond, PAGE_RATE_PER_SECOND) },
    clientAddress: who.clientAddress,
    subject: `web:${who.userId}`,
  };
}

function run<S extends z.ZodObject, B extends z.ZodObject | undefined, D extends z.ZodType, T extends TopSchemas>(
  pipeline: Pipeline,
  op: Operation<S, B, D, T>,
  principal: Principal,
  input: CallInput,
  use: "api" | "web",
): Promise<Result<z.output<D>, TopValues<T>>> {
  // Pages make their own links and say errors in words: the base URL and request id of the API's forms are not used.
  return execute(pipeline, op, principal, { params: input.params ?? {}, query: input.query ?? {}, body: input.body, baseUrl: "", requestId: "web", use });
}

/** An account page's call: the account's own things, judged as the API judges them. */
export async function runAsAccount<S extends z.ZodObject, B extends z.ZodObject | undefined, D extends z.ZodType, T extends TopSchemas>(
  pipeline: Pipeline,
  op: Operation<S, B, D, T>,
  who: Who,
  input: CallInput = {},
): Promise<Result<z.output<D>, TopValues<T>>> {
  return run(pipeline, op, await accountPrincipal(pipeline, who), input, "api");
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
export function runAsVisitor<S extends z.ZodObject, B extends z.ZodObject | undefined, D extends z.ZodType, T extends TopSchemas>(
  pipeline: Pipeline,
  op: Operation<S, B, D, T>,
  principal: Principal,
  input: CallInput = {},
): Promise<Result<z.output<D>, TopValues<T>>> {
  return run(pipeline, op, principal, input, "web");
}
