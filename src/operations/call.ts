import { AppError } from "../domain/errors.ts";

/** One request as every face hands it to execute(): text as a URL carries it, plus the parsed body. */
export interface Call {
  /** Path parameters by name, as text. */
  params: Record<string, string>;
  /** Query parameters by name, as text (repeated ones as arrays, which the schemas reject). */
  query: Record<string, unknown>;
  /** The parsed JSON request body, when the request had one. */
  body?: unknown;
  /** Public base URL, for the `api` and `page` links operations put in their data. */
  baseUrl: string;
  requestId: string;
  /**
   * What the answer is for: `api` (REST, MCP and the command line, the default) or `web`, a
   * public page of the service, judged by the sources' `web` permission instead.
   */
  use?: "api" | "web";
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
