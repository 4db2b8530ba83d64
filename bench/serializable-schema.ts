import type { JsonSchema } from "../src/operations/response-schema.ts";

/**
 * An operation's output JSON Schema rewritten for fast-json-stringify so that its compiled
 * serializer writes exactly what `JSON.stringify` would, or throws (and the caller falls back
 * to `JSON.stringify`). fast-json-stringify trusts its schema: it coerces a value of another
 * type (a number where a string is declared becomes "5", a fraction where an integer is
 * declared is truncated), writes "" for a null string, and drops properties the schema does not
 * declare. So every node is rewritten to:
 * - a list of types that always includes "null", whose generated code checks the value's type
 *   and throws on a value of any other type, instead of coercing it (guarded(): a string slot
 *   checks for the other JSON types first, since fast-json-stringify's string check lets
 *   arrays through);
 * - "number" for "integer" (an integer is written the same way; a fraction is not truncated);
 * - objects without `required` (a missing property is left out, as JSON.stringify leaves out
 *   `undefined`, rather than failing the call) and with `additionalProperties: true` where the
 *   schema had none or false, so an undeclared property is written (by JSON.stringify) rather
 *   than lost;
 * - validation-only keywords (enum, const, bounds, formats, descriptions) removed: they do not
 *   change how a valid value is written, and `format` would reformat dates;
 * - `{}` (the value written by JSON.stringify) for what fast-json-stringify would check by
 *   running a validator per call (a union of several non-null shapes) or cannot express
 *   (tuples), and for a schema without a type.
 * A union of one shape and null (zod's nullable) becomes that shape with "null" in its types,
 * which costs a type check instead of a validator run.
 */
export function serializableSchema(schema: JsonSchema): JsonSchema {
  return rewrite(schema);
}

const SCALARS = new Set(["string", "number", "integer", "boolean", "null"]);

function rewrite(node: unknown): JsonSchema {
  if (node === true || node === undefined || node === null || typeof node !== "object") return {};
  const s = node as JsonSchema;
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) return union((s.anyOf ?? s.oneOf) as JsonSchema[]);
  if (s.allOf !== undefined || s.prefixItems !== undefined || s.$ref !== undefined || s.not !== undefined || s.if !== undefined || s.patternProperties !== undefined) return {};
  const types = typesOf(s);
  if (types === null) return {};
  const out: JsonSchema = { type: guarded(types) };
  if (types.includes("object")) {
    const properties: Record<string, JsonSchema> = {};
    for (const [name, sub] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) properties[name] = rewrite(sub);
    out.properties = properties;
    const extra = s.additionalProperties;
    // An undeclared property is written, never dropped; one declared by a schema is written by that schema.
    out.additionalProperties = extra === undefined || extra === false || extra === true ? true : rewrite(extra);
  }
  if (types.includes("array")) out.items = s.items === undefined || Array.isArray(s.items) ? {} : rewrite(s.items);
  else if (types.includes("string")) out.items = {};
  return out;
}

/**
 * The types a node's generated code checks, in order. A "string" check also passes arrays and
 * objects with a toString of their own, and would write `[1]` as "1": so a string slot first
 * checks for a boolean, a number and an array, each written as JSON.stringify writes it (an
 * array by JSON.stringify of each element), and only then for a string.
 */
function guarded(types: string[]): string[] {
  const all = withNull(types);
  if (!all.includes("string")) return all;
  const before = ["boolean", "number", "array"].filter((t) => !all.includes(t));
  return ["null", ...all.filter((t) => t !== "null" && t !== "string"), ...before, "string"];
}

/** The declared types, "integer" as "number"; null when there is no usable `type`. */
function typesOf(s: JsonSchema): string[] | null {
  const declared = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : null;
  if (declared === null || declared.length === 0) return null;
  // Both an object and an array in one node would need both shapes; leave such a node to JSON.stringify.
  if (declared.includes("object") && declared.includes("array")) return null;
  return [...new Set(declared.map((t) => (t === "integer" ? "number" : t)))];
}

function withNull(types: string[]): string[] {
  return types.includes("null") ? types : ["null", ...types];
}

/** zod's nullable (one shape or null) keeps its shape; scalars only keep their types; anything else is left to JSON.stringify. */
function union(branches: JsonSchema[]): JsonSchema {
  const nonNull = branches.filter((b) => !(b.type === "null" && Object.keys(b).length === 1));
  if (nonNull.length === 1) {
    const one = rewrite(nonNull[0]);
    return one.type === undefined ? {} : { ...one, type: guarded(one.type as string[]) };
  }
  const types = nonNull.map((b) => (Object.keys(b).every((k) => k === "type" || k === "enum" || k === "const" || k === "description" || k === "minimum" || k === "maximum") ? typesOf(b) : null));
  if (types.every((t) => t !== null && t.every((x) => SCALARS.has(x)))) return rewrite({ type: [...new Set(types.flat() as string[])] });
  return {};
}
