import { companySearch } from "./companies.ts";
import { flagSearch } from "./flags.ts";
import type { SearchSource } from "./hit.ts";
import { portSearch } from "./ports.ts";
import { vesselSearch } from "./vessels.ts";
import { waterwaySearch } from "./waterways.ts";
import { wreckSearch } from "./wrecks.ts";

/**
 * Every kind search finds, in the order hits of one tier are listed. A new kind is a file of
 * its own (a SearchSource) and a line here; its `kind` becomes a value of the `kind` parameter.
 */
export const SEARCH_SOURCES: readonly SearchSource[] = [vesselSearch, portSearch, companySearch, wreckSearch, waterwaySearch, flagSearch];

export const SEARCH_KINDS = SEARCH_SOURCES.map((s) => s.kind) as [string, ...string[]];
