/**
 * OFAC's SDN_ADVANCED.XML (`<Sanctions>`) -> vessel designations. The only classic
 * file with designation dates: alongside the CSV it supplies just those.
 */
import { type Designation, type ExternalId, makeDesignation, parseTonnage, parseYear } from "../../../../domain/sanctions/designation.ts";
import { attr, child, children, text, type XmlNode } from "../common.ts";
import { earliest, fileIdentityDocument, LIST, type ListingDate, OFAC_DETAILS_URL, ymd } from "./shared.ts";

type Reference = { text: string; attrs: XmlNode };

/** ReferenceValueSets: set name ("FeatureType") -> id -> text. IDs differ between files, so look up by text. */
function referenceSets(xml: XmlNode): Map<string, Map<string, Reference>> {
  const sets = new Map<string, Map<string, Reference>>();
  const root = child(xml, "ReferenceValueSets");
  if (!root) return sets;
  for (const [key, value] of Object.entries(root)) {
    if (!key.endsWith("Values")) continue;
    const itemName = key.slice(0, -"Values".length);
    const map = new Map<string, Reference>();
    for (const item of children(value, itemName)) map.set(attr(item, "ID"), { text: text(item), attrs: item });
    sets.set(itemName, map);
  }
  return sets;
}

function ref(sets: Map<string, Map<string, Reference>>, set: string, id: string): string {
  return sets.get(set)?.get(id)?.text ?? "";
}

type AdvancedEntry = { programs: string[]; measures: string[]; listedAt: string | null };

function advancedEntries(xml: XmlNode, sets: Map<string, Map<string, Reference>>): Map<string, AdvancedEntry> {
  const entries = new Map<string, AdvancedEntry>();
  for (const entry of children(child(xml, "SanctionsEntries"), "SanctionsEntry")) {
    const profileId = attr(entry, "ProfileID");
    const current = entries.get(profileId) ?? { programs: [], measures: [], listedAt: null };
    for (const measure of children(entry, "SanctionsMeasure")) {
      const type = ref(sets, "SanctionsType", attr(measure, "SanctionsTypeID"));
      const comment = text(measure, "Comment");
      if (comment === "") continue;
      if (type === "" || /^program$/i.test(type)) current.programs.push(comment);
      else current.measures.push(comment);
    }
    const dates = children(entry, "EntryEvent").map((e) => ymd(child(e, "Date")));
    current.listedAt = earliest([current.listedAt, ...dates]);
    entries.set(profileId, current);
  }
  return entries;
}

function documentedName(alias: XmlNode): string[] {
  return children(alias, "DocumentedName")
    .map((dn) =>
      children(dn, "DocumentedNamePart")
        .map((p) => text(p, "NamePartValue"))
        .filter((s) => s !== "")
        .join(" "),
    )
    .filter((s) => s !== "");
}

