import { entitlements } from "../../domain/plans.ts";
import type { AppError } from "../../domain/errors.ts";
import { execute, type Pipeline } from "../../operations/execute.ts";
import type { Operation } from "../../operations/operation.ts";
import type { Principal } from "../../operations/principal.ts";

/**
 * The one place the pages run an API operation: as the signed-in user's account, through
 * the same pipeline as REST and MCP (rate limit, validation, rules, rights filter), so a
 * page shows and refuses exactly what the API would. The principal is built from the
 * account's plans; its key id `web:<user>` keeps the pages' rate limit apart from the keys'.
 */
const PAGE_RATE_PER_SECOND = 50;

export type PageOutcome<T> = { ok: true; data: T; next: string | null } | { ok: false; status: number; message: string; param?: string; error: AppError | undefined };

export async function runAsAccount<T = unknown>(
  pipeline: Pipeline,
  op: Operation,
  who: { userId: string; accountId: string; clientAddress: string },
  input: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown } = {},
): Promise<PageOutcome<T>> {
  const account = await pipeline.services.accounts.getAccount(who.accountId);
  const ent = entitlements(account?.webPlan ?? null, account?.apiPlan ?? null, account?.deal);
  const principal: Principal = {
    kind: "key",
    keyId: `web:${who.userId}`,
    accountId: who.accountId,
    // One page view runs two or three operations; a plan's API rate (a few per second on the small plans) would refuse a person clicking around.
    entitlements: { ...ent, ratePerSecond: Math.max(ent.ratePerSecond, PAGE_RATE_PER_SECOND) },
    clientAddress: who.clientAddress,
    subject: `web:${who.userId}`,
  };
  const outcome = await execute(pipeline, op, principal, {
    params: input.params ?? {},
    query: input.query ?? {},
    body: input.body,
    baseUrl: "",
    requestId: "web",
  });
  if (outcome.status === 200) {
    const body = outcome.body as { data: T; next?: string };
    const next = body.next ? (new URL(body.next, "http://x").searchParams.get("cursor") ?? null) : null;
    return { ok: true, data: body.data, next };
  }
  const e = (outcome.body as { error: { message: string; param?: string } }).error;
  return { ok: false, status: outcome.status, message: e.message, param: e.param, error: outcome.error };
}
