import type { SourceRegistry } from "../../domain/rights/source.ts";
import { SANCTIONS_LISTS } from "../../domain/sanctions/designation.ts";

/** Sources whose rows the service builds itself: an operator's import must not replace them. */
const BUILT_IN = new Set<string>(["marad", "station", ...SANCTIONS_LISTS]);

/** The source named for an operator's import cannot carry it; the message names the fix. */
export class OperatorSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OperatorSourceError";
  }
}

/**
 * The source an operator's own import (companies, inspections) is filed under. Its rights
 * are those of any source: it must be described in the sources file, so the rights filter
 * can judge every fact of it; an unknown source is refused before anything is read.
 */
export function checkOperatorSource(registry: SourceRegistry, id: string | undefined, what: string): string {
  if (id === undefined || id.trim() === "") throw new OperatorSourceError(`${what}: --source <id> is required: the source (in the sources file) whose rights cover the rows`);
  if (!/^[a-z0-9][a-z0-9_-]{0,39}$/.test(id)) throw new OperatorSourceError(`${what}: --source ${JSON.stringify(id.slice(0, 60))}: use 1 to 40 of a-z, 0-9, _ and -, starting with a letter or digit`);
  if (BUILT_IN.has(id)) throw new OperatorSourceError(`${what}: --source ${id} is built by the service from its own dataset; file your rows under a source of your own`);
  if (!registry.get(id)) throw new OperatorSourceError(`${what}: --source ${id} is not in the sources file; add it there (name, attribution, licence, permissions) first, so its rights are known`);
  return id;
}
