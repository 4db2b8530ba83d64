import { AppError, ERROR_CODES, type ErrorCode } from "../domain/errors.ts";

/** One request as every adapter hands it to execute(): text as a URL carries it, plus the parsed body. */
export interface Call {
  /** Path parameters by name, as text. */
  params: Record<string, string>;
  /** Query parameters by name, as text (repeated ones as arrays, which the schemas reject). */
  query: Record<string, unknown>;
  /** The parsed JSON request body, when the request had one. */
  body?: unknown;
  baseUrl: string;
  requestId: string;
  /**
   * What the answer is for: `api` (REST and MCP, the default) or `web`, a public page of the
   * service, judged by the sources' `web` permission instead.
   */
  use?: "api" | "web";
}

export interface ErrorBody {
  error: { code: ErrorCode; status: number; message: string; retryable: boolean; param?: string; rule?: string; requestId: string; docs: string };
}

/** The per-second budget after this call: what REST sends as X-RateLimit-*, MCP leaves out. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Until the budget refills, in milliseconds. */
  resetMs: number;
}

/** What this call did to the account's monthly credits. */
export interface CreditsState {
  /** Credits charged for this call (0 on any failure). */
  cost: number;
  /** Left to the account this month; null when the call touched no balance (free, no key, failed before charging). */
  remaining: number | null;
}

/** What execute() answers; each transport writes it out in its own form (headers, `_meta`). */
export interface Outcome {
  status: number;
  body: Record<string, unknown> | ErrorBody;
  requestId: string;
  /** Null when the call failed before the limiter was asked (authentication, plan gate). */
  rateLimit: RateLimitState | null;
  credits: CreditsState;
  /** Seconds to wait before trying again, on rate_limited. */
  retryAfter: number | null;
  error?: AppError;
  /** Why parts were withheld, per source, for the audit log. */
  denials: { source: string; why: string }[];
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

/** Anything that is not an AppError is ours: a store that cannot be reached is a 503, the rest a 500 without internals. */
export function asAppError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  const err = e as { code?: string; message?: string };
  const unreachable = ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "57P01", "53300"].includes(String(err?.code));
  const wrapped = new AppError(unreachable ? "service_unavailable" : "internal_error");
  wrapped.cause = e;
  return wrapped;
}

/** A call that failed before the pipeline ran (authentication): nothing charged, no budget touched. */
export function failedOutcome(e: unknown, call: Pick<Call, "baseUrl" | "requestId">): Outcome {
  const error = asAppError(e);
  return {
    status: error.status,
    body: errorBody(error, call),
    requestId: call.requestId,
    rateLimit: null,
    credits: { cost: 0, remaining: null },
    retryAfter: null,
    error,
    denials: [],
  };
}
