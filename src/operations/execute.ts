import { AppError, ERROR_CODES, type ErrorCode } from "../domain/errors.ts";
import { filterByRights, type WithheldEntry } from "../domain/rights/sourced.ts";
import type { KeyAuthenticator } from "./authenticate.ts";
import { billingPeriod } from "./billing-period.ts";
import type { Operation, OperationContext, Principal } from "./operation.ts";
import type { Services } from "./services.ts";

export interface Call {
  /** Path parameters by name, as text. */
  params: Record<string, string>;
  /** Query parameters by name, as text (repeated ones as arrays, which the schemas reject). */
  query: Record<string, unknown>;
  /** The parsed JSON request body, when the request had one. */
  body?: unknown;
  authorization: string | undefined;
  clientAddress: string;
  baseUrl: string;
  requestId: string;
}

export interface ErrorBody {
  error: { code: ErrorCode; status: number; message: string; retryable: boolean; param?: string; rule?: string; requestId: string; docs: string };
}

export interface Outcome {
  status: number;
  body: Record<string, unknown> | ErrorBody;
  headers: Record<string, string>;
  /** Credits charged for this call (0 on any failure). */
  charged: number;
  error?: AppError;
  /** Why parts were withheld, per source, for the audit log. */
  denials: { source: string; why: string }[];
}

export interface Pipeline {
  services: Services;
  /** Keys (REST, MCP); the command line passes an account's own principal through the same shape. */
  auth: Pick<KeyAuthenticator, "authenticate" | "forget">;
}

/**
 * The one pipeline every adapter calls: authenticate -> plan gate -> rate limit ->
 * validate -> reserve credits -> run -> rights filter -> envelope. A reservation is
 * given back when the call fails, so failed calls (and every 503) cost nothing.
 */
export async function execute(pipeline: Pipeline, op: Operation, call: Call): Promise<Outcome> {
  const { services } = pipeline;
  const headers: Record<string, string> = { "x-request-id": call.requestId };
  let principal: Principal | null = null;
  let reserved = 0;
  const period = billingPeriod(services.clock.now());
  try {
    principal = await pipeline.auth.authenticate(call.authorization, op.auth === "key", call.clientAddress);
    const ent = principal.entitlements;
    if (op.feature && !ent[op.feature]) {
      throw new AppError("plan_lacks_feature", `This operation needs a plan with ${featureName(op.feature)}; the plans of this key (${ent.plans.join(", ") || "none"}) do not include it.`, {
        feature: op.feature,
      });
    }

    const subject = principal.kind === "key" ? `key:${principal.keyId}` : `ip:${call.clientAddress}`;
    const rate = await services.limiter.consume(subject, ent.ratePerSecond);
    headers["x-ratelimit-limit"] = String(rate.limit);
    headers["x-ratelimit-remaining"] = String(rate.remaining);
    headers["x-ratelimit-reset"] = String(Math.ceil(rate.resetMs / 1000));
    if (!rate.allowed) {
      const retryAfter = Math.max(1, Math.ceil(rate.resetMs / 1000));
      headers["retry-after"] = String(retryAfter);
      throw new AppError("rate_limited", `More than ${rate.limit} requests per second for this ${principal.kind === "key" ? "key" : "client address"}; retry after ${retryAfter} s.`, { retryAfter });
    }

    const input = parseInput(op, call);
    const cost = op.cost(input, services.clock.now());
    if (principal.kind === "key" && cost > 0) {
      const charge = await services.ledger.charge(principal.accountId, principal.keyId, period, cost, ent.monthlyCredits);
      if (!charge.ok) {
        headers["x-credits-remaining"] = String(Math.max(0, ent.monthlyCredits - charge.used));
        throw new AppError("credits_exhausted", `This call costs ${cost} credit${cost === 1 ? "" : "s"} and ${Math.max(0, ent.monthlyCredits - charge.used)} of the account's ${ent.monthlyCredits} monthly credits are left.`, {
          cost,
          limit: ent.monthlyCredits,
          used: charge.used,
        });
      }
      reserved = cost;
      headers["x-credits-remaining"] = String(ent.monthlyCredits - charge.used);
    }

    const now = services.clock.now();
    const ctx: OperationContext = { services, principal, now, baseUrl: call.baseUrl };
    const result = await op.run(ctx, input);

    const filtered = filterByRights({ top: result.top ?? {}, data: result.data }, services.sources, { commercialUse: ent.commercialUse });
    const withheld: WithheldEntry[] = [...(result.withheld ?? []), ...filtered.withheld];
    const used = filtered.used.map((id) => services.sources.get(id)).filter((s) => s !== undefined);
    const data = filtered.value.data;
    const body: Record<string, unknown> = {
      type: op.responseType,
      apiVersion: op.apiVersion,
      ...filtered.value.top,
      ...(Array.isArray(data) ? { count: data.length } : {}),
      ...(result.nextCursor ? { next: nextUrl(op, call, result.nextCursor) } : {}),
      data,
      withheld,
      attribution: [...new Set(used.map((s) => s.attribution))],
      license: [...new Set(used.map((s) => s.license))],
      sources: used.map((s) => s.id),
    };
    headers["x-credits-cost"] = String(reserved);
    return { status: 200, body, headers, charged: reserved, denials: filtered.denials };
  } catch (e) {
    if (reserved > 0 && principal?.kind === "key") {
      await services.ledger.refund(principal.accountId, principal.keyId, period, reserved).catch(() => undefined);
      const left = Number(headers["x-credits-remaining"] ?? 0) + reserved;
      headers["x-credits-remaining"] = String(left);
    }
    const error = e instanceof AppError ? e : unexpected(e);
    headers["x-credits-cost"] = "0";
    return { status: error.status, body: errorBody(error, call), headers, charged: 0, error, denials: [] };
  }
}

