/**
 * Entry point of the sanctions importers: one call per list, whatever the
 * publication format (detected from content), from bytes or from paths/URLs.
 */
import { type Designation, isSanctionsListKey, SANCTIONS_LISTS, type SanctionsListKey } from "../../../domain/sanctions/designation.ts";
import { CANADA_XML_URL, parseCanada } from "./canada.ts";
import { detectFormat, type ParseOptions, type SanctionsFormat, type SanctionsInput } from "./common.ts";
import { type EuParseOptions, parseEu } from "./eu.ts";
import { NZ_REGISTER_URL, parseNewZealand } from "./new-zealand.ts";
import { OFAC_OFFICIAL_URLS, parseOfac, parseOfacCompanies } from "./ofac.ts";
import type { ListedCompany } from "../../../domain/companies/from-sanctions.ts";
import { withSanctionsSources } from "./source.ts";
import { parseUk, UK_XML_URL } from "./uk.ts";

export type { SanctionsFormat, SanctionsInput, SourceFile, ParseOptions } from "./common.ts";
export { detectFormat } from "./common.ts";
export { withSanctionsSources } from "./source.ts";
export { parseCanada, parseEu, parseNewZealand, parseOfac, parseUk };

export type SanctionsParseOptions = ParseOptions & EuParseOptions;

/**
 * Official publication URLs an import can default to. The EU has no official
 * machine-readable vessel list (see eu.ts), so it has no default.
 */
export const OFFICIAL_SANCTIONS_SOURCES: Record<SanctionsListKey, readonly string[]> = {
  ofac: OFAC_OFFICIAL_URLS,
  uk: [UK_XML_URL],
  eu: [],
  canada: [CANADA_XML_URL],
  "new-zealand": [NZ_REGISTER_URL],
};

/** Detects the format of one publication file by its content. */
export function detectSanctionsFormat(bytes: Uint8Array): SanctionsFormat {
  return detectFormat(bytes);
}

/** Parses one list's publication (bytes or named files) into vessel designations. */
export async function parseSanctionsList(list: SanctionsListKey, input: SanctionsInput, options: SanctionsParseOptions = {}): Promise<Designation[]> {
  switch (list) {
    case "ofac":
      return parseOfac(input, options);
    case "uk":
      return parseUk(input, options);
    case "eu":
      return parseEu(input, options);
    case "canada":
      return parseCanada(input, options);
    case "new-zealand":
      return parseNewZealand(input, options);
    default:
      throw new Error(`unknown sanctions list ${String(list)}; expected one of ${SANCTIONS_LISTS.join(", ")}`);
  }
}

/** The companies a list's publication designates (OFAC's entities); the other lists' files are read for ships only. */
export async function parseListedCompanies(list: SanctionsListKey, input: SanctionsInput): Promise<{ companies: ListedCompany[]; people: Set<string> }> {
  return list === "ofac" ? parseOfacCompanies(input) : { companies: [], people: new Set() };
}

/**
 * Reads files, directories or URLs (see withSanctionsSources) and parses them as
 * the given list: what `mds import sanctions <list> <dir-or-file-or-url...>` needs.
 */
export async function importSanctionsList(list: string, pathsOrUrls: string | readonly string[], options: SanctionsParseOptions = {}): Promise<Designation[]> {
  if (!isSanctionsListKey(list)) throw new Error(`unknown sanctions list "${list}"; expected one of ${SANCTIONS_LISTS.join(", ")}`);
  return withSanctionsSources(pathsOrUrls, {}, (files) => parseSanctionsList(list, files, options));
}
