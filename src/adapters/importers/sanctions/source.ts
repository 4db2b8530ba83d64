/**
 * Gathers the files of a sanctions publication from what an operator names on
 * the command line: files, a directory holding them, or URLs of the official
 * files (several may be given, e.g. OFAC's SDN.CSV, ALT.CSV and SDN_COMMENTS.CSV).
 */
import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { readSource } from "../read-source.ts";
import type { SourceFile } from "./common.ts";
import { type DownloadProgress, downloadPublication } from "./download.ts";

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

/** Reads each path or URL; a directory contributes every publication file directly in it. */
export async function readSanctionsSources(pathsOrUrls: string | readonly string[], options: ReadSourcesOptions = {}): Promise<SourceFile[]> {
  const items = typeof pathsOrUrls === "string" ? [pathsOrUrls] : [...pathsOrUrls];
  if (items.length === 0) throw new Error("no sanctions source given: pass a file, a directory or a URL");
  const files: SourceFile[] = [];
  for (const item of items) {
    if (/^https?:\/\//i.test(item)) {
      const name = nameOfUrl(item);
      files.push({ name, bytes: await downloadPublication(item, { timeoutMs: options.timeoutMs, onProgress: options.progressFor?.(name, item) }) });
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
        if ((await stat(path)).isFile()) files.push({ name: name.replace(/\.gz$/i, ""), bytes: await readSource(path) });
      }
    } else {
      files.push({ name: basename(item).replace(/\.gz$/i, ""), bytes: await readSource(item) });
    }
  }
  return files;
}
