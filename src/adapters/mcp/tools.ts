import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "../../domain/errors.ts";
import { SANCTIONS_LISTS } from "../../domain/sanctions/designation.ts";
import type { Call, ErrorBody, Outcome } from "../../operations/execute.ts";
import type { Operation } from "../../operations/operation.ts";
import { responseSchema } from "../http/openapi.ts";

/**
 * MCP tools generated from the operations registry. A tool is a thin face on its REST
 * operation: the arguments become the same path and query text a REST call carries and go
 * through the same execute(), so credits, rate limit, plan gates and rights cannot differ.
 */

/** Rows per page when the model does not ask: small, so one answer stays well inside an assistant's context. */
export const MCP_PAGE_SIZE = 10;

type JsonSchema = Record<string, unknown>;

/**
 * What a model needs to know about a parameter that the operation's schema does not say in
 * words. An operation may also describe a parameter itself (`.describe()` on its zod schema),
 * which takes precedence; a test requires every tool parameter to end up with a description.
 */
const PARAM_HINTS: Record<string, { description: string; extra?: JsonSchema }> = {
  id: { description: "The vessel: a checksum-valid 7-digit IMO number (e.g. 9176187), or `mmsi-` followed by the 9-digit MMSI for craft without an IMO (e.g. mmsi-244123456)." },
  unlocode: { description: "Five-character UN/LOCODE of the port, case-insensitive: two letters of country, then three letters or digits 2-9, e.g. NLRTM (Rotterdam)." },
  iso2: { description: "ISO 3166-1 alpha-2 country code, case-insensitive, e.g. PA." },
  country: { description: "Only rows of this country: ISO 3166-1 alpha-2 code, e.g. NL." },
  limit: { description: "Rows per page." },
  cursor: { description: "Opaque cursor to continue a list: the `nextCursor` of the previous answer. Leave out for the first page." },
  list: { description: "The sanctions list.", extra: { enum: [...SANCTIONS_LISTS] } },
  ids: {
    description:
      "Comma-separated vessels to screen, up to 50: checksum-valid 7-digit IMO numbers or `mmsi-` followed by the 9-digit MMSI, e.g. `9176187,mmsi-273456789`. Each costs 1 credit.",
  },
  lists: { description: `Comma-separated lists to screen against, from ${SANCTIONS_LISTS.join(", ")}. Default: all of them.` },
  maxAge: { description: "Only positions received within this many minutes." },
  hours: { description: "The last N hours of track; not together with `from`/`to`." },
  from: { description: "Window start, ISO 8601 timestamp; as far back as the plan allows." },
  to: { description: "Window end, ISO 8601 timestamp; default now." },
  q: { description: "What to look for: a name, IMO number, MMSI or UN/LOCODE; 2 to 100 characters." },
  kind: { description: "Comma-separated kinds of result to return; default all." },
  entityId: { description: "The company's entity id, as given in vessel and search answers." },
};

/** How to put right what an error says, for the model reading the tool result. */
const FIX_HINTS: Partial<Record<ErrorCode, string>> = {
  invalid_parameter: "Correct that argument (see the tool's input schema) and call again.",
  not_found: "Check the identifier; nothing was charged.",
  plan_lacks_feature: "The API key's account needs one of the plans named; tell the user to upgrade or to use a key of such an account. Nothing was charged.",
  credits_exhausted: "The monthly credits reset on the 1st (UTC); `get_usage` shows the balance. Tell the user, or use fewer or cheaper calls. Nothing was charged.",
  rate_limited: "Wait the number of seconds given in `retryAfter`, then call again.",
  archive_unavailable: "Retry later, or ask for a window within the last 90 days. Nothing was charged.",
  service_unavailable: "Retry in a little while. Nothing was charged.",
  internal_error: "Retry once; if it fails again, report the request id. Nothing was charged.",
  missing_api_key: "Configure the MCP client with the header `Authorization: Bearer <API_KEY>`.",
  invalid_api_key: "Configure the MCP client with a valid key in `Authorization: Bearer <API_KEY>`.",
  api_key_revoked: "The key was revoked; configure the MCP client with a new key.",
};

const COMMERCIAL_SCOPES = ["none", "internal", "product"] as const;

