/**
 * Downloads one file of a sanctions publication with a deadline and progress. The official
 * servers are slow and large (OFAC's advanced XML is over 100 MB), so a stalled connection
 * must end in a clear error instead of holding the refresh forever, and a terminal shows
 * how far it got.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";

/** Bytes received so far and the size the server announced (null: not announced). */
export type DownloadProgress = (received: number, total: number | null) => void;

export interface DownloadOptions {
  /** The whole download, headers to last byte, must finish within this (default 300 s). */
  timeoutMs?: number;
  onProgress?: DownloadProgress;
}

export const DEFAULT_DOWNLOAD_TIMEOUT_MS = 300_000;

/** Streams the body of an http(s) URL to a sink, with the deadline and progress; throws one clear line on HTTP errors and timeouts. */
async function download(url: string, options: DownloadOptions, sink: (body: AsyncIterable<Buffer>) => Promise<void>): Promise<void> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url, { redirect: "follow", signal });
    if (!res.ok) throw new Error(`download of ${url} failed: HTTP ${res.status}`);
    const announced = Number(res.headers.get("content-length"));
    const total = Number.isFinite(announced) && announced > 0 ? announced : null;
    options.onProgress?.(0, total);
    async function* counted(): AsyncIterable<Buffer> {
      let received = 0;
      if (!res.body) return;
      for await (const chunk of res.body) {
        const b = Buffer.from(chunk as Uint8Array);
        received += b.length;
        options.onProgress?.(received, total);
        yield b;
      }
    }
    await sink(counted());
  } catch (e) {
    if (signal.aborted) {
      const limit = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s (SANCTIONS_FETCH_TIMEOUT_SECONDS)`;
      throw new Error(`download of ${url} timed out after ${limit}`, { cause: e });
    }
    if (e instanceof Error && e.message.startsWith("download of ")) throw e;
    const reason = e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : String(e);
    throw new Error(`download of ${url} failed: ${reason}`, { cause: e });
  }
}

const isGzip = (head: Buffer) => head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;

/**
 * Streams an http(s) URL to a file, never holding it in memory (OFAC's advanced XML is over
 * 100 MB); a gzip body is unpacked to the file as a stream too.
 */
export async function downloadToFile(url: string, path: string, options: DownloadOptions = {}): Promise<void> {
  const raw = `${path}.part`;
  try {
    await download(url, options, (body) => pipeline(Readable.from(body), createWriteStream(raw)));
    const fd = await open(raw, "r");
    const head = Buffer.alloc(2);
    await fd.read(head, 0, 2, 0);
    await fd.close();
    if (isGzip(head)) await pipeline(createReadStream(raw), createGunzip(), createWriteStream(path));
    else await rename(raw, path);
  } finally {
    await rm(raw, { force: true });
  }
}
