import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";

/**
 * Reads an importer's input: a local file (gunzipped when it ends in .gz) or an
 * http(s) URL of the official publication. Returns the bytes; parsers decide the text encoding.
 */
export async function readSource(pathOrUrl: string): Promise<Buffer> {
  let bytes: Buffer;
  if (/^https?:\/\//i.test(pathOrUrl)) {
    const res = await fetch(pathOrUrl, { redirect: "follow", signal: AbortSignal.timeout(120_000) });
    if (!res.ok) throw new Error(`download of ${pathOrUrl} failed: HTTP ${res.status}`);
    bytes = Buffer.from(await res.arrayBuffer());
  } else {
    bytes = await readFile(pathOrUrl);
  }
  const gzipped = bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  return gzipped ? gunzipSync(bytes) : bytes;
}

/** UTF-8 text without a byte-order mark. */
export function utf8(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
