/**
 * The JSON Canonicalization Scheme (RFC 8785, "JCS"), the form a screening receipt is signed
 * in: the same JSON value always gives the same bytes, so a verifier that parses a receipt and
 * canonicalizes it again gets exactly what was signed, whatever whitespace or member order the
 * copy it holds has.
 *
 * - objects: members sorted by their names compared as UTF-16 code units (RFC 8785 3.2.3),
 *   no whitespace;
 * - strings: as ECMAScript's JSON.stringify writes them (RFC 8785 3.2.2.2: `"`, `\` and the
 *   control characters escaped, the short forms \b \t \n \f \r, everything else as itself);
 * - numbers: as ECMAScript's Number.prototype.toString writes them (RFC 8785 3.2.2.3), which
 *   JSON.stringify also uses for a finite number; -0 is written 0;
 * - literals: true, false, null.
 *
 * A value JSON cannot carry exactly (undefined, a function, NaN or an infinity, a string with a
 * lone surrogate, which RFC 8785 3.2.2.2 and I-JSON forbid) is refused rather than written in
 * some form a verifier could not reproduce.
 */

export class NotCanonicalizable extends Error {
  constructor(path: string, why: string) {
    super(`${path || "the value"} cannot be canonicalized: ${why}`);
    this.name = "NotCanonicalizable";
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function canonicalJson(value: unknown): string {
  return write(value, "");
}

/** The canonical form as the bytes that are signed: UTF-8 (RFC 8785 3.2.4). */
export function canonicalBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalJson(value));
}

function write(value: unknown, path: string): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw new NotCanonicalizable(path, `${value} is not a JSON number`);
      // Object.is(-0, 0) is false, but both are written "0" (JSON.stringify does the same).
      return JSON.stringify(value);
    case "string":
      if (LONE_SURROGATE.test(value)) throw new NotCanonicalizable(path, "a string holds a lone surrogate");
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map((v, i) => write(v, `${path}[${i}]`)).join(",")}]`;
      // A Date, Map or class instance has no one JSON form of its own: only plain objects are members.
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw new NotCanonicalizable(path, "only plain objects, arrays, strings, numbers, booleans and null are JSON values");
      const entries = Object.entries(value as Record<string, unknown>);
      // Default string order is by UTF-16 code units, as RFC 8785 asks (not by code point or locale).
      entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${write(k, path)}:${write(v, `${path}.${k}`)}`).join(",")}}`;
    }
    default:
      throw new NotCanonicalizable(path, `a ${typeof value} is not a JSON value`);
  }
}
