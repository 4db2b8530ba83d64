/** OFAC's SDN_ENHANCED.XML (`<sanctionsData>`, dates in sanctionsList/@datePublished) -> vessel designations. */
import { type Designation, type ExternalId, isoDate, makeDesignation, parseTonnage, parseYear } from "../../../../domain/sanctions/designation.ts";
import { attr, child, children, text, texts, type XmlNode } from "../common.ts";
import { earliest, fileIdentityDocument, LIST, type ListingDate, OFAC_DETAILS_URL } from "./shared.ts";

function enhancedEntities(xml: XmlNode): XmlNode[] {
  return children(child(xml, "entities"), "entity");
}

function enhancedDate(entity: XmlNode): string | null {
  return earliest(
    children(child(entity, "sanctionsLists"), "sanctionsList").map((l) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(attr(l, "datePublished"));
      return m ? isoDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
    }),
  );
}

export function fromEnhancedXml(xml: XmlNode): Designation[] {
  const refValues = new Map<string, string>();
  for (const rv of children(child(xml, "referenceValues"), "referenceValue")) refValues.set(attr(rv, "refId"), text(rv, "value"));

  const out: Designation[] = [];
  for (const entity of enhancedEntities(xml)) {
    if (!/^vessel$/i.test(text(child(entity, "generalInfo"), "entityType"))) continue;
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
    for (const f of children(child(entity, "features"), "feature")) {
      const type = text(f, "type").toLowerCase();
      const value = text(f, "value") || refValues.get(text(f, "valueRefId")) || "";
      if (value !== "") features.set(type, [...(features.get(type) ?? []), value]);
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
    out.push(
      makeDesignation({
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
        listedAt,
        listedAtField: "SDN_ENHANCED sanctionsList/@datePublished",
        sourceUrl: OFAC_DETAILS_URL + id,
      }),
    );
  }
  return out;
}

/** Listing dates by entity id (the CSV's ent_num), to complete CSV records. */
export function enhancedListingDates(xml: XmlNode): Map<string, ListingDate> {
  const dates = new Map<string, ListingDate>();
  for (const entity of enhancedEntities(xml)) {
    const date = enhancedDate(entity);
    if (date) dates.set(attr(entity, "id"), { date, field: "SDN_ENHANCED sanctionsList/@datePublished" });
  }
  return dates;
}