/** Everything a tool needs, computed once per process: the factory runs per HTTP request. */
export interface ToolSpec {
  name: string;
  op: Operation;
  title: string;
  description: string;
  pathParams: ReadonlySet<string>;
  /** Parameters the model may give as numbers; they go to execute() as text, like a query string. */
  inputSchema: StandardSchemaWithJSON<Record<string, unknown>>;
  outputSchema: StandardSchemaWithJSON;
  /** Query values the tool fills in when the model leaves them out (small page sizes). */
  defaults: Readonly<Record<string, string>>;
}

type ZodDef = { type: string; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType };
const defOf = (s: z.ZodType): ZodDef => (s as unknown as { _zod: { def: ZodDef } })._zod.def;

/**
 * The number an operation parses a text parameter into (`intParam`: text -> Number -> int
 * with bounds), found by walking the schema; null when the parameter stays text.
 */
function numberTarget(s: z.ZodType): z.ZodType | null {
  const def = defOf(s);
  switch (def.type) {
    case "number":
      return s;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
      return def.innerType ? numberTarget(def.innerType) : null;
    case "pipe": {
      if (!def.in || !def.out) return null;
      const out = numberTarget(def.out);
      if (out) return out;
      // A trailing transform (the default filled in) leaves the number on the input side.
      return defOf(def.out).type === "transform" ? numberTarget(def.in) : null;
    }
    default:
      return null;
  }
}

function jsonOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  return rest;
}

/** The tool's JSON Schema for one parameter, typed for the model, with the operation's own bounds. */
function parameterSchema(op: Operation, name: string, field: z.ZodType, required: boolean): { schema: JsonSchema; toolDefault?: string } {
  const hint = PARAM_HINTS[name];
  const own = field.description ?? (defOf(field).innerType as z.ZodType | undefined)?.description;
  const number = numberTarget(field);
  const schema: JsonSchema = number ? jsonOf(number, "output") : { ...jsonOf(field, "input") };
  // The text pattern of a number parameter means nothing once the model sends a number.
  if (number) delete schema.pattern;
  let toolDefault: string | undefined;
  if (!required) {
    const fallback = field.safeParse(undefined);
    if (fallback.success && (typeof fallback.data === "number" || typeof fallback.data === "string")) schema.default = fallback.data;
    // Paged operations answer assistants with small pages; REST keeps its own default.
    if (op.paged && name === "limit" && typeof schema.default === "number") {
      const max = typeof schema.maximum === "number" ? schema.maximum : MCP_PAGE_SIZE;
      schema.default = Math.min(MCP_PAGE_SIZE, max);
      toolDefault = String(schema.default);
    }
  }
  const parts = [own ?? hint?.description ?? ""];
  if (schema.default !== undefined) parts.push(`Default ${String(schema.default)}.`);
  return { schema: { ...schema, ...(hint?.extra ?? {}), description: parts.filter((p) => p !== "").join(" ") }, ...(toolDefault ? { toolDefault } : {}) };
}

/**
 * Arguments are checked by the operation, not here, so a bad argument gets the same
 * `invalid_parameter` code and rule as over REST (the SDK's own check would answer with
 * its own wording and no code). Only "not an object" is refused at this point.
 */
function lenientObject(json: JsonSchema): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    "~standard": {
      version: 1,
      vendor: "maritime-data-service",
      validate: (value: unknown) =>
        value === undefined || value === null
          ? { value: {} }
          : typeof value === "object" && !Array.isArray(value)
            ? { value: value as Record<string, unknown> }
            : { issues: [{ message: "arguments must be an object" }] },
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

/**
 * The output schema as advertised, converted once rather than on every `tools/list`. The
 * SDK would also check each result against it; that is left out on purpose: the result is
 * the REST envelope, which REST sends unchecked too, and checking a large answer cost more
 * than the rest of the call (150 us for a port page). The tests check real results of
 * every tool against the advertised schema instead.
 */
function advertised(schema: z.ZodType): StandardSchemaWithJSON {
  const input = jsonOf(schema, "input");
  const output = jsonOf(schema, "output");
  return {
    "~standard": {
      version: 1,
      vendor: "maritime-data-service",
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => input, output: () => output },
    },
  };
}

export function describeCost(op: Operation): string {
  try {
    const n = (op.cost as (i: unknown) => number)({});
    return n === 0 ? "free" : `${n} credit${n === 1 ? "" : "s"} per call`;
  } catch {
    return "depends on the arguments (see above)";
  }
}

