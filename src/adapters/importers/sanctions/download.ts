/**
 * Downloads one file of a sanctions publication with a deadline and progress. The official
 * servers are slow and large (OFAC's advanced XML is over 100 MB), so a stalled connection
 * must end in a clear error instead of holding the refresh forever, and a terminal shows
 * how far it got.
 */
import { gunzipSync } from "node:zlib";

/** Bytes received so far and the size the server announced (null: not announced). */
export type DownloadProgress = (received: number, total: number | null) => void;

export interface DownloadOptions {
  /** The whole download, headers to last byte, must finish within this (default 300 s). */
  timeoutMs?: number;
  onProgress?: DownloadProgress;
}

export const DEFAULT_DOWNLOAD_TIMEOUT_MS = 300_000;

/** Fetches an http(s) URL into memory; gunzips a gzip body. Throws one clear line on HTTP errors and timeouts. */
export async function downloadPublication(url: string, options: DownloadOptions = {}): Promise<Buffer> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const chunks: Buffer[] = [];
  try {
    const res = await fetch(url, { redirect: "follow", signal });
    if (!res.ok) throw new Error(`download of ${url} failed: HTTP ${res.status}`);
    const announced = Number(res.headers.get("content-length"));
    const total = Number.isFinite(announced) && announced > 0 ? announced : null;
    let received = 0;
    options.onProgress?.(0, total);
    if (res.body) {
      for await (const chunk of res.body) {
        const b = Buffer.from(chunk as Uint8Array);
        chunks.push(b);
        received += b.length;
        options.onProgress?.(received, total);
      }
    }
  } catch (e) {
    if (signal.aborted) {
      const limit = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s (SANCTIONS_FETCH_TIMEOUT_SECONDS)`;
      throw new Error(`download of ${url} timed out after ${limit}`, { cause: e });
    }
    if (e instanceof Error && e.message.startsWith("download of ")) throw e;
    const reason = e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : String(e);
    throw new Error(`download of ${url} failed: ${reason}`, { cause: e });
  }
  const bytes = Buffer.concat(chunks);
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
}
