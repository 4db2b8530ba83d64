import type { JsonSchema } from "../../operations/response-schema.ts";

/**
 * Tool schemas rewritten into the spelling every major MCP client reads. zod writes JSON
 * Schema 2020-12, which REST's OpenAPI 3.1 document keeps as it is; but clients that map tool
 * schemas onto a single-`type` dialect (Gemini's OpenAPI subset of function declarations, some
 * agent frameworks) reject a tool or drop a constraint at `type: ["string", "null"]`, bare
 * boolean schemas, `const` and tuple keywords. Each rewrite here accepts exactly the same
 * values as the schema it replaces, so results still validate against what is advertised.
 *
 * The rules are those of the MCP Inspector's `--strict` portability check (boolean-schema,
 * type-union, remote-ref, untyped-schema); test/adapters/mcp/schema-portability.test.ts holds
 * every tool to them on every protocol revision.
 */

/** Keywords that only constrain values of one JSON type: in an `anyOf` split they go to that type's branch. */
const KEYWORDS_OF_TYPE: Record<string, readonly string[]> = {
  string: ["minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType", "contentSchema"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  integer: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  array: ["items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains", "unevaluatedItems"],
  object: ["properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties"],
};

const SUBSCHEMA_KEYWORDS = ["items", "contains", "not", "propertyNames", "if", "then", "else", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "contentSchema"];
const SUBSCHEMA_LIST_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SUBSCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "dependentSchemas", "$defs"];

const isRecord = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);
const typeOfValue = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v);
const isEmptySchema = (v: unknown): boolean => isRecord(v) && Object.keys(v).length === 0;

/** The portable spelling of one schema and everything under it; the input is left untouched. */
export function portableSchema(schema: JsonSchema): JsonSchema {
  return rewrite(schema) as JsonSchema;
}

function rewrite(node: unknown): unknown {
  if (!isRecord(node)) return node;
  const out: JsonSchema = { ...node };
  for (const key of SUBSCHEMA_MAP_KEYWORDS) {
    const map = out[key];
    if (isRecord(map)) out[key] = Object.fromEntries(Object.entries(map).map(([name, sub]) => [name, rewrite(sub)]));
  }
  for (const key of SUBSCHEMA_LIST_KEYWORDS) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map(rewrite);
  }
  for (const key of SUBSCHEMA_KEYWORDS) if (key in out) out[key] = rewrite(out[key]);
  closedTuple(out);
  anyValueProperties(out);
  // Every JSON object key is a string: a plain string rule on the names says nothing.
  if (isRecord(out.propertyNames) && Object.keys(out.propertyNames).length === 1 && out.propertyNames.type === "string") delete out.propertyNames;
  // `const` is missing from OpenAPI 3.0 and the dialects built on it; a one-value `enum` says the same.
  if ("const" in out && !("enum" in out)) {
    out.enum = [out.const];
    delete out.const;
  }
  return Array.isArray(out.type) ? typeBranches(out, out.type as string[]) : out;
}

/**
 * A tuple as zod writes it (`prefixItems`, then `items: false` to close it) has a bare `false`
 * where a schema object is expected. With `maxItems` at the tuple's length the `false` says
 * nothing more; and a tuple whose places share one schema (a [longitude, latitude] pair) is
 * that schema as `items` with the length fixed.
 */
function closedTuple(out: JsonSchema): void {
  const places = out.prefixItems;
  if (!Array.isArray(places) || out.items !== false || out.maxItems !== places.length) return;
  delete out.items;
  const first = JSON.stringify(places[0]);
  if (places.length > 0 && places.every((p) => JSON.stringify(p) === first)) {
    out.items = places[0];
    delete out.prefixItems;
  }
}

/** `additionalProperties: {}` (a map of anything) is the default, and `{}` reads as "no type given": left out. */
function anyValueProperties(out: JsonSchema): void {
  if (isEmptySchema(out.additionalProperties)) delete out.additionalProperties;
  if (isEmptySchema(out.unevaluatedProperties)) delete out.unevaluatedProperties;
}

/**
 * `type: [a, b]` as `anyOf` branches with one `type` each. Keywords that constrain one type go
 * to its branch, `enum` values to the branch of their type; annotations (description, default,
 * title, ...) stay on the whole.
 */
function typeBranches(node: JsonSchema, types: string[]): JsonSchema {
  // A schema that already has `anyOf` would need the two combined; zod writes none, so it stays as it is.
  if ("anyOf" in node) return node;
  const { type: _type, enum: values, ...rest } = node;
  let branches: JsonSchema[] = types.map((t) => ({ type: t }));
  const whole: JsonSchema = {};
  for (const [key, value] of Object.entries(rest)) {
    const owners = branches.filter((b) => KEYWORDS_OF_TYPE[b.type as string]?.includes(key));
    if (owners.length === 0) whole[key] = value;
    for (const b of owners) b[key] = value;
  }
  if (Array.isArray(values)) {
    const valuesOf = (t: unknown) => values.filter((v) => typeOfValue(v) === t || (t === "number" && typeof v === "number"));
    // A branch the enumeration leaves no value in matches nothing and goes; `null` needs no enum of its own.
    branches = branches.filter((b) => valuesOf(b.type).length > 0).map((b) => (b.type === "null" ? b : { ...b, enum: valuesOf(b.type) }));
  }
  return branches.length === 1 ? { ...whole, ...branches[0] } : { ...whole, anyOf: branches };
}
