import { ERROR_CODES, type AppError, type ErrorCode } from "../domain/errors.ts";
import type { Answer } from "./answer.ts";
import type { Call } from "./call.ts";
import type { Operation } from "./operation.ts";

/**
 * The API's JSON forms of an answer (spec 2.1): the envelope of a success and the error
 * object of a failure. REST sends them as the body; MCP gives the same objects as structured
 * content, so a client reads one shape whichever face it uses.
 */

export interface ErrorBody {
  error: { code: ErrorCode; status: number; message: string; retryable: boolean; param?: string; rule?: string; requestId: string; docs: string };
}

export function envelopeOf(op: Operation, answer: Answer, call: Call): Record<string, unknown> {
  const data = answer.data;
  return {
    type: op.responseType,
    apiVersion: op.apiVersion,
    ...answer.top,
    ...(Array.isArray(data) ? { count: data.length } : {}),
    ...(answer.nextCursor ? { next: nextLink(op, call, answer.nextCursor) } : {}),
    data,
    withheld: answer.withheld,
    attribution: [...new Set(answer.sources.map((s) => s.attribution))],
    license: [...new Set(answer.sources.map((s) => s.license))],
    sources: answer.sourceIds,
  };
}

/** The same request with the next page's cursor: path and query as the caller gave them. */
function nextLink(op: Operation, call: Call, cursor: string): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(call.params[name] ?? ""));
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(call.query)) if (k !== "cursor" && typeof v === "string") q.set(k, v);
  q.set("cursor", cursor);
  return `${call.baseUrl}${path}?${q.toString()}`;
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