export function fromAdvancedXml(xml: XmlNode): Designation[] {
  const sets = referenceSets(xml);
  const countryOfLocation = new Map<string, { name: string; iso2: string | null }>();
  for (const loc of children(child(xml, "Locations"), "Location")) {
    const countryId = attr(child(loc, "LocationCountry"), "CountryID") || attr(child(loc, "LocationAreaCode"), "AreaCodeID");
    const country = sets.get("Country")?.get(countryId) ?? sets.get("AreaCode")?.get(countryId);
    const partValue = children(loc, "LocationPart")
      .map((p) => text(child(p, "LocationPartValue"), "Value"))
      .find((v) => v !== "");
    const name = country?.text || partValue || "";
    if (name !== "") countryOfLocation.set(attr(loc, "ID"), { name, iso2: country ? attr(country.attrs, "ISO2") || null : null });
  }

  const docsByIdentity = new Map<string, { type: string; value: string }[]>();
  for (const doc of children(child(xml, "IDRegDocuments"), "IDRegDocument")) {
    const identity = attr(doc, "IdentityID");
    const list = docsByIdentity.get(identity) ?? [];
    list.push({ type: ref(sets, "IDRegDocType", attr(doc, "IDRegDocTypeID")), value: text(doc, "IDRegistrationNo") });
    docsByIdentity.set(identity, list);
  }

  const entries = advancedEntries(xml, sets);
  const profiles = children(child(xml, "DistinctParties"), "DistinctParty").flatMap((p) => children(p, "Profile"));
  const primaryName = new Map<string, string>();
  for (const profile of profiles) {
    for (const identity of children(profile, "Identity")) {
      const primary = children(identity, "Alias").find((a) => attr(a, "Primary") === "true");
      const name = primary ? documentedName(primary)[0] : undefined;
      if (name) primaryName.set(attr(profile, "ID"), name);
    }
  }
  const ownersOf = new Map<string, string[]>();
  for (const rel of children(child(xml, "ProfileRelationships"), "ProfileRelationship")) {
    const type = ref(sets, "RelationType", attr(rel, "RelationTypeID"));
    if (type !== "" && !/owned or controlled by/i.test(type)) continue;
    const target = primaryName.get(attr(rel, "To"));
    if (!target) continue;
    const from = attr(rel, "From");
    ownersOf.set(from, [...(ownersOf.get(from) ?? []), target]);
  }

  const out: Designation[] = [];
  for (const profile of profiles) {
    if (!/^vessel$/i.test(ref(sets, "PartySubType", attr(profile, "PartySubTypeID")))) continue;
    const id = attr(profile, "ID");
    let name = "";
    const aliases: string[] = [];
    const formerNames: string[] = [];
    const imoValues: string[] = [];
    const mmsiValues: string[] = [];
    const externalIds: ExternalId[] = [];
    for (const identity of children(profile, "Identity")) {
      for (const alias of children(identity, "Alias")) {
        const type = ref(sets, "AliasType", attr(alias, "AliasTypeID")).toUpperCase();
        const names = documentedName(alias);
        if (attr(alias, "Primary") === "true" && name === "") name = names[0] ?? "";
        else if (type === "F.K.A.") formerNames.push(...names);
        else aliases.push(...names);
      }
      for (const doc of docsByIdentity.get(attr(identity, "ID")) ?? []) fileIdentityDocument(doc.type, doc.value, { imoValues, mmsiValues, externalIds });
    }
    const features = new Map<string, { value: string; iso2: string | null }[]>();
    for (const feature of children(profile, "Feature")) {
      const type = ref(sets, "FeatureType", attr(feature, "FeatureTypeID")).toLowerCase();
      for (const version of children(feature, "FeatureVersion")) {
        const detail = child(version, "VersionDetail");
        const location = child(version, "VersionLocation");
        let value = text(detail);
        let iso2: string | null = null;
        if (value === "" && detail) value = ref(sets, "DetailReference", attr(detail, "DetailReferenceID"));
        if (value === "" && location) {
          const loc = countryOfLocation.get(attr(location, "LocationID"));
          value = loc?.name ?? "";
          iso2 = loc?.iso2 ?? null;
        }
        if (value === "") {
          const date = ymd(child(child(child(version, "DatePeriod"), "Start"), "From"));
          value = date ?? "";
        }
        if (value !== "") features.set(type, [...(features.get(type) ?? []), { value, iso2 }]);
      }
    }
    const first = (type: string) => features.get(type)?.[0];
    const all = (type: string) => (features.get(type) ?? []).map((f) => f.value);
    const entry = entries.get(id);
    out.push(
      makeDesignation({
        list: LIST,
        recordId: id,
        name,
        aliases,
        formerNames,
        programs: entry?.programs ?? [],
        measures: [...(entry?.measures ?? []), ...all("secondary sanctions risk")],
        imoValues,
        mmsiValues,
        externalIds: [
          ...externalIds,
          ...all("other vessel flag").map((value) => ({ type: "Other Vessel Flag", value })),
          ...all("other vessel call sign").map((value) => ({ type: "Other Vessel Call Sign", value })),
          ...all("other vessel type").map((value) => ({ type: "Other Vessel Type", value })),
        ],
        callSign: first("vessel call sign")?.value ?? null,
        vesselType: first("vessel type")?.value ?? null,
        flag: first("vessel flag")?.value ?? null,
        ...(first("vessel flag")?.iso2 ? { flagIso2: first("vessel flag")!.iso2 } : {}),
        formerFlags: all("former vessel flag").filter((f) => !/^None Identified$/i.test(f)),
        tonnage: parseTonnage(first("vessel tonnage")?.value),
        grossTonnage: parseTonnage(first("vessel gross registered tonnage")?.value),
        yearBuilt: parseYear(first("vessel year of build")?.value),
        owners: [...all("vessel owner"), ...(ownersOf.get(id) ?? [])],
        listedAt: entry?.listedAt ?? null,
        listedAtField: "SDN_ADVANCED SanctionsEntry/EntryEvent/Date",
        sourceUrl: OFAC_DETAILS_URL + id,
      }),
    );
  }
  return out;
}

/** Listing dates by profile id (the CSV's ent_num), to complete CSV records. */
export function advancedListingDates(xml: XmlNode): Map<string, ListingDate> {
  const dates = new Map<string, ListingDate>();
  for (const [profileId, entry] of advancedEntries(xml, referenceSets(xml))) {
    if (entry.listedAt) dates.set(profileId, { date: entry.listedAt, field: "SDN_ADVANCED SanctionsEntry/EntryEvent/Date" });
  }
  return dates;
}
