import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../src/main.ts";

/** A copy of the shipped sources file with some permissions changed, for SOURCES_FILE; remove() deletes it. */
export function sourcesFile(change: Record<string, Record<string, boolean>>): { path: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "mds-sources-"));
  const file = JSON.parse(readFileSync(join(PROJECT_ROOT, "config/sources.json"), "utf8"));
  for (const [id, permissions] of Object.entries(change)) {
    const s = file.sources.find((x: { id: string }) => x.id === id);
    if (!s) throw new Error(`no source ${id} in config/sources.json`);
    Object.assign(s.permissions, permissions);
  }
  writeFileSync(join(dir, "sources.json"), JSON.stringify(file));
  return { path: join(dir, "sources.json"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
