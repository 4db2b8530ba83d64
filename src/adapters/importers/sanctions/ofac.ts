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
  describeFormat,
  formatOf,
  type ParseOptions,
  parseXml,
  type SanctionsInput,
  type SourceFile,
  toSourceFiles,
} from "./common.ts";
import { readAdvancedXml, readAdvancedXmlDates } from "./ofac/advanced-xml.ts";
import { readEnhancedXml } from "./ofac/enhanced-xml.ts";
import { UnreadFields } from "./unread-fields.ts";
import { xmlRootName } from "./xml-stream.ts";
import { fromLegacyXml } from "./ofac/legacy-xml.ts";
import { fromSdnCsv } from "./ofac/sdn-csv.ts";
import { listedFromSdnCsv } from "./ofac/companies.ts";
import type { ListedCompany } from "../../../domain/companies/from-sanctions.ts";
import { type Classified, isBlankRow, LIST, type ListingDate, checkOfacCsv, type OfacFileKind } from "./ofac/shared.ts";
import { csvRecords } from "./csv-stream.ts";

export { parseOfacRemarks, splitOfacPrograms } from "./ofac/sdn-csv.ts";
export { OFAC_DETAILS_URL } from "./ofac/shared.ts";

/**
 * The SLS export files a full OFAC import reads: the CSV set is the base, and SDN_ADVANCED.XML
 * (over 100 MB, read as a stream) adds each designation's date, which the CSV lacks.
 */
export const OFAC_OFFICIAL_URLS = [
  "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.CSV",
  "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ALT.CSV",
  "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN_COMMENTS.CSV",
  "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN_ADVANCED.XML",
] as const;

const CSV_KIND_BY_COLUMNS: Record<number, OfacFileKind> = { 12: "sdn-csv", 5: "alt-csv", 6: "add-csv", 2: "comments-csv" };

/** Tells an OFAC file by its content; a CSV by its first record alone (the rest is checked as it is read). */
async function classify(file: SourceFile): Promise<Classified> {
  const format = formatOf(file);
  if (format === "csv") {
    let first: string[] | null = null;
    for await (const row of csvRecords(LIST, file)) {
      if (isBlankRow(row)) continue;
      first = row;
      break;
    }
    if (first === null) throw new SanctionsParseError(LIST, `${file.name} has no CSV records`);
    const width = first.length;
    const kind = CSV_KIND_BY_COLUMNS[width];
    if (kind === undefined) {
      throw new SanctionsParseError(
        LIST,
        `${file.name} has ${width} columns; OFAC's SDN.CSV has 12, ALT.CSV 5, ADD.CSV 6, SDN_COMMENTS.CSV 2 (no header row)`,
      );
    }
    if (!/^\d+$/.test((first[0] ?? "").trim())) {
      throw new SanctionsParseError(LIST, `${file.name} does not start with an OFAC entity number (ent_num); it is not an OFAC list file`);
    }
    return { file, kind, width };
  }
  if (format === "xml") {
    // The advanced and enhanced files (100+ MB) are told by their root and read as streams later.
    const sniffed = xmlRootName(file);
    if (sniffed === "Sanctions") return { file, kind: "advanced-xml" };
    if (sniffed === "sanctionsData") return { file, kind: "enhanced-xml" };
    const { root, node } = parseXml(LIST, file);
    if (root === "sdnList") return { file, kind: "legacy-xml", xml: node };
    throw new SanctionsParseError(LIST, `${file.name} is XML with root <${root}>, not an OFAC SDN publication (<sdnList>, <Sanctions> or <sanctionsData>)`);
  }
  throw new SanctionsParseError(LIST, `${file.name} is ${describeFormat(format)}; expected OFAC's SDN CSV or XML files`);
}

/**
 * Reads an advanced or enhanced XML as a stream, reporting the vessel fields it does not read.
 * Beside the CSV only the dates are needed: the advanced file is then read once, for those.
 */
async function readXml(
  c: Classified,
  warn: (message: string) => void,
  datesOnly = false,
): Promise<{ designations: () => Designation[]; dates: Map<string, ListingDate> }> {
  const reader = c.kind === "enhanced-xml" ? await readEnhancedXml(c.file) : datesOnly ? await readAdvancedXmlDates(c.file) : await readAdvancedXml(c.file);
  return {
    designations: () => {
      const out = reader.designations();
      reader.unread.report(LIST, c.file.name, warn);
      return out;
    },
    dates: reader.listingDates(),
  };
}

/**
 * Parses OFAC SDN publication files into vessel designations (entities,
 * individuals and aircraft are skipped, so a company's IMO number never becomes
 * a vessel IMO). Throws SanctionsParseError on unreadable or unrecognised files.
 */
export async function parseOfac(input: SanctionsInput, options: ParseOptions = {}): Promise<Designation[]> {
  const files = toSourceFiles(input, LIST);
  if (files.length === 0) throw new SanctionsParseError(LIST, "no file supplied");
  const classified: Classified[] = [];
  for (const file of files) classified.push(await classify(file));
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
    const unread = new UnreadFields("vessel remark");
    const designations = await fromSdnCsv(sdn, of("alt-csv"), of("comments-csv"), unread);
    // ADD.CSV is read for companies only, after the import is stored: checked here, so a broken one refuses the import first.
    for (const c of of("add-csv")) await checkOfacCsv(c);
    unread.report(LIST, sdn.map((c) => c.file.name).join(", "), warn);
    const dateSources = [...advanced, ...enhanced];
    if (dateSources.length === 0) return designations;
    const dates = new Map<string, ListingDate>();
    for (const c of dateSources) for (const [k, v] of (await readXml(c, warn, true)).dates) if (!dates.has(k)) dates.set(k, v);
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
  if (base.kind === "legacy-xml") return fromLegacyXml(base.xml!);
  return (await readXml(base, warn)).designations();
}

/**
 * The companies (entities) the publication designates, from SDN.CSV and its companion files,
 * with the names of the people it designates; the XML forms are not read for companies, so
 * they give none. Call after parseOfac, which refuses unreadable files first.
 */
export async function parseOfacCompanies(input: SanctionsInput): Promise<{ companies: ListedCompany[]; people: Set<string> }> {
  const classified: Classified[] = [];
  for (const file of toSourceFiles(input, LIST)) classified.push(await classify(file));
  const of = (kind: OfacFileKind) => classified.filter((c) => c.kind === kind);
  return listedFromSdnCsv(of("sdn-csv"), of("alt-csv"), of("add-csv"), of("comments-csv"));
}
