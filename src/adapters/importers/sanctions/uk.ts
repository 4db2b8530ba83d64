/**
 * FCDO UK Sanctions List -> ship designations, from UK-Sanctions-List.xml
 * (`<Designations>`) or UK-Sanctions-List.csv ("Report Date:" line, then one row
 * per name/address of a designation). Only `Ship` designations are kept.
 */
import {
  type Designation,
  type ExternalId,
  makeDesignation,
  parseDayFirstDate,
  parseTonnage,
  parseYear,
  SanctionsParseError,
  uniqueStrings,
} from "../../../domain/sanctions/designation.ts";
import {
  child,
  children,
  describeFormat,
  firstWins,
  formatOf,
  headerIndex,
  headerKey,
  type ParseOptions,
  parseXml,
  type SanctionsInput,
  type SourceFile,
  text,
  texts,
  toSourceFiles,
  type XmlNode,
} from "./common.ts";
import { UnreadFields } from "./unread-fields.ts";
import { csvRecords } from "./csv-stream.ts";
import { streamXmlElements, xmlRootName } from "./xml-stream.ts";

const LIST = "uk";
export const UK_XML_URL = "https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.xml";
export const UK_CSV_URL = "https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.csv";

/** Values gathered for one designation, from one XML element or several CSV rows. */
type ShipFacts = {
  uniqueId: string;
  names: { name: string; type: string }[];
  regimes: string[];
  imoValues: string[];
  flags: string[];
  previousFlags: string[];
  owners: string[];
  previousOwners: string[];
  types: string[];
  tonnages: string[];
  years: string[];
  lengths: string[];
  hins: string[];
  sanctionsImposed: string[];
  dateDesignated: string;
  lastUpdated: string;
  unReference: string;
  ofsiGroupId: string;
  designationSource: string;
  otherInformation: string;
  statementOfReasons: string;
  /** "Field: value" of the record's fields this reader does not map, kept in the remarks. */
  unread: string[];
};

function emptyFacts(uniqueId: string): ShipFacts {
  return {
    uniqueId,
    names: [],
    regimes: [],
    imoValues: [],
    flags: [],
    previousFlags: [],
    owners: [],
    previousOwners: [],
    types: [],
    tonnages: [],
    years: [],
    lengths: [],
    hins: [],
    sanctionsImposed: [],
    dateDesignated: "",
    lastUpdated: "",
    unReference: "",
    ofsiGroupId: "",
    designationSource: "",
    otherInformation: "",
    statementOfReasons: "",
    unread: [],
  };
}

/**
 * The UK sometimes names a ship by its IMO with the name in quotes:
 * `IMO 9274082 ("TM HAI HA 568")`. The quoted name is worth matching on.
 */
