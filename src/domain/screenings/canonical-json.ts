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
 * An object member whose value is `undefined` is left out, as JSON.stringify leaves it out, so
 * the canonical form of an answer is that of the JSON the caller was sent. Any other value JSON
 * cannot carry exactly (undefined in an array, a function, NaN or an infinity, a string with a
 * lone surrogate, which RFC 8785 3.2.2.2 and I-JSON forbid) is refused rather than written in
 * some form a verifier could not reproduce.
 */

export class NotCanonicalizable extends Error {
  /** Where in the value, e.g. `.answer.data[3].name`; built on the way out, so the walk itself makes no paths. */
  path = "";
  readonly why: string;
  constructor(why: string) {
    super(`the value cannot be canonicalized: ${why}`);
    this.name = "NotCanonicalizable";
    this.why = why;
  }

  within(segment: string): this {
    this.path = `${segment}${this.path}`;
    this.message = `${this.path} cannot be canonicalized: ${this.why}`;
    return this;
  }
}

export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  return out.join("");
}

/** Appends the canonical text of `value` to `out` (one join at the end: a receipt holds thousands of values). */
function write(value: unknown, out: string[]): void {
  if (value === null) {
    out.push("null");
    return;
  }
  switch (typeof value) {
    case "boolean":
      out.push(value ? "true" : "false");
      return;
    case "number":
      if (!Number.isFinite(value)) throw new NotCanonicalizable(`${value} is not a JSON number`);
      // ECMAScript's Number-to-String, which JSON.stringify uses too; -0 is written "0".
      out.push(String(value));
      return;
    case "string":
      out.push(quoted(value));
      return;
    case "object": {
      if (Array.isArray(value)) {
        out.push("[");
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out.push(",");
          try {
            write(value[i], out);
          } catch (e) {
            throw e instanceof NotCanonicalizable ? e.within(`[${i}]`) : e;
          }
        }
        out.push("]");
        return;
      }
      // A Date, Map or class instance has no one JSON form of its own: only plain objects are members.
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw new NotCanonicalizable("only plain objects, arrays, strings, numbers, booleans and null are JSON values");
      // The default sort compares UTF-16 code units, as RFC 8785 asks (not code points, not a locale).
      const names = Object.keys(value).sort();
      out.push("{");
      let first = true;
      for (const name of names) {
        const member = (value as Record<string, unknown>)[name];
        if (member === undefined) continue;
        if (!first) out.push(",");
        first = false;
        try {
          out.push(quoted(name), ":");
          write(member, out);
        } catch (e) {
          throw e instanceof NotCanonicalizable ? e.within(`.${name}`) : e;
        }
      }
      out.push("}");
      return;
    }
    default:
      throw new NotCanonicalizable(`a ${typeof value} is not a JSON value`);
  }
}

function quoted(text: string): string {
  if (!text.isWellFormed()) throw new NotCanonicalizable("a string holds a lone surrogate");
  return JSON.stringify(text);
}
