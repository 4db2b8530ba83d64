import { ERROR_CODES } from "../../domain/errors.ts";
import type { Answer, Failure, Result } from "../../operations/answer.ts";
import type { Call } from "../../operations/call.ts";
import { envelopeOf, errorBody } from "../../operations/envelope.ts";
import type { Principal } from "../../operations/principal.ts";
import { rememberJson } from "./known-json.ts";
import type { COMMERCIAL_SCOPES, ToolSpec } from "./tools.ts";

/** Where a call comes from; the HTTP gate fills it in for each request, once the caller is authenticated. */
export interface CallContext {
  principal: Principal;
  baseUrl: string;
  requestId: string;
  commercialScope: (typeof COMMERCIAL_SCOPES)[number];
}

/** Tool values as the text a query string would carry; lists may come as arrays. */
function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")) return value.join(",");
  // Anything else cannot be a parameter; as JSON it fails the operation's rule with a clear message.
  return JSON.stringify(value);
}

/** Splits tool arguments into path and query parameters by the operation's path template. */
export function toCall(spec: ToolSpec, args: Record<string, unknown>, ctx: CallContext): Call {
  const params: Record<string, string> = {};
  const query: Record<string, unknown> = { ...spec.defaults };
  for (const [name, value] of Object.entries(args)) {
    const text = asText(value);
    if (text === undefined) continue;
    if (spec.pathParams.has(name)) params[name] = text;
    else query[name] = text;
  }
  // A missing path parameter is reported by the operation's own rule ("is required").
  return { params, query, baseUrl: ctx.baseUrl, requestId: ctx.requestId };
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The one place MCP turns a result into a tool result: a success, or an error the model can act on. */
export function toolResult(spec: ToolSpec, call: Call, result: Result, ctx: CallContext): ToolResult {
  return result.ok ? successResult(spec, call, result, ctx) : errorResult(result, ctx);
}

/** The API's envelope plus commercial scope and a cursor to go on; the text content is the same JSON. */
function successResult(spec: ToolSpec, call: Call, answer: Answer, ctx: CallContext): ToolResult {
  const body = envelopeOf(spec.op, answer, call);
  const structured: Record<string, unknown> = { ...body, commercialScope: ctx.commercialScope };
  if (spec.op.paged && answer.nextCursor) structured.nextCursor = answer.nextCursor;
  const text = JSON.stringify(structured);
  // The direct answer to a tool call reuses this text for `structuredContent` (known-json.ts).
  rememberJson(structured, text);
  const content: ToolResult["content"] = [{ type: "text", text }];
  // Screening also says in words which lists were checked and which were not, so that an
  // assistant skimming the result cannot read a partial check as a clearance.
  const coverageNote = answer.top["coverageNote"];
  if (typeof coverageNote === "string") content.push({ type: "text", text: `Sanctions screening coverage: ${coverageNote}` });
  return {
    content,
    structuredContent: structured,
    _meta: { "mds/request": { requestId: ctx.requestId, creditsCharged: answer.metering.credits.cost, creditsRemaining: answer.metering.credits.remaining } },
  };
}

/**
 * An operation's failure as a tool result the model can act on: the code, the message, what
 * to do (the `hint` of the error table). No structuredContent: clients check it against the
 * output schema, which describes successes (the 2025 v1 SDK client does so even on errors).
 */
function errorResult(failed: Failure, ctx: CallContext): ToolResult {
  const retryAfter = failed.metering.retryAfter ?? undefined;
  const error = { ...errorBody(failed.error, ctx).error, ...(retryAfter !== undefined ? { retryAfter } : {}) };
  const text =
    `Error ${error.code} (HTTP ${error.status}): ${error.message} ${ERROR_CODES[error.code].hint}` +
    `${retryAfter !== undefined ? ` retryAfter: ${retryAfter} s.` : ""} Request id ${error.requestId}; details: ${error.docs}`;
  return {
    content: [{ type: "text", text }],
    isError: true,
    // Every result carries the attribution to show and the commercial-use scope (spec 4.13); an error shows no data, so none to attribute.
    _meta: { "mds/error": error, "mds/request": { requestId: ctx.requestId, creditsCharged: 0, attribution: [], commercialScope: ctx.commercialScope } },
  };
}
