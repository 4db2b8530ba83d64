import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../src/main.ts";

/** A source entry as the sources file holds it. */
export interface SourceEntry {
  id: string;
  permissions: { api: boolean; redistribution: boolean; commercial: boolean };
  [field: string]: unknown;
}

/** A copy of the shipped sources file, changed by `edit`, in a directory of its own; returns its path (for SOURCES_FILE). */
export function writeSourcesFile(edit: (sources: SourceEntry[]) => void, dir = mkdtempSync(join(tmpdir(), "mds-sources-"))): string {
  const file = JSON.parse(readFileSync(join(PROJECT_ROOT, "config/sources.json"), "utf8")) as { sources: SourceEntry[] };
  edit(file.sources);
  const path = join(dir, "sources.json");
  writeFileSync(path, JSON.stringify(file));
  return path;
}

/** An operator's own source entry, cleared for the API or not. */
export function ownSource(id: string, api: boolean): SourceEntry {
  return { id, name: id, attribution: `${id} attribution`, license: "the operator's own", permissions: { api, redistribution: false, commercial: true } };
}

/** A copy of the shipped sources file with some permissions changed, for SOURCES_FILE; remove() deletes it. */
export function sourcesFile(change: Record<string, Record<string, boolean>>): { path: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "mds-sources-"));
  const path = writeSourcesFile((sources) => {
    for (const [id, permissions] of Object.entries(change)) {
      const s = sources.find((x) => x.id === id);
      if (!s) throw new Error(`no source ${id} in config/sources.json`);
      Object.assign(s.permissions, permissions);
    }
  }, dir);
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
