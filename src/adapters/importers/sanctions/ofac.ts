/**
 * OFAC SDN list -> vessel designations.
 *
 * Accepts any combination of OFAC's own files, recognised by content:
 * - SDN.CSV (12 columns, no header) with ALT.CSV (5), ADD.CSV (6) and
 *   SDN_COMMENTS.CSV (2: the remarks beyond 1000 characters, which can hold the IMO/MMSI);
 * - SDN.XML (legacy `<sdnList>`);
 * - SDN_ADVANCED.XML (`<Sanctions>`, the only classic file with designation dates);
 * - SDN_ENHANCED.XML (`<sanctionsData>`, dates in sanctionsList/@datePublished).
 * With the CSV present it is the base and an advanced/enhanced XML only adds the dates;
 * otherwise the richest XML supplied is the base.
 */
import { type Designation, SanctionsParseError } from "../../../domain/sanctions/designation.ts";
import {
  decodeText,
  describeFormat,
  detectFormat,
  type ParseOptions,
  parseCsvRows,
  parseXml,
  type SanctionsInput,
  type SourceFile,
  toSourceFiles,
} from "./common.ts";
import { advancedListingDates, fromAdvancedXml } from "./ofac/advanced-xml.ts";
import { enhancedListingDates, fromEnhancedXml } from "./ofac/enhanced-xml.ts";
import { fromLegacyXml } from "./ofac/legacy-xml.ts";
import { fromSdnCsv } from "./ofac/sdn-csv.ts";
import { listedCompaniesFromSdnCsv, listedPeopleFromSdnCsv } from "./ofac/companies.ts";
import type { ListedCompany } from "../../../domain/companies/from-sanctions.ts";
import { type Classified, LIST, type ListingDate, type OfacFileKind } from "./ofac/shared.ts";

export { parseOfacRemarks, splitOfacPrograms } from "./ofac/sdn-csv.ts";
export { OFAC_DETAILS_URL } from "./ofac/shared.ts";

/** The SLS export files a full OFAC import wants (the advanced XML is large and optional). */
export const OFAC_OFFICIAL_URLS = [
  "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.CSV",
  "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ALT.CSV",
  "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN_COMMENTS.CSV",
] as const;

const CSV_KIND_BY_COLUMNS: Record<number, OfacFileKind> = { 12: "sdn-csv", 5: "alt-csv", 6: "add-csv", 2: "comments-csv" };

function classify(file: SourceFile): Classified {
  const format = detectFormat(file.bytes);
  if (format === "csv") {
    const rows = parseCsvRows(LIST, file, decodeText(LIST, file)).filter((r) => !(r.length === 1 && (r[0] ?? "").trim() === ""));
    if (rows.length === 0) throw new SanctionsParseError(LIST, `${file.name} has no CSV records`);
    const width = rows[0]!.length;
    const kind = CSV_KIND_BY_COLUMNS[width];
    if (kind === undefined) {
      throw new SanctionsParseError(
        LIST,
        `${file.name} has ${width} columns; OFAC's SDN.CSV has 12, ALT.CSV 5, ADD.CSV 6, SDN_COMMENTS.CSV 2 (no header row)`,
      );
    }
    rows.forEach((row, i) => {
      if (row.length !== width) {
        throw new SanctionsParseError(LIST, `${file.name} record ${i + 1} has ${row.length} columns, expected ${width}; the file may be truncated`);
      }
    });
    if (!/^\d+$/.test((rows[0]![0] ?? "").trim())) {
      throw new SanctionsParseError(LIST, `${file.name} does not start with an OFAC entity number (ent_num); it is not an OFAC list file`);
    }
    return { file, kind, rows };
  }
  if (format === "xml") {
    const { root, node } = parseXml(LIST, file);
    if (root === "sdnList") return { file, kind: "legacy-xml", xml: node };
    if (root === "Sanctions") return { file, kind: "advanced-xml", xml: node };
    if (root === "sanctionsData") return { file, kind: "enhanced-xml", xml: node };
    throw new SanctionsParseError(LIST, `${file.name} is XML with root <${root}>, not an OFAC SDN publication (<sdnList>, <Sanctions> or <sanctionsData>)`);
  }
  throw new SanctionsParseError(LIST, `${file.name} is ${describeFormat(format)}; expected OFAC's SDN CSV or XML files`);
}

/** Listing dates by ent_num from an advanced or enhanced XML, to complete CSV records. */
function datesFromXml(c: Classified): Map<string, ListingDate> {
  if (c.kind === "advanced-xml") return advancedListingDates(c.xml!);
  if (c.kind === "enhanced-xml") return enhancedListingDates(c.xml!);
  return new Map();
}

/**
 * Parses OFAC SDN publication files into vessel designations (entities,
 * individuals and aircraft are skipped, so a company's IMO number never becomes
 * a vessel IMO). Throws SanctionsParseError on unreadable or unrecognised files.
 */
export function parseOfac(input: SanctionsInput, options: ParseOptions = {}): Designation[] {
  const files = toSourceFiles(input, LIST);
  if (files.length === 0) throw new SanctionsParseError(LIST, "no file supplied");
  const classified = files.map(classify);
  const of = (kind: OfacFileKind) => classified.filter((c) => c.kind === kind);
  const sdn = of("sdn-csv");
  const advanced = of("advanced-xml");
  const enhanced = of("enhanced-xml");
  const legacy = of("legacy-xml");
  const warn = options.onWarning ?? (() => {});

  if (sdn.length > 0) {
    if (of("comments-csv").length === 0) {
      warn("ofac: SDN_COMMENTS.CSV not supplied; remarks longer than 1000 characters (which can hold the IMO or MMSI) may be cut");
    }
    if (of("alt-csv").length === 0) warn("ofac: ALT.CSV not supplied; aliases and former names will be missing");
    const designations = fromSdnCsv(sdn, of("alt-csv"), of("comments-csv"));
    const dateSources = [...advanced, ...enhanced];
    if (dateSources.length === 0) return designations;
    const dates = new Map<string, ListingDate>();
    for (const c of dateSources) for (const [k, v] of datesFromXml(c)) if (!dates.has(k)) dates.set(k, v);
    return designations.map((d) => {
      const found = dates.get(d.recordId);
      return found ? { ...d, listedAt: found.date, listedAtField: found.field } : d;
    });
  }
  const base = advanced[0] ?? enhanced[0] ?? legacy[0];
  if (base === undefined) {
    throw new SanctionsParseError(
      LIST,
      `no SDN list file among ${files.map((f) => f.name).join(", ")}: supply SDN.CSV (with ALT.CSV and SDN_COMMENTS.CSV) or SDN.XML / SDN_ADVANCED.XML / SDN_ENHANCED.XML`,
    );
  }
  if (base.kind === "advanced-xml") return fromAdvancedXml(base.xml!);
  if (base.kind === "enhanced-xml") return fromEnhancedXml(base.xml!);
  return fromLegacyXml(base.xml!);
}

/**
 * The companies (entities) the publication designates, from SDN.CSV and its companion files;
 * with the names of the people it designates; the XML forms are not read for companies, so they give none. Call after parseOfac, which
 * refuses unreadable files first.
 */
export function parseOfacCompanies(input: SanctionsInput): { companies: ListedCompany[]; people: Set<string> } {
  const classified = toSourceFiles(input, LIST).map(classify);
  const of = (kind: OfacFileKind) => classified.filter((c) => c.kind === kind);
  return { companies: listedCompaniesFromSdnCsv(of("sdn-csv"), of("alt-csv"), of("add-csv"), of("comments-csv")), people: listedPeopleFromSdnCsv(of("sdn-csv")) };
}