function quotedNameOf(name: string): string | null {
  const m = /^IMO\s*\d{7}\s*\(\s*["“”']+(.+?)["“”']+\s*\)$/i.exec(name.trim());
  return m ? m[1]!.trim() : null;
}

function toDesignation(f: ShipFacts, sourceUrl: string): Designation {
  const primary = f.names.find((n) => /^primary name$/i.test(n.type)) ?? f.names[0];
  const name = primary?.name ?? "";
  const others = f.names.filter((n) => n !== primary).map((n) => n.name);
  const quoted = quotedNameOf(name);
  const externalIds: ExternalId[] = [];
  if (f.unReference) externalIds.push({ type: "UN Reference Number", value: f.unReference });
  if (f.ofsiGroupId) externalIds.push({ type: "OFSI Group ID", value: f.ofsiGroupId });
  for (const hin of f.hins) externalIds.push({ type: "Hull identification number (HIN)", value: hin });
  for (const length of f.lengths) externalIds.push({ type: "Length of ship", value: length });
  const remarks = [f.designationSource ? `Designation source: ${f.designationSource}` : "", f.otherInformation, ...uniqueStrings(f.unread)].filter((s) => s !== "").join(". ");
  const listedAt = parseDayFirstDate(f.dateDesignated);
  return makeDesignation({
    list: LIST,
    recordId: f.uniqueId,
    name,
    aliases: [...(quoted ? [quoted] : []), ...others],
    programs: uniqueStrings(f.regimes),
    imoValues: f.imoValues,
    flag: f.flags[0] ?? null,
    formerFlags: f.previousFlags,
    owners: f.owners,
    previousOwners: f.previousOwners,
    vesselType: f.types[0] ?? null,
    tonnage: parseTonnage(f.tonnages[0]),
    yearBuilt: parseYear(f.years[0]),
    measures: f.sanctionsImposed.flatMap((s) => s.split("|")),
    reason: f.statementOfReasons,
    remarks,
    externalIds,
    listedAt,
    listedAtField: "Date Designated",
    updatedAt: parseDayFirstDate(f.lastUpdated),
    sourceUrl,
  });
}

/** Children of a Ship designation and of its ShipDetails/Ship that this reader maps; others are reported. */
const READ_DESIGNATION_ELEMENTS = new Set([
  "UniqueID",
  "OFSIGroupID",
  "UNReferenceNumber",
  "LastUpdated",
  "DateDesignated",
  "RegimeName",
  "IndividualEntityShip",
  "DesignationSource",
  "SanctionsImposed",
  "OtherInformation",
  "UKStatementofReasons",
  "UKStatementOfReasons",
  "Names",
  "NonLatinNames",
  "ShipDetails",
]);
const READ_SHIP_ELEMENTS = new Set([
  "IMONumbers",
  "CurrentOwnerOperators",
  "PreviousOwnerOperators",
  "CurrentBelievedFlagOfShips",
  "PreviousFlags",
  "TypeOfShipDetails",
  "TonnageOfShipDetails",
  "YearsBuilt",
  "LengthOfShipDetails",
  "HullIdentificationNumbers",
]);

/** Every text below a node, for the remarks of an element the reader does not map. */
function allText(node: unknown): string {
  if (typeof node !== "object" || node === null) return String(node ?? "").trim();
  if (Array.isArray(node)) return node.map(allText).filter((s) => s !== "").join(", ");
  return Object.entries(node as XmlNode)
    .filter(([k]) => !k.startsWith("@_"))
    .map(([, v]) => allText(v))
    .filter((s) => s !== "")
    .join(", ");
}

function noteUnread(f: ShipFacts, node: XmlNode, read: Set<string>, unread: UnreadFields): void {
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith("@_") || key === "#text" || read.has(key)) continue;
    const t = allText(value);
    if (t === "") continue;
    unread.saw(key);
    f.unread.push(`${key}: ${t}`);
  }
}

/** One `<Designation>` element: a ship designation, or null for individuals and entities. */
function shipFromXml(file: SourceFile, d: XmlNode, unread: UnreadFields): Designation | null {
  if (!/^ship$/i.test(text(d, "IndividualEntityShip"))) return null;
  const uniqueId = text(d, "UniqueID");
  if (uniqueId === "") throw new SanctionsParseError(LIST, `${file.name} has a Ship designation without UniqueID`);
  const f = emptyFacts(uniqueId);
  noteUnread(f, d, READ_DESIGNATION_ELEMENTS, unread);
  for (const n of children(child(d, "Names"), "Name")) {
    const name = ["Name1", "Name2", "Name3", "Name4", "Name5", "Name6"]
      .map((k) => text(n, k))
      .filter((s) => s !== "")
      .join(" ");
    if (name !== "") f.names.push({ name, type: text(n, "NameType") });
  }
  for (const n of children(child(d, "NonLatinNames"), "NonLatinName")) {
    const name = text(n, "NameNonLatinScript");
    if (name !== "") f.names.push({ name, type: "Non-latin" });
  }
  f.regimes.push(text(d, "RegimeName"));
  for (const ship of children(child(d, "ShipDetails"), "Ship")) {
    noteUnread(f, ship, READ_SHIP_ELEMENTS, unread);
    const list = (container: string, item: string) => texts(child(ship, container), item);
    f.imoValues.push(...list("IMONumbers", "IMONumber"));
    f.flags.push(...list("CurrentBelievedFlagOfShips", "CurrentBelievedFlagOfShip"));
    f.previousFlags.push(...list("PreviousFlags", "PreviousFlag"));
    f.owners.push(...list("CurrentOwnerOperators", "CurrentOwnerOperator"));
    f.previousOwners.push(...list("PreviousOwnerOperators", "PreviousOwnerOperator"));
    f.types.push(...list("TypeOfShipDetails", "TypeOfShip"));
    f.tonnages.push(...list("TonnageOfShipDetails", "TonnageOfShip"));
    f.years.push(...list("YearsBuilt", "YearBuilt"));
    f.lengths.push(...list("LengthOfShipDetails", "LengthOfShip"));
    f.hins.push(...list("HullIdentificationNumbers", "HullIdentificationNumber"));
  }
  f.sanctionsImposed.push(text(d, "SanctionsImposed"));
  f.dateDesignated = text(d, "DateDesignated");
  f.lastUpdated = text(d, "LastUpdated");
  f.unReference = text(d, "UNReferenceNumber");
  f.ofsiGroupId = text(d, "OFSIGroupID");
  f.designationSource = text(d, "DesignationSource");
  f.otherInformation = text(d, "OtherInformation");
  f.statementOfReasons = text(d, "UKStatementofReasons") || text(d, "UKStatementOfReasons");
  return toDesignation(f, UK_XML_URL);
}

