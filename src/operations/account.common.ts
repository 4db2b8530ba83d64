import { z } from "zod";
import { AppError } from "../domain/errors.ts";
import { canExist, formatId, ID_PREFIXES, idRule, type IdPrefix, parseId } from "../domain/ids.ts";
import type { OperationContext } from "./operation.ts";

/**
 * What the account operations (webhooks, deliveries, zones, follows, saved searches)
 * share: the caller's account, prefixed id parameters, and errors built fresh so that another
 * account's object is indistinguishable from one that never existed.
 */

/**
 * A path or query id such as `wh_12`. A well-formed id too large for any stored row is the
 * not-found answer at once (thrown through the parse, which lets it pass to execute()): the
 * same 404 on every engine, where a query would fail on PostgreSQL's 32-bit columns.
 */
export function idParam(prefix: IdPrefix) {
  return z.string().transform((v, ctx) => {
    const id = parseId(prefix, v);
    if (id === null) {
      ctx.addIssue({ code: "custom", message: idRule(prefix) });
      return z.NEVER;
    }
    if (!canExist(id)) throw notFound(prefix, id);
    return id;
  });
}

export function accountOf(ctx: OperationContext): string {
  if (ctx.principal.kind === "anonymous") throw new AppError("missing_api_key");
  return ctx.principal.accountId;
}

/** The same answer whether the object is another account's or never existed: nothing tells them apart. */
export function notFound(prefix: IdPrefix, id: number): AppError {
  return new AppError("not_found", `No ${ID_PREFIXES[prefix]} ${formatId(prefix, id)} in this account.`);
}

/** The answer of a delete. */
export function deleted(prefix: IdPrefix, id: number): { id: string; deleted: true } {
  return { id: formatId(prefix, id), deleted: true };
}

export function limitReached(what: string, limit: number): AppError {
  return new AppError(
    "limit_reached",
    limit === 0 ? `The plans of this account include no ${what}; a Pro, Team or API plan does.` : `The plans of this account allow ${limit} ${what}; delete one or move to a larger plan.`,
    { limit },
  );
}

export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** ISO 8601 timestamp in a query parameter. */
export const timeParam = z.string().transform((v, ctx) => {
  const t = Date.parse(v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(t)) {
    ctx.addIssue({ code: "custom", message: "must be an ISO 8601 date or timestamp, e.g. 2026-11-20T12:00:00Z" });
    return z.NEVER;
  }
  return t;
});

/** A user-given name (zone, saved search, endpoint description): printable text, trimmed. */
export function nameField(max: number) {
  return z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must be at most ${max} characters` })
    .refine((v) => ![...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), { error: "must not contain control characters" });
}

export const DeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
