import type { JsonSchema } from "../../operations/response-schema.ts";

/**
 * A made-up value of a JSON Schema's shape, for the API reference's example answers: every
 * field present with a value of its type (the schema's own example, default or first enum
 * value where it has one), lists with one element. It shows the shape, not real data.
 */
const MAX_DEPTH = 8;

export function exampleOf(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > MAX_DEPTH) return null;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      const first = (options as JsonSchema[]).find((o) => o.type !== "null") ?? (options[0] as JsonSchema);
      return exampleOf(first, depth + 1);
    }
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== "null") : (schema.type as string | undefined);
  switch (type) {
    case "object": {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props)) out[k] = exampleOf(v, depth + 1);
      if (Object.keys(props).length === 0 && schema.additionalProperties && typeof schema.additionalProperties === "object") out.key = exampleOf(schema.additionalProperties as JsonSchema, depth + 1);
      return out;
    }
    case "array":
      if (Array.isArray(schema.prefixItems)) return (schema.prefixItems as JsonSchema[]).map((p) => exampleOf(p, depth + 1));
      return schema.items ? [exampleOf(schema.items as JsonSchema, depth + 1)] : [];
    case "integer":
    case "number":
      // Not the lowest safe integer zod gives every int: 0, or the schema's positive minimum.
      return typeof schema.minimum === "number" && schema.minimum > 0 ? schema.minimum : 0;
    case "boolean":
      return false;
    case "string":
      if (schema.format === "date-time") return "2026-01-01T00:00:00.000Z";
      if (schema.format === "date") return "2026-01-01";
      if (schema.format === "uri") return "https://example.org/";
      return "string";
    default:
      return null;
  }
}

/** The bounds a schema sets, in words: "1 to 100", "at most 100 characters", "one of a, b". */
export function boundsOf(schema: JsonSchema): string {
  const parts: string[] = [];
  const s = schema.anyOf ? ((schema.anyOf as JsonSchema[]).find((o) => o.type !== "null") ?? schema) : schema;
  if (Array.isArray(s.enum)) parts.push(`one of ${(s.enum as unknown[]).map(String).join(", ")}`);
  const min = s.minimum ?? s.exclusiveMinimum;
  const max = s.maximum ?? s.exclusiveMaximum;
  if (typeof min === "number" && typeof max === "number") parts.push(`${min} to ${max}`);
  else if (typeof min === "number") parts.push(`at least ${min}`);
  else if (typeof max === "number") parts.push(`at most ${max}`);
  if (typeof s.minLength === "number" && typeof s.maxLength === "number") parts.push(`${s.minLength} to ${s.maxLength} characters`);
  else if (typeof s.maxLength === "number") parts.push(`at most ${s.maxLength} characters`);
  if (typeof s.maxItems === "number") parts.push(`at most ${s.maxItems} items`);
  if (typeof s.pattern === "string") parts.push(`matches ${s.pattern}`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join("; ");
}

/** The type a schema names, for a parameter table: "integer", "string", "array of string". */
export function typeOf(schema: JsonSchema): string {
  const s = schema.anyOf ? ((schema.anyOf as JsonSchema[]).find((o) => o.type !== "null") ?? schema) : schema;
  const t = Array.isArray(s.type) ? (s.type as string[]).filter((x) => x !== "null").join(" or ") : (s.type as string | undefined);
  if (t === "array" && s.items) return `array of ${typeOf(s.items as JsonSchema)}`;
  return t ?? "any";
}
