/**
 * JSON text written once and reused. A tool result carries its structured content twice, as
 * the object and as the text content (its JSON); the direct answer to a tool call would
 * otherwise serialise that object a second time inside the JSON-RPC response, which measured
 * at about as much again as the whole REST body's serialisation. The text is remembered with
 * the object it was written from, and the response is put together around it.
 *
 * An object remembered here must not change afterwards: its remembered text would then be stale.
 */
const remembered = new WeakMap<object, string>();

/** Records `text` as the JSON of `value` (exactly what JSON.stringify(value) gives). */
export function rememberJson(value: object, text: string): void {
  remembered.set(value, text);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/**
 * JSON.stringify(value), byte for byte, using remembered texts for objects met in the top
 * `depth` levels of plain objects (the JSON-RPC response, its result, the result's members).
 */
export function stringifyWithRemembered(value: unknown, depth = 3): string | undefined {
  if (value !== null && typeof value === "object") {
    const known = remembered.get(value);
    if (known !== undefined) return known;
    if (depth > 0 && isPlainObject(value)) {
      const parts: string[] = [];
      for (const [key, member] of Object.entries(value)) {
        const text = stringifyWithRemembered(member, depth - 1);
        // JSON.stringify leaves out members whose value has no JSON (undefined, functions, symbols).
        if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
      }
      return `{${parts.join(",")}}`;
    }
  }
  return JSON.stringify(value);
}
