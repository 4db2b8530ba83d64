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
  decodeText,
  describeFormat,
  detectFormat,
  firstWins,
  headerIndex,
  headerKey,
  type ParseOptions,
  parseCsvRows,
  parseXml,
  type SanctionsInput,
  type SourceFile,
  text,
  texts,
  toSourceFiles,
} from "./common.ts";

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
  const remarks = [f.designationSource ? `Designation source: ${f.designationSource}` : "", f.otherInformation].filter((s) => s !== "").join(". ");
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

function fromXml(file: SourceFile): Designation[] {
  const { root, node } = parseXml(LIST, file);
  if (root === "ArrayOfFinancialSanctionsTarget" || root === "ConsolidatedList") {
    throw new SanctionsParseError(LIST, `${file.name} is the retired OFSI Consolidated List (root <${root}>), not the FCDO UK Sanctions List`);
  }
  if (root !== "Designations") throw new SanctionsParseError(LIST, `${file.name} is XML with root <${root}>, not the UK Sanctions List (<Designations>)`);
  const out: Designation[] = [];
  for (const d of children(node, "Designation")) {
    if (!/^ship$/i.test(text(d, "IndividualEntityShip"))) continue;
    const uniqueId = text(d, "UniqueID");
    if (uniqueId === "") throw new SanctionsParseError(LIST, `${file.name} has a Ship designation without UniqueID`);
    const f = emptyFacts(uniqueId);
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
    out.push(toDesignation(f, UK_XML_URL));
  }
  return out;
}

const REQUIRED_CSV_COLUMNS = ["unique id", "designation type", "name 6", "name type", "imo number"];

function fromCsv(file: SourceFile): Designation[] {
  const rows = parseCsvRows(LIST, file, decodeText(LIST, file));
  const headerAt = rows.findIndex((r, i) => i < 5 && r.some((c) => headerKey(c) === "unique id"));
  if (headerAt < 0) {
    throw new SanctionsParseError(LIST, `${file.name} is CSV but has no "Unique ID" header in its first lines; it is not the UK Sanctions List CSV`);
  }
  const index = headerIndex(rows[headerAt]!);
  const missing = REQUIRED_CSV_COLUMNS.filter((c) => !index.has(c));
  if (missing.length > 0) throw new SanctionsParseError(LIST, `${file.name} lacks the UK Sanctions List columns: ${missing.join(", ")}`);
  const get = (row: string[], column: string) => {
    const i = index.get(column);
    return i === undefined ? "" : (row[i] ?? "").trim();
  };

  const byId = new Map<string, ShipFacts>();
  for (const row of rows.slice(headerAt + 1)) {
    if (!/^ship$/i.test(get(row, "designation type"))) continue;
    const uniqueId = get(row, "unique id");
    if (uniqueId === "") continue;
    const f = byId.get(uniqueId) ?? emptyFacts(uniqueId);
    byId.set(uniqueId, f);
    const name = ["name 1", "name 2", "name 3", "name 4", "name 5", "name 6"]
      .map((c) => get(row, c))
      .filter((s) => s !== "")
      .join(" ");
    if (name !== "") f.names.push({ name, type: get(row, "name type") });
    const nonLatin = get(row, "name non-latin script");
    if (nonLatin !== "") f.names.push({ name: nonLatin, type: "Non-latin" });
    const push = (target: string[], column: string) => {
      const v = get(row, column);
      if (v !== "" && !target.includes(v)) target.push(v);
    };
    push(f.regimes, "regime name");
    push(f.imoValues, "imo number");
    push(f.flags, "current believed flag of ship");
    push(f.previousFlags, "previous flags");
    push(f.owners, "current owner/operator (s)");
    push(f.previousOwners, "previous owner/operator (s)");
    push(f.types, "type of ship");
    push(f.tonnages, "tonnage of ship");
    push(f.years, "year built");
    push(f.lengths, "length of ship");
    push(f.hins, "hull identification number (hin)");
    push(f.sanctionsImposed, "sanctions imposed");
    f.dateDesignated ||= get(row, "date designated");
    f.lastUpdated ||= get(row, "last updated");
    f.unReference ||= get(row, "un reference number");
    f.ofsiGroupId ||= get(row, "ofsi group id");
    f.designationSource ||= get(row, "designation source");
    f.otherInformation ||= get(row, "other information");
    f.statementOfReasons ||= get(row, "uk statement of reasons");
  }
  return [...byId.values()].map((f) => toDesignation(f, UK_CSV_URL));
}

/** Parses the UK Sanctions List (XML or CSV, detected by content) into ship designations. */
export function parseUk(input: SanctionsInput, _options: ParseOptions = {}): Designation[] {
  const files = toSourceFiles(input, LIST);
  if (files.length === 0) throw new SanctionsParseError(LIST, "no file supplied");
  // XML first: with both formats of one publication supplied, the XML's record wins.
  const ordered = [...files].sort((a, b) => Number(detectFormat(b.bytes) === "xml") - Number(detectFormat(a.bytes) === "xml"));
  const parsed = ordered.map((file) => {
    const format = detectFormat(file.bytes);
    if (format === "xml") return fromXml(file);
    if (format === "csv") return fromCsv(file);
    throw new SanctionsParseError(LIST, `${file.name} is ${describeFormat(format)}; expected UK-Sanctions-List.xml or .csv`);
  });
  return firstWins(parsed.flat());
}
