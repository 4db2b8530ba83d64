/**
 * Consolidated Canadian Autonomous Sanctions List (sema-lmes.xml) -> ship designations.
 *
 * Global Affairs Canada renamed every element on 2026-08-25 from English names
 * (`ShipIMONumber`) to bilingual ones (`ShipIMONumber-NumeroOMIDuNavire`) without
 * notice; older files used `Entity`/`DateOfBirth`. Elements are therefore read by
 * the English part before the first hyphen, so all three generations parse alike.
 */
import {
  type Designation,
  excelSerialToIsoDate,
  makeDesignation,
  parseDayFirstDate,
  parseYear,
  SanctionsParseError,
} from "../../../domain/sanctions/designation.ts";
import {
  describeFormat,
  firstWins,
  formatOf,
  type ParseOptions,
  parseXml,
  type SanctionsInput,
  type SourceFile,
  text,
  toSourceFiles,
  type XmlNode,
} from "./common.ts";
import { UnreadFields } from "./unread-fields.ts";
import { streamXmlElements, xmlRootName } from "./xml-stream.ts";

const LIST = "canada";
export const CANADA_XML_URL =
  "https://www.international.gc.ca/world-monde/assets/office_docs/international_relations-relations_internationales/sanctions/sema-lmes.xml";
export const CANADA_LIST_PAGE =
  "https://www.international.gc.ca/world-monde/international_relations-relations_internationales/sanctions/consolidated-consolide.aspx?lang=eng";

/** English stem of an element name -> the field it carries, across all known generations. */
const FIELD_BY_STEM: Record<string, string> = {
  country: "regime",
  lastname: "lastName",
  givenname: "givenName",
  entityorship: "entityOrShip",
  entity: "entityOrShip",
  titleorship: "titleOrShipType",
  titleorshiptype: "titleOrShipType",
  shipimonumber: "imo",
  dateofbirthorshipbuilddate: "dobOrBuild",
  dateofbirth: "dobOrBuild",
  aliases: "aliases",
  schedule: "schedule",
  item: "item",
  dateoflisting: "dateOfListing",
};

type Record_ = Partial<Record<string, string>>;

/** The fields of one record; elements of no known field go to `unread` (name, value), to be reported. */
function readRecord(node: XmlNode, unread: [string, string][] = []): Record_ {
  const out: Record_ = {};
  for (const key of Object.keys(node)) {
    if (key.startsWith("@_") || key === "#text") continue;
    const stem = key.split("-")[0]!.toLowerCase();
    const field = FIELD_BY_STEM[stem];
    const value = text(node, key);
    if (field === undefined) {
      if (value !== "") unread.push([key, value]);
      continue;
    }
    if (value !== "" && out[field] === undefined) out[field] = value;
  }
  return out;
}

/** "Oil Tanker | Navire-citerne pour produits pétroliers" -> the English half. */
function englishPart(value: string | undefined): string | null {
  if (!value) return null;
  return value.split(/\s*\|\s*/)[0]!.trim() || null;
}

function listingDate(value: string | undefined): string | null {
  if (!value) return null;
  // A few values were exported as Excel serial day numbers.
  if (/^\d{5}(?:\.\d+)?$/.test(value)) return excelSerialToIsoDate(Number(value));
  return parseDayFirstDate(value);
}

/**
 * A ship is a non-person record with a number in its IMO element. Persons have
 * carried stray text there (Persian-script names), and whitespace-only IMO
 * elements have been published, so neither makes a ship.
 */
function isShip(r: Record_): boolean {
  if (r.lastName || r.givenName) return false;
  if (!r.entityOrShip) return false;
  return /\d{5,}/.test(r.imo ?? "");
}

/** sema-lmes.xml, read as a stream one `<record>` at a time: only ships are kept. */
async function fromXml(file: SourceFile, warn: (message: string) => void): Promise<Designation[]> {
  const root = xmlRootName(file);
  if (root !== "data-set") {
    // Not the list: parsed whole only to say what it is (or where it is broken).
    const { root: parsedRoot } = parseXml(LIST, file);
    throw new SanctionsParseError(LIST, `${file.name} is XML with root <${parsedRoot}>, not the Canadian consolidated list (<data-set> of <record>)`);
  }
  const out: Designation[] = [];
  const unread = new UnreadFields("ship record");
  await streamXmlElements(LIST, file, {
    "data-set/record": (record) => {
      if (typeof record === "string") return;
      const d = shipFromRecord(record, unread);
      if (d) out.push(d);
    },
  });
  unread.report(LIST, file.name, warn);
  return out;
}

/** One `<record>`: its ship designation, or null for a person or an entity. */
function shipFromRecord(record: XmlNode, unread: UnreadFields): Designation | null {
  const unreadOfRecord: [string, string][] = [];
  const r = readRecord(record, unreadOfRecord);
  if (!isShip(r)) return null;
  for (const [key] of unreadOfRecord) unread.saw(key);
  const typeRemark = r.titleOrShipType && englishPart(r.titleOrShipType) !== r.titleOrShipType ? `Type of ship: ${r.titleOrShipType}` : "";
  const regime = r.regime ?? "";
  // No official id: regime + schedule + item identifies an entry (items restart per schedule).
  const recordId = [regime, r.schedule ?? "", r.item ?? ""].join("|");
  const aliases = (r.aliases ?? "").split(/\s*[;,]\s*/);
  return makeDesignation({
    list: LIST,
    recordId,
    name: r.entityOrShip ?? "",
    aliases,
    program: [regime, r.schedule ? `Schedule ${r.schedule}` : ""].filter((s) => s !== "").join(", "),
    programs: [regime],
    imoValues: [r.imo ?? ""],
    vesselType: englishPart(r.titleOrShipType),
    yearBuilt: parseYear(r.dobOrBuild),
    externalIds: [
      ...(r.schedule ? [{ type: "Schedule", value: r.schedule }] : []),
      ...(r.item ? [{ type: "Item", value: r.item }] : []),
    ],
    remarks: [typeRemark, ...unreadOfRecord.map(([k, v]) => `${k}: ${v}`)].filter((x) => x !== "").join(". ") || null,
    listedAt: listingDate(r.dateOfListing),
    listedAtField: "DateOfListing",
    sourceUrl: CANADA_LIST_PAGE,
  });
}

/** Parses sema-lmes.xml (old, bilingual or older element names) into ship designations. */
export async function parseCanada(input: SanctionsInput, options: ParseOptions = {}): Promise<Designation[]> {
  const files = toSourceFiles(input, LIST);
  if (files.length === 0) throw new SanctionsParseError(LIST, "no file supplied");
  const parsed: Designation[][] = [];
  for (const file of files) {
    const format = formatOf(file);
    if (format !== "xml") {
      throw new SanctionsParseError(LIST, `${file.name} is ${describeFormat(format)}; expected sema-lmes.xml (the CSV edition was retired)`);
    }
    parsed.push(await fromXml(file, options.onWarning ?? (() => {})));
  }
  return firstWins(parsed.flat());
}
