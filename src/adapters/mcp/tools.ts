import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { z } from "zod";
import { describeCost as costOfOperation } from "../../operations/cost.ts";
import type { Operation } from "../../operations/operation.ts";
import { portableSchema } from "./portable-schema.ts";
import { TASK_NOTES } from "./tasks/long-tools.ts";
import { jsonSchemaOf as jsonOf, type JsonSchema, pathParamsOf, responseSchema } from "../../operations/response-schema.ts";

/**
 * MCP tools generated from the operations registry. A tool is a thin face on its REST
 * operation: the arguments become the same path and query text a REST call carries and go
 * through the same execute(), so credits, rate limit, plan gates and rights cannot differ.
 */

/** Rows per page when the model does not ask: small, so one answer stays well inside an assistant's context. */
export const MCP_PAGE_SIZE = 10;

export const COMMERCIAL_SCOPES = ["none", "internal", "product"] as const;

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
const defOf = (s: z.ZodType): ZodDef => s._zod.def as ZodDef;

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

/** The tool's JSON Schema for one parameter, typed for the model, with the operation's own bounds. */
function parameterSchema(op: Operation, name: string, field: z.ZodType, required: boolean): { schema: JsonSchema; toolDefault?: string } {
  // The operation describes its parameters (`.describe()` / `.meta()` on the zod field), for OpenAPI and here alike.
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
  const parts = [own ?? ""];
  if (schema.default !== undefined) parts.push(`Default ${String(schema.default)}.`);
  return { schema: { ...schema, description: parts.filter((p) => p !== "").join(" ") }, ...(toolDefault ? { toolDefault } : {}) };
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
  const input = portableSchema(jsonOf(schema, "input"));
  const output = portableSchema(jsonOf(schema, "output"));
  return {
    "~standard": {
      version: 1,
      vendor: "maritime-data-service",
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => input, output: () => output },
    },
  };
}

function costText(op: Operation): string {
  const cost = costOfOperation(op);
  if (cost.kind !== "flat") return "depends on the arguments (see above)";
  return cost.credits === 0 ? "free" : `${cost.credits} credit${cost.credits === 1 ? "" : "s"} per call`;
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
    const pathParams = pathParamsOf(op);
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
    const taskNote = TASK_NOTES.get(op.tool);
    specs.push({
      name: op.tool,
      op,
      title: op.summary,
      description:
        `${op.description}${paging}${taskNote ? `\n\n${taskNote}` : ""}\n\n` +
        `Same data, credits and rights as REST \`${op.method} ${op.path}\`; credits: ${costText(op)}. ` +
        "Parts whose sources may not be served are left out and listed in `withheld`; show the `attribution` texts with any data you use (see the resource service://docs/rights). " +
        "`commercialScope` says what the caller's plan permits.",
      pathParams,
      inputSchema: lenientObject(portableSchema(input)),
      outputSchema: advertised(toolOutputSchema(op)),
      defaults,
    });
  }
  return specs;
}