/** The structured result: the REST envelope as it is, plus what an assistant needs to act on it. */
export function toolOutputSchema(op: Operation): z.ZodObject {
  return responseSchema(op).extend({
    commercialScope: z.enum(COMMERCIAL_SCOPES).describe("What the caller's plan permits: none (personal, non-commercial), internal (inside the subscriber's business), product (in the subscriber's product)."),
    ...(op.paged ? { nextCursor: z.string().optional().describe("Pass as `cursor` to get the next page; absent on the last page.") } : {}),
  });
}

export function buildToolSpecs(operations: readonly Operation[]): ToolSpec[] {
  const specs: ToolSpec[] = [];
  for (const op of operations) {
    if (!op.tool) continue;
    // Every tool is read-only (spec 4.13): a tool name on an operation that changes state is a mistake.
    if (op.method !== "GET") throw new Error(`operation ${op.id} (${op.method}) has the MCP tool name ${op.tool}; only GET operations become tools`);
    const pathParams = new Set([...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const defaults: Record<string, string> = {};
    for (const [name, raw] of Object.entries(op.input.shape)) {
      const field = raw as z.ZodType;
      const isRequired = pathParams.has(name) || !field.safeParse(undefined).success;
      const p = parameterSchema(op, name, field, isRequired);
      properties[name] = p.schema;
      if (isRequired) required.push(name);
      if (p.toolDefault !== undefined) defaults[name] = p.toolDefault;
    }
    const input: JsonSchema = { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false };
    const paging = op.paged ? ` Answers at most \`limit\` rows (default ${defaults.limit ?? MCP_PAGE_SIZE}); when \`nextCursor\` is present, call again with it as \`cursor\` for more.` : "";
    specs.push({
      name: op.tool,
      op,
      title: op.summary,
      description:
        `${op.description}${paging}\n\n` +
        `Same data, credits and rights as REST \`${op.method} ${op.path}\`; credits: ${describeCost(op)}. ` +
        "Parts whose sources may not be served are left out and listed in `withheld`; show the `attribution` texts with any data you use (see the resource service://docs/rights). " +
        "`commercialScope` says what the caller's plan permits.",
      pathParams,
      inputSchema: lenientObject(input),
      outputSchema: advertised(toolOutputSchema(op)),
      defaults,
    });
  }
  return specs;
}

/** Where a call comes from; the HTTP gate fills it in for each request. */
export interface CallContext {
  authorization: string | undefined;
  clientAddress: string;
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
  return { params, query, authorization: ctx.authorization, clientAddress: ctx.clientAddress, baseUrl: ctx.baseUrl, requestId: ctx.requestId };
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The envelope plus commercial scope and a cursor to go on; the text content is the same JSON. */
export function successResult(spec: ToolSpec, outcome: Outcome, ctx: CallContext): ToolResult {
  const body = outcome.body as Record<string, unknown>;
  const structured: Record<string, unknown> = { ...body, commercialScope: ctx.commercialScope };
  if (spec.op.paged && typeof body.next === "string") {
    const cursor = new URL(body.next).searchParams.get("cursor");
    if (cursor) structured.nextCursor = cursor;
  }
  return {
    content: [{ type: "text", text: JSON.stringify(structured) }],
    structuredContent: structured,
    _meta: { "mds/request": { requestId: ctx.requestId, creditsCharged: outcome.charged, creditsRemaining: numberOr(outcome.headers["x-credits-remaining"]) } },
  };
}

/**
 * An operation's failure as a tool result the model can act on: the code, the message, what
 * to do. No structuredContent: clients check it against the output schema, which describes
 * successes (the 2025 v1 SDK client does so even on errors).
 */
export function errorResult(outcome: Outcome, ctx: CallContext): ToolResult {
  const retryAfter = outcome.headers["retry-after"] === undefined ? undefined : Number(outcome.headers["retry-after"]);
  const error = { ...(outcome.body as ErrorBody).error, ...(retryAfter !== undefined ? { retryAfter } : {}) };
  const hint = FIX_HINTS[error.code] ?? ERROR_CODES[error.code].message;
  const text =
    `Error ${error.code} (HTTP ${error.status}): ${error.message} ${hint}` +
    `${retryAfter !== undefined ? ` retryAfter: ${retryAfter} s.` : ""} Request id ${error.requestId}; details: ${error.docs}`;
  return {
    content: [{ type: "text", text }],
    isError: true,
    _meta: { "mds/error": error, "mds/request": { requestId: ctx.requestId, creditsCharged: 0 } },
  };
}

function numberOr(v: string | undefined): number | null {
  return v === undefined ? null : Number(v);
}
