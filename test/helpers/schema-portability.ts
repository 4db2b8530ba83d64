/**
 * The MCP Inspector's schema portability rules (`inspector --cli --method tools/list --strict`,
 * @modelcontextprotocol/inspector 2.12.0, core/json/schemaLint.ts), restated so a test can
 * apply them to every tool without starting the Inspector. The Inspector only fails (exit 6)
 * on errors and prints warnings; here every finding counts, because a warning there is a
 * schema a single-`type` client dialect (Gemini's OpenAPI subset, some agent frameworks)
 * rejects or weakens.
 *
 * - boolean-schema (error): a bare `true` / `false` where a schema object is expected
 *   (allowed only as the value of additionalProperties, unevaluatedProperties,
 *   additionalItems, unevaluatedItems).
 * - type-union (warning): `type` given as an array.
 * - remote-ref (warning): a `$ref` that does not start with `#` (no `$id` in the document).
 * - untyped-schema (warning): a schema object with no validation keyword, outside `not`.
 */

export interface PortabilityFinding {
  rule: "boolean-schema" | "type-union" | "remote-ref" | "untyped-schema";
  severity: "error" | "warning";
  path: string;
}

const BOOLEAN_VALUED_KEYWORDS = new Set(["additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems"]);
const SUBSCHEMA_KEYWORDS = ["items", "contains", "not", "propertyNames", "if", "then", "else", "additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems", "contentSchema"];
const SUBSCHEMA_ARRAY_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SUBSCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions"];
const CONSTRAINING_KEYWORDS = new Set([
  ...["type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "format"],
  ...["contentMediaType", "contentEncoding", "contentSchema", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties"],
  ...["required", "dependentRequired", "allOf", "anyOf", "oneOf", "not", "items", "prefixItems", "contains", "additionalItems", "unevaluatedItems", "properties"],
  ...["patternProperties", "additionalProperties", "unevaluatedProperties", "propertyNames", "dependentSchemas", "dependencies", "$ref", "$dynamicRef", "$recursiveRef"],
]);
const JSON_SCHEMA_TYPES = new Set(["null", "boolean", "object", "array", "number", "string", "integer"]);
const MAX_DEPTH = 64;

type Node = Record<string, unknown>;
const isRecord = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

function declaresAnyId(node: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH || !isRecord(node)) return false;
  if (typeof node.$id === "string" && node.$id !== "") return true;
  let found = false;
  forEachSubschema(node, "", (child) => {
    if (!found) found = declaresAnyId(child, depth + 1);
  });
  return found;
}

function forEachSubschema(node: Node, path: string, visit: (child: unknown, path: string, keyword: string) => void): void {
  for (const key of SUBSCHEMA_MAP_KEYWORDS) {
    const map = node[key];
    if (isRecord(map)) for (const [name, sub] of Object.entries(map)) visit(sub, `${path}.${key}.${name}`, key);
  }
  for (const key of SUBSCHEMA_ARRAY_KEYWORDS) {
    const arr = node[key];
    if (Array.isArray(arr)) arr.forEach((sub, i) => visit(sub, `${path}.${key}[${i}]`, key));
  }
  for (const key of SUBSCHEMA_KEYWORDS) {
    if (!(key in node)) continue;
    const value = node[key];
    if (key === "items" && Array.isArray(value)) value.forEach((sub, i) => visit(sub, `${path}.${key}[${i}]`, key));
    else visit(value, `${path}.${key}`, key);
  }
}

function constrainsInstance(node: Node): boolean {
  return Object.keys(node).some((k) => CONSTRAINING_KEYWORDS.has(k)) || ("if" in node && ("then" in node || "else" in node));
}

function walk(node: unknown, path: string, keyword: string | undefined, depth: number, hasIds: boolean, out: PortabilityFinding[]): void {
  if (depth > MAX_DEPTH) return;
  if (typeof node === "boolean") {
    if (keyword === undefined || !BOOLEAN_VALUED_KEYWORDS.has(keyword)) out.push({ rule: "boolean-schema", severity: "error", path });
    return;
  }
  if (!isRecord(node)) return;
  const type = node.type;
  if (Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === "string" && JSON_SCHEMA_TYPES.has(t)) && new Set(type).size === type.length) {
    out.push({ rule: "type-union", severity: "warning", path });
  }
  if (typeof node.$ref === "string" && node.$ref !== "" && !node.$ref.startsWith("#") && !hasIds) out.push({ rule: "remote-ref", severity: "warning", path });
  if (!constrainsInstance(node) && keyword !== "not") out.push({ rule: "untyped-schema", severity: "warning", path });
  forEachSubschema(node, path, (child, childPath, childKeyword) => walk(child, childPath, childKeyword, depth + 1, hasIds, out));
}

/** Every finding of the Inspector's rules in one schema; `at` names the schema in the paths. */
export function portabilityFindings(schema: unknown, at: string): PortabilityFinding[] {
  const out: PortabilityFinding[] = [];
  walk(schema, at, undefined, 0, declaresAnyId(schema), out);
  return out;
}