/** UK-Sanctions-List.xml, read as a stream one `<Designation>` at a time (the file holds every individual and entity too). */
async function fromXml(file: SourceFile, warn: (message: string) => void): Promise<Designation[]> {
  const root = xmlRootName(file);
  if (root === "ArrayOfFinancialSanctionsTarget" || root === "ConsolidatedList") {
    throw new SanctionsParseError(LIST, `${file.name} is the retired OFSI Consolidated List (root <${root}>), not the FCDO UK Sanctions List`);
  }
  if (root !== "Designations") {
    // Not the list: parsed whole only to say what it is (or where it is broken).
    const { root: parsedRoot } = parseXml(LIST, file);
    throw new SanctionsParseError(LIST, `${file.name} is XML with root <${parsedRoot}>, not the UK Sanctions List (<Designations>)`);
  }
  const out: Designation[] = [];
  const unread = new UnreadFields("Ship designation");
  await streamXmlElements(LIST, file, {
    "Designations/Designation": (n) => {
      const d = typeof n === "string" ? null : shipFromXml(file, n, unread);
      if (d) out.push(d);
    },
  });
  unread.report(LIST, file.name, warn);
  return out;
}

const REQUIRED_CSV_COLUMNS = ["unique id", "designation type", "name 6", "name type", "imo number"];

type ListField = { [K in keyof ShipFacts]: ShipFacts[K] extends string[] ? K : never }[keyof ShipFacts];
type TextField = { [K in keyof ShipFacts]: ShipFacts[K] extends string ? K : never }[keyof ShipFacts];

/** CSV columns a ship's rows may repeat with other values: every distinct value is kept, in row order. */
const CSV_LIST_COLUMNS: readonly (readonly [ListField, string])[] = [
  ["regimes", "regime name"],
  ["imoValues", "imo number"],
  ["flags", "current believed flag of ship"],
  ["previousFlags", "previous flags"],
  ["owners", "current owner/operator (s)"],
  ["previousOwners", "previous owner/operator (s)"],
  ["types", "type of ship"],
  ["tonnages", "tonnage of ship"],
  ["years", "year built"],
  ["lengths", "length of ship"],
  ["hins", "hull identification number (hin)"],
  ["sanctionsImposed", "sanctions imposed"],
];

/** CSV columns of one value per ship: the first non-empty one is kept. */
const CSV_TEXT_COLUMNS: readonly (readonly [TextField, string])[] = [
  ["dateDesignated", "date designated"],
  ["lastUpdated", "last updated"],
  ["unReference", "un reference number"],
  ["ofsiGroupId", "ofsi group id"],
  ["designationSource", "designation source"],
  ["otherInformation", "other information"],
  ["statementOfReasons", "uk statement of reasons"],
];