function featureName(f: string): string {
  return f === "privateFeed" ? "private feeds (Pro, Team)" : f;
}

/** Anything that is not an AppError is ours: a store that cannot be reached is a 503, the rest a 500 without internals. */
function unexpected(e: unknown): AppError {
  const err = e as { code?: string; message?: string };
  const unreachable = ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "57P01", "53300"].includes(String(err?.code));
  const wrapped = new AppError(unreachable ? "service_unavailable" : "internal_error");
  wrapped.cause = e;
  return wrapped;
}

export function errorBody(error: AppError, call: Pick<Call, "baseUrl" | "requestId">): ErrorBody {
  const { param, rule } = error.details;
  return {
    error: {
      code: error.code,
      status: ERROR_CODES[error.code].status,
      message: error.message,
      retryable: ERROR_CODES[error.code].retryable,
      ...(param !== undefined ? { param } : {}),
      ...(rule !== undefined ? { rule } : {}),
      requestId: call.requestId,
      docs: `${call.baseUrl}/docs/errors#${error.code}`,
    },
  };
}

function parseInput(op: Operation, call: Call): Record<string, unknown> {
  const known = new Set(Object.keys(op.input.shape));
  for (const name of Object.keys(call.query)) {
    if (!known.has(name) || name in call.params) {
      throw new AppError("invalid_parameter", `Unknown parameter \`${name}\`; this operation takes ${[...known].filter((k) => !(k in call.params)).map((k) => `\`${k}\``).join(", ") || "no query parameters"}.`, {
        param: name,
        rule: "is not a parameter of this operation",
      });
    }
    if (Array.isArray(call.query[name])) {
      throw new AppError("invalid_parameter", `Parameter \`${name}\` is given more than once.`, { param: name, rule: "may appear only once" });
    }
  }
  const parsed = op.input.safeParse({ ...call.query, ...call.params });
  if (parsed.success) return op.body ? { ...(parsed.data as Record<string, unknown>), ...parseBody(op.body, call.body) } : noBody(call.body, parsed.data as Record<string, unknown>);
  const issue = parsed.error.issues[0]!;
  const param = String(issue.path[0] ?? "query");
  const rule = issue.code === "invalid_type" && issue.input === undefined ? "is required" : issue.message;
  throw new AppError("invalid_parameter", `Parameter \`${param}\` ${rule}.`, { param, rule });
}

/** Operations without a body accept none, or an empty JSON object (what many clients send with a bodiless POST). */
function noBody(body: unknown, input: Record<string, unknown>): Record<string, unknown> {
  const empty = body === undefined || body === null || body === "" || (typeof body === "object" && !Array.isArray(body) && Object.keys(body).length === 0);
  if (!empty) throw new AppError("invalid_parameter", "This operation takes no request body.", { param: "body", rule: "must be empty" });
  return input;
}

/** The JSON body against the operation's body schema; a problem names the field by its path (`geometry.coordinates`). */
function parseBody(schema: NonNullable<Operation["body"]>, body: unknown): Record<string, unknown> {
  // No body at all is an empty object: the schema then says which fields are required.
  if (body === undefined || body === null) body = {};
  if (typeof body !== "object" || Array.isArray(body)) {
    throw new AppError("invalid_parameter", "The request body must be a JSON object sent as `Content-Type: application/json`.", { param: "body", rule: "must be a JSON object" });
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const issue = parsed.error.issues[0]!;
  const param = issue.path.length > 0 ? issue.path.map(String).join(".") : "body";
  const rule = issue.code === "invalid_type" && issue.input === undefined ? "is required" : issue.message;
  throw new AppError("invalid_parameter", `Body field \`${param}\` ${rule}.`, { param, rule });
}

function nextUrl(op: Operation, call: Call, cursor: string): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(call.params[name] ?? ""));
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(call.query)) if (k !== "cursor" && typeof v === "string") q.set(k, v);
  q.set("cursor", cursor);
  return `${call.baseUrl}${path}?${q.toString()}`;
}

