/**
 * OFAC's SDN_ENHANCED.XML (`<sanctionsData>`, dates in sanctionsList/@datePublished) -> vessel
 * designations. Read as a stream, one entity at a time; only vessels are kept.
 */
import { type Designation, type ExternalId, isoDate, makeDesignation, parseTonnage, parseYear } from "../../../../domain/sanctions/designation.ts";
import { attr, child, children, type SourceFile, text, texts, type XmlNode } from "../common.ts";
import { UnreadFields } from "../unread-fields.ts";
import { streamXmlElements } from "../xml-stream.ts";
import { earliest, fileIdentityDocument, LIST, type ListingDate, OFAC_DETAILS_URL } from "./shared.ts";

const asNode = (v: XmlNode | string): XmlNode => (typeof v === "string" ? { "#text": v } : v);

/** Vessel features read into designation fields; any other is reported and kept in the remarks. */
const READ_FEATURES = new Set([
  "vessel call sign",
  "vessel type",
  "vessel flag",
  "former vessel flag",
  "vessel tonnage",
  "vessel gross registered tonnage",
  "vessel year of build",
  "vessel owner",
  "secondary sanctions risk",
]);

/** Gathers reference values and vessel designations from the top-level records of one file. */
export class EnhancedXmlReader {
  readonly refValues = new Map<string, string>();
  readonly #designations: Designation[] = [];
  readonly dates = new Map<string, ListingDate>();
  readonly unread = new UnreadFields("SDN_ENHANCED vessel");

  referenceValue(rv: XmlNode): void {
    this.refValues.set(attr(rv, "refId"), text(rv, "value"));
  }

  /**
   * A vessel becomes its designation as it is read (the reference values come first, in the
   * schema's order), and its element is dropped: memory follows the vessels, not the file.
   */
  entity(entity: XmlNode): void {
    if (!/^vessel$/i.test(text(child(entity, "generalInfo"), "entityType"))) return;
    this.#designations.push(fromEnhancedEntity(entity, this.refValues, this.unread));
    const date = enhancedDate(entity);
    if (date) this.dates.set(attr(entity, "id"), { date, field: "SDN_ENHANCED sanctionsList/@datePublished" });
  }

  listingDates(): Map<string, ListingDate> {
    return this.dates;
  }

  designations(): Designation[] {
    return [...this.#designations];
  }
}

export async function readEnhancedXml(file: SourceFile, chunkSize?: number): Promise<EnhancedXmlReader> {
  const reader = new EnhancedXmlReader();
  await streamXmlElements(
    LIST,
    file,
    {
      "sanctionsData/referenceValues/referenceValue": (n) => reader.referenceValue(asNode(n)),
      "sanctionsData/entities/entity": (n) => reader.entity(asNode(n)),
    },
    chunkSize,
  );
  return reader;
}

/** The same reader fed from a document parsed whole (parseXml): the reference the stream is checked against. */
export function fromEnhancedXmlTree(xml: XmlNode): EnhancedXmlReader {
  const reader = new EnhancedXmlReader();
  for (const rv of children(child(xml, "referenceValues"), "referenceValue")) reader.referenceValue(rv);
  for (const entity of children(child(xml, "entities"), "entity")) reader.entity(entity);
  return reader;
}

function enhancedDate(entity: XmlNode): string | null {
  return earliest(
    children(child(entity, "sanctionsLists"), "sanctionsList").map((l) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(attr(l, "datePublished"));
      return m ? isoDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
    }),
  );
}

function fromEnhancedEntity(entity: XmlNode, refValues: Map<string, string>, unread: UnreadFields): Designation {
  const id = attr(entity, "id");
  let name = "";
  const aliases: string[] = [];
  const formerNames: string[] = [];
  for (const n of children(child(entity, "names"), "name")) {
    const translations = children(child(n, "translations"), "translation");
    const preferred = translations.find((t) => text(t, "isPrimary") === "true") ?? translations[0];
    const full = text(preferred, "formattedFullName");
    if (full === "") continue;
    if (text(n, "isPrimary") === "true" && name === "") name = full;
    else if (/^f\.?k\.?a/i.test(text(n, "aliasType"))) formerNames.push(full);
    else aliases.push(full);
  }
  if (name === "") name = aliases.shift() ?? "";
  const features = new Map<string, string[]>();
  const unreadLines: string[] = [];
  for (const f of children(child(entity, "features"), "feature")) {
    const label = text(f, "type");
    const type = label.toLowerCase();
    const value = text(f, "value") || refValues.get(text(f, "valueRefId")) || "";
    if (value === "") continue;
    features.set(type, [...(features.get(type) ?? []), value]);
    if (!READ_FEATURES.has(type)) {
      unread.saw(`feature "${label}"`);
      unreadLines.push(`${label}: ${value}`);
    }
  }
  const first = (type: string) => features.get(type)?.[0] ?? null;
  const imoValues: string[] = [];
  const mmsiValues: string[] = [];
  const externalIds: ExternalId[] = [];
  for (const doc of children(child(entity, "identityDocuments"), "identityDocument")) {
    const type = text(doc, "type");
    const value = text(doc, "documentNumber");
    if (value !== "") fileIdentityDocument(type, value, { imoValues, mmsiValues, externalIds });
  }
  const owners = children(child(entity, "relationships"), "relationship")
    .filter((r) => /owned or controlled by/i.test(text(r, "type")))
    .map((r) => text(r, "relatedEntity"));
  const listedAt = enhancedDate(entity);
  return makeDesignation({
    list: LIST,
    recordId: id,
    name,
    aliases,
    formerNames,
    programs: texts(child(entity, "sanctionsPrograms"), "sanctionsProgram"),
    measures: [...texts(child(entity, "sanctionsTypes"), "sanctionsType"), ...(features.get("secondary sanctions risk") ?? [])],
    imoValues,
    mmsiValues,
    externalIds,
    callSign: first("vessel call sign"),
    vesselType: first("vessel type"),
    flag: first("vessel flag"),
    formerFlags: (features.get("former vessel flag") ?? []).filter((f) => !/^None Identified$/i.test(f)),
    tonnage: parseTonnage(first("vessel tonnage")),
    grossTonnage: parseTonnage(first("vessel gross registered tonnage")),
    yearBuilt: parseYear(first("vessel year of build")),
    owners: [...(features.get("vessel owner") ?? []), ...owners],
    remarks: unreadLines.length > 0 ? unreadLines.join("; ") : null,
    listedAt,
    listedAtField: "SDN_ENHANCED sanctionsList/@datePublished",
    sourceUrl: OFAC_DETAILS_URL + id,
  });
}