/** CSV columns this reader maps; a value in any other column of a ship row is reported and kept in the remarks. */
const READ_CSV_COLUMNS = new Set([
  ...["unique id", "designation type", "name 1", "name 2", "name 3", "name 4", "name 5", "name 6", "name type", "name non-latin script"],
  ...CSV_LIST_COLUMNS.map(([, column]) => column),
  ...CSV_TEXT_COLUMNS.map(([, column]) => column),
]);

/** UK-Sanctions-List.csv, read as a stream; only the rows of Ship designations are kept. */
async function fromCsv(file: SourceFile, warn: (message: string) => void): Promise<Designation[]> {
  const noHeader = () =>
    new SanctionsParseError(LIST, `${file.name} is CSV but has no "Unique ID" header in its first lines; it is not the UK Sanctions List CSV`);
  let index: Map<string, number> | null = null;
  let unreadColumns: { h: string; i: number }[] = [];
  const get = (row: string[], column: string) => {
    const i = index?.get(column);
    return i === undefined ? "" : (row[i] ?? "").trim();
  };
  const unread = new UnreadFields("Ship row");
  const byId = new Map<string, ShipFacts>();
  let seen = 0;
  for await (const row of csvRecords(LIST, file)) {
    if (index === null) {
      // The header follows a "Report Date:" line; it is looked for in the first five records.
      if (seen++ >= 5) throw noHeader();
      if (!row.some((c) => headerKey(c) === "unique id")) continue;
      index = headerIndex(row);
      const missing = REQUIRED_CSV_COLUMNS.filter((c) => !index!.has(c));
      if (missing.length > 0) throw new SanctionsParseError(LIST, `${file.name} lacks the UK Sanctions List columns: ${missing.join(", ")}`);
      unreadColumns = row.map((h, i) => ({ h: h.trim(), i })).filter(({ h }) => h !== "" && !READ_CSV_COLUMNS.has(headerKey(h)));
      continue;
    }
    if (!/^ship$/i.test(get(row, "designation type"))) continue;
    const uniqueId = get(row, "unique id");
    if (uniqueId === "") continue;
    const f = byId.get(uniqueId) ?? emptyFacts(uniqueId);
    byId.set(uniqueId, f);
    for (const { h, i } of unreadColumns) {
      const v = (row[i] ?? "").trim();
      if (v === "") continue;
      unread.saw(h);
      f.unread.push(`${h}: ${v}`);
    }
    const name = ["name 1", "name 2", "name 3", "name 4", "name 5", "name 6"]
      .map((c) => get(row, c))
      .filter((s) => s !== "")
      .join(" ");
    if (name !== "") f.names.push({ name, type: get(row, "name type") });
    const nonLatin = get(row, "name non-latin script");
    if (nonLatin !== "") f.names.push({ name: nonLatin, type: "Non-latin" });
    for (const [field, column] of CSV_LIST_COLUMNS) {
      const v = get(row, column);
      if (v !== "" && !f[field].includes(v)) f[field].push(v);
    }
    for (const [field, column] of CSV_TEXT_COLUMNS) f[field] ||= get(row, column);
  }
  if (index === null) throw noHeader();
  unread.report(LIST, file.name, warn);
  return [...byId.values()].map((f) => toDesignation(f, UK_CSV_URL));
}

/** Parses the UK Sanctions List (XML or CSV, detected by content) into ship designations. */
export async function parseUk(input: SanctionsInput, options: ParseOptions = {}): Promise<Designation[]> {
  const files = toSourceFiles(input, LIST);
  if (files.length === 0) throw new SanctionsParseError(LIST, "no file supplied");
  const warn = options.onWarning ?? (() => {});
  // XML first: with both formats of one publication supplied, the XML's record wins.
  const ordered = [...files].sort((a, b) => Number(formatOf(b) === "xml") - Number(formatOf(a) === "xml"));
  const parsed: Designation[][] = [];
  for (const file of ordered) {
    const format = formatOf(file);
    if (format === "xml") parsed.push(await fromXml(file, warn));
    else if (format === "csv") parsed.push(await fromCsv(file, warn));
    else throw new SanctionsParseError(LIST, `${file.name} is ${describeFormat(format)}; expected UK-Sanctions-List.xml or .csv`);
  }
  return firstWins(parsed.flat());
}
