import { readFileSync } from "node:fs";
import { SourceRegistry, SourcesFileSchema } from "./domain/rights/source.ts";

/** Reads the operator's sources file; a bad file stops the start with every problem named. */
export function loadSources(path: string): SourceRegistry {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new Error(`sources file ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = SourcesFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`sources file ${path} is invalid:\n${parsed.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`).join("\n")}`);
  }
  return new SourceRegistry(parsed.data.sources);
}
