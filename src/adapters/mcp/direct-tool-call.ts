import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  classifyInboundRequest,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/server";
import { stringifyWithRemembered } from "./known-json.ts";
import type { ToolResult } from "./tool-result.ts";
import type { ToolSpec } from "./tools.ts";

/**
 * The request an assistant sends over and over, a plain `tools/call`, answered without the
 * SDK's per-request McpServer and generic dispatch. In stateless serving the SDK builds a
 * server with every tool for each HTTP request, runs its JSON-RPC and MCP schema checks and
 * its transport: about 0.6 ms per call against 0.2 ms for the whole REST call it stands for
 * (bench/README.md, "MCP"). This path answers the same JSON-RPC response itself.
 *
 * It is taken only when the request is the plain case in every respect; anything else (other
 * methods, batches, an unknown tool, unusual `_meta`, odd headers, an envelope the SDK would
 * refuse) returns null and goes to the SDK, which stays the reference: a test sends the same
 * requests down both paths and requires identical answers.
 */

/** The revision of the stateless era this path answers. */
const MODERN_REVISION = "2026-07-28";
/** The `_meta` keys of a plain 2026-07-28 call: the envelope the client library writes, nothing more. */
const MODERN_META_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);

export interface DirectToolCall {
  id: string | number;
  spec: ToolSpec;
  args: Record<string, unknown>;
  era: "legacy" | "modern";
}

type Headers = Record<string, string | string[] | undefined>;

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const header = (headers: Headers, name: string): string | undefined => {
  const v = headers[name];
  return typeof v === "string" ? v : undefined;
};
const onlyKeys = (o: Record<string, unknown>, allowed: ReadonlySet<string>) => Object.keys(o).every((k) => allowed.has(k));

/** Object keys and array items in the arguments, counted as the SDK counts them for `maxToolInputElements`, up to `max` + 1. */
export function elementCount(value: unknown, max: number): number {
  let count = 0;
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (++count > max) return count;
      if (child !== null && typeof child === "object") stack.push(child);
    }
  }
  return count;
}

const BODY_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const PARAM_KEYS = new Set(["name", "arguments", "_meta"]);

/**
 * The call, when the request is a plain `tools/call` of one of these tools that the SDK would
 * serve as a JSON answer; null otherwise.
 */
export function directToolCall(method: string, headers: Headers, body: unknown, tools: ReadonlyMap<string, ToolSpec>, maxInputElements: number): DirectToolCall | null {
  if (method !== "POST" || !isPlainObject(body) || !onlyKeys(body, BODY_KEYS)) return null;
  if (body.jsonrpc !== "2.0" || body.method !== "tools/call") return null;
  const id = body.id;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)))) return null;
  const params = body.params;
  if (!isPlainObject(params) || !onlyKeys(params, PARAM_KEYS) || typeof params.name !== "string") return null;
  const spec = tools.get(params.name);
  if (!spec) return null;
  const args = params.arguments;
  if (args !== undefined && !isPlainObject(args)) return null;
  // Too many elements: the SDK's refusal (a protocol error) is the answer.
  if (elementCount(args, maxInputElements) > maxInputElements) return null;

  // Content negotiation as the SDK's transport wants it, answered as JSON.
  const contentType = header(headers, "content-type");
  const accept = header(headers, "accept");
  if (!contentType || !/^application\/json\s*(;|$)/i.test(contentType)) return null;
  if (!accept || !accept.includes("application/json") || !accept.includes("text/event-stream")) return null;

  const versionHeader = header(headers, "mcp-protocol-version");
  const methodHeader = header(headers, "mcp-method");
  const nameHeader = header(headers, "mcp-name");
  const meta = params._meta;

  if (meta === undefined) {
    // A 2025-era call: no envelope, no 2026 headers, a version the SDK serves (or none: its default).
    if (methodHeader !== undefined || nameHeader !== undefined) return null;
    if (versionHeader !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(versionHeader)) return null;
    return { id, spec, args: args ?? {}, era: "legacy" };
  }
  // A 2026-07-28 call: the standard headers exactly as the client library writes them, and the envelope.
  if (versionHeader !== MODERN_REVISION || methodHeader !== "tools/call" || nameHeader !== params.name) return null;
  if (!isPlainObject(meta) || !onlyKeys(meta, MODERN_META_KEYS) || !envelopeAccepted(body, meta)) return null;
  return { id, spec, args: args ?? {}, era: "modern" };
}

/** Envelopes the SDK's classification accepted; a client sends the same one on every call. */
const acceptedEnvelopes = new Set<string>();
const MAX_REMEMBERED_ENVELOPES = 256;

/** Whether the SDK classifies this call as a 2026-07-28 request (its envelope check is about 35 us, so its verdict is remembered). */
function envelopeAccepted(body: Record<string, unknown>, meta: Record<string, unknown>): boolean {
  const text = JSON.stringify(meta);
  if (acceptedEnvelopes.has(text)) return true;
  const route = classifyInboundRequest({ httpMethod: "POST", body, protocolVersionHeader: MODERN_REVISION, mcpMethodHeader: "tools/call" });
  if (route.kind !== "modern" || route.messageKind !== "request" || route.classification.revision !== MODERN_REVISION) return false;
  if (acceptedEnvelopes.size >= MAX_REMEMBERED_ENVELOPES) acceptedEnvelopes.clear();
  acceptedEnvelopes.add(text);
  return true;
}

/**
 * The JSON-RPC response the SDK gives for this call and result, as text; the structured content
 * is not serialised again. The envelope around the result is fixed, so it is written as text
 * and only the result's own members are serialised: walking the envelope and `_meta` member
 * by member took 0.8 us of the 4.3 us of writing a `get_port` answer (best of 15 loops).
 */
export function directToolCallResponse(call: DirectToolCall, result: ToolResult, serverInfo: Record<string, unknown>): string {
  const out: Record<string, unknown> =
    call.era === "modern" ? { ...result, _meta: { ...(result._meta ?? {}), [SERVER_INFO_META_KEY]: serverInfo }, resultType: "complete" } : result;
  // Key order as JSON.stringify({ result, jsonrpc, id }) writes it; the id is a string or a safe integer (directToolCall).
  return `{"result":${stringifyWithRemembered(out, 1)!},"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`;
}
