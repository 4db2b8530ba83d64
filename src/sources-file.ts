import { readFileSync } from "node:fs";
import { SourceRegistry, SourcesFileSchema } from "./domain/rights/source.ts";

/** The sources file cannot be used; the message names SOURCES_FILE, the path and every problem, on one line. */
export class SourcesFileError extends Error {
  readonly path: string;
  constructor(path: string, problem: string) {
    super(`SOURCES_FILE: ${JSON.stringify(path)} ${problem}`);
    this.name = "SourcesFileError";
    this.path = path;
  }
}

/** Reads the operator's sources file; a bad file stops the start with every problem named. */
export function loadSources(path: string): SourceRegistry {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new SourcesFileError(path, code === "ENOENT" ? "does not exist; set SOURCES_FILE to a sources JSON file" : `cannot be read (${code ?? String(e)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new SourcesFileError(path, `is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = SourcesFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new SourcesFileError(path, `is invalid: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return new SourceRegistry(parsed.data.sources);
}
