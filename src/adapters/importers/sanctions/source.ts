/**
 * Gathers the files of a sanctions publication from what an operator names on
 * the command line: files, a directory holding them, or URLs of the official
 * files (several may be given, e.g. OFAC's SDN.CSV, ALT.CSV and SDN_COMMENTS.CSV).
 */
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { readSource } from "../read-source.ts";
import { diskFile, type SourceFile } from "./common.ts";
import { type DownloadProgress, downloadToFile } from "./download.ts";

export interface ReadSourcesOptions {
  /** Deadline of each download (default 300 s). */
  timeoutMs?: number;
  /** Progress of each URL's download, e.g. a bar on a terminal. */
  progressFor?: (name: string, url: string) => DownloadProgress | undefined;
}

/** Extensions of publication files taken from a directory; notes and provenance files are skipped. */
const PUBLICATION_FILE = /\.(csv|xml|xlsx|zip)(\.gz)?$/i;

function nameOfUrl(url: string): string {
  try {
    const path = new URL(url).pathname;
    const last = decodeURIComponent(path.split("/").filter((p) => p !== "").pop() ?? "");
    return last === "" ? url : last;
  } catch {
    return url;
  }
}

/** A local file as a publication file: left on disk (read as a stream or on demand), unless gzipped. */
async function localFile(name: string, path: string): Promise<SourceFile> {
  return /\.gz$/i.test(path) ? { name: name.replace(/\.gz$/i, ""), bytes: await readSource(path) } : diskFile(name, path);
}

/**
 * Reads each path or URL and hands the files to `use`; a directory contributes every
 * publication file directly in it. URLs are downloaded to a temporary directory, removed
 * when `use` is done: files stay on disk, so a large publication is never held in memory.
 */
export async function withSanctionsSources<T>(pathsOrUrls: string | readonly string[], options: ReadSourcesOptions, use: (files: SourceFile[]) => Promise<T>): Promise<T> {
  const items = typeof pathsOrUrls === "string" ? [pathsOrUrls] : [...pathsOrUrls];
  if (items.length === 0) throw new Error("no sanctions source given: pass a file, a directory or a URL");
  let downloads: string | null = null;
  try {
    const files = await readItems(items, options, async () => (downloads ??= await mkdtemp(join(tmpdir(), "mds-sanctions-"))));
    return await use(files);
  } finally {
    if (downloads !== null) await rm(downloads, { recursive: true, force: true });
  }
}

async function readItems(items: string[], options: ReadSourcesOptions, downloadDir: () => Promise<string>): Promise<SourceFile[]> {
  const files: SourceFile[] = [];
  for (const [i, item] of items.entries()) {
    if (/^https?:\/\//i.test(item)) {
      const name = nameOfUrl(item);
      const path = join(await downloadDir(), `${i}-${name.replace(/[^\w.-]/g, "_")}`);
      await downloadToFile(item, path, { timeoutMs: options.timeoutMs, onProgress: options.progressFor?.(name, item) });
      files.push(diskFile(name, path));
      continue;
    }
    const info = await stat(item).catch((error: NodeJS.ErrnoException) => {
      throw new Error(`sanctions source ${item} cannot be read: ${error.code === "ENOENT" ? "no such file or directory" : error.message}`);
    });
    if (info.isDirectory()) {
      const names = (await readdir(item)).filter((n) => !n.startsWith(".") && PUBLICATION_FILE.test(n)).sort();
      if (names.length === 0) throw new Error(`directory ${item} holds no .csv, .xml, .xlsx or .zip file`);
      for (const name of names) {
        const path = join(item, name);
        if ((await stat(path)).isFile()) files.push(await localFile(name, path));
      }
    } else {
      files.push(await localFile(basename(item), item));
    }
  }
  return files;
}
