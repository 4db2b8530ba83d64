/**
 * OFAC's SDN_ADVANCED.XML (`<Sanctions>`) -> vessel designations. The only classic
 * file with designation dates: alongside the CSV it supplies just those.
 *
 * Read as a stream (AdvancedXmlReader takes one top-level record at a time: reference
 * values, locations, documents, parties, relationships, entries, in the schema's order), so
 * the ~130 MB file is never held whole. What it keeps is per vessel, plus a name per party
 * (for "owned or controlled by") and the identity documents.
 */
import { type Designation, type ExternalId, makeDesignation, parseTonnage, parseYear } from "../../../../domain/sanctions/designation.ts";
import { attr, child, children, type SourceFile, text, type XmlNode } from "../common.ts";
import { type ElementHandlers, streamXmlElements } from "../xml-stream.ts";
import { UnreadFields } from "../unread-fields.ts";
import { earliest, fileIdentityDocument, LIST, type ListingDate, OFAC_DETAILS_URL, ymd } from "./shared.ts";

type Reference = { text: string; attrs: XmlNode };
type Sets = Map<string, Map<string, Reference>>;

const asNode = (v: XmlNode | string): XmlNode => (typeof v === "string" ? { "#text": v } : v);

/** ReferenceValueSets: set name ("FeatureType") -> id -> text. IDs differ between files, so look up by text. */
function referenceSets(root: XmlNode | undefined): Sets {
  const sets: Sets = new Map();
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

function ref(sets: Sets, set: string, id: string): string {
  return sets.get(set)?.get(id)?.text ?? "";
}

type AdvancedEntry = { programs: string[]; measures: string[]; listedAt: string | null };

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

/** Vessel features read into designation fields; any other feature is reported and kept in the remarks. */
const READ_FEATURES = new Set([
  "vessel call sign",
  "vessel type",
  "vessel flag",
  "former vessel flag",
  "other vessel flag",
  "other vessel call sign",
  "other vessel type",
  "vessel tonnage",
  "vessel gross registered tonnage",
  "vessel year of build",
  "vessel owner",
  "secondary sanctions risk",
]);

/** Gathers what the vessel designations need from the top-level records of one file. */
export class AdvancedXmlReader {
  #sets: Sets = new Map();
  readonly #countryOfLocation = new Map<string, { name: string; iso2: string | null }>();
  readonly #docsByIdentity = new Map<string, { type: string; value: string }[]>();
  readonly #primaryName = new Map<string, string>();
  readonly #vessels: XmlNode[] = [];
  readonly #vesselIds = new Set<string>();
  readonly #relations: { from: string; to: string }[] = [];
  readonly #entries = new Map<string, AdvancedEntry>();
  readonly unread = new UnreadFields("SDN_ADVANCED vessel");

  /** The handlers for streamXmlElements, by element path. */
  handlers(): ElementHandlers {
    return {
      "Sanctions/ReferenceValueSets": (n) => this.referenceValueSets(asNode(n)),
      "Sanctions/Locations/Location": (n) => this.location(asNode(n)),
      "Sanctions/IDRegDocuments/IDRegDocument": (n) => this.idRegDocument(asNode(n)),
      "Sanctions/DistinctParties/DistinctParty": (n) => this.distinctParty(asNode(n)),
      "Sanctions/ProfileRelationships/ProfileRelationship": (n) => this.relationship(asNode(n)),
      "Sanctions/SanctionsEntries/SanctionsEntry": (n) => this.sanctionsEntry(asNode(n)),
    };
  }

  referenceValueSets(node: XmlNode): void {
    this.#sets = referenceSets(node);
  }

  location(loc: XmlNode): void {
    const countryId = attr(child(loc, "LocationCountry"), "CountryID") || attr(child(loc, "LocationAreaCode"), "AreaCodeID");
    const country = this.#sets.get("Country")?.get(countryId) ?? this.#sets.get("AreaCode")?.get(countryId);
    const partValue = children(loc, "LocationPart")
      .map((p) => text(child(p, "LocationPartValue"), "Value"))
      .find((v) => v !== "");
    const name = country?.text || partValue || "";
    if (name !== "") this.#countryOfLocation.set(attr(loc, "ID"), { name, iso2: country ? attr(country.attrs, "ISO2") || null : null });
  }

  idRegDocument(doc: XmlNode): void {
    const identity = attr(doc, "IdentityID");
    const list = this.#docsByIdentity.get(identity) ?? [];
    list.push({ type: ref(this.#sets, "IDRegDocType", attr(doc, "IDRegDocTypeID")), value: text(doc, "IDRegistrationNo") });
    this.#docsByIdentity.set(identity, list);
  }

  distinctParty(party: XmlNode): void {
    for (const profile of children(party, "Profile")) {
      for (const identity of children(profile, "Identity")) {
        const primary = children(identity, "Alias").find((a) => attr(a, "Primary") === "true");
        const name = primary ? documentedName(primary)[0] : undefined;
        if (name) this.#primaryName.set(attr(profile, "ID"), name);
      }
      if (/^vessel$/i.test(ref(this.#sets, "PartySubType", attr(profile, "PartySubTypeID")))) {
        this.#vessels.push(profile);
        this.#vesselIds.add(attr(profile, "ID"));
      }
    }
  }

  relationship(rel: XmlNode): void {
    const type = ref(this.#sets, "RelationType", attr(rel, "RelationTypeID"));
    if (type !== "" && !/owned or controlled by/i.test(type)) return;
    this.#relations.push({ from: attr(rel, "From"), to: attr(rel, "To") });
  }

  sanctionsEntry(entry: XmlNode): void {
    const profileId = attr(entry, "ProfileID");
    // Entries follow the parties (the schema's order): only vessels' entries are kept. SDN.CSV's
    // vessels are the same ent_nums, so the dates it needs are all here.
    if (!this.#vesselIds.has(profileId)) return;
    const current = this.#entries.get(profileId) ?? { programs: [], measures: [], listedAt: null };
    for (const measure of children(entry, "SanctionsMeasure")) {
      const type = ref(this.#sets, "SanctionsType", attr(measure, "SanctionsTypeID"));
      const comment = text(measure, "Comment");
      if (comment === "") continue;
      if (type === "" || /^program$/i.test(type)) current.programs.push(comment);
      else current.measures.push(comment);
    }
    const dates = children(entry, "EntryEvent").map((e) => ymd(child(e, "Date")));
    current.listedAt = earliest([current.listedAt, ...dates]);
    this.#entries.set(profileId, current);
  }

  /** Listing dates by profile id (the CSV's ent_num), to complete CSV records. */
  listingDates(): Map<string, ListingDate> {
    const dates = new Map<string, ListingDate>();
    for (const [profileId, entry] of this.#entries) {
      if (entry.listedAt) dates.set(profileId, { date: entry.listedAt, field: "SDN_ADVANCED SanctionsEntry/EntryEvent/Date" });
    }
    return dates;
  }

  designations(): Designation[] {
    const ownersOf = new Map<string, string[]>();
    for (const { from, to } of this.#relations) {
      const target = this.#primaryName.get(to);
      if (target) ownersOf.set(from, [...(ownersOf.get(from) ?? []), target]);
    }
    return this.#vessels.map((profile) => this.#designation(profile, ownersOf));
  }

  #designation(profile: XmlNode, ownersOf: Map<string, string[]>): Designation {
    const sets = this.#sets;
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
      for (const doc of this.#docsByIdentity.get(attr(identity, "ID")) ?? []) fileIdentityDocument(doc.type, doc.value, { imoValues, mmsiValues, externalIds });
    }
    const features = new Map<string, { value: string; iso2: string | null; label: string }[]>();
    for (const feature of children(profile, "Feature")) {
      const label = ref(sets, "FeatureType", attr(feature, "FeatureTypeID"));
      const type = label.toLowerCase();
      for (const version of children(feature, "FeatureVersion")) {
        const detail = child(version, "VersionDetail");
        const location = child(version, "VersionLocation");
        let value = text(detail);
        let iso2: string | null = null;
        if (value === "" && detail) value = ref(sets, "DetailReference", attr(detail, "DetailReferenceID"));
        if (value === "" && location) {
          const loc = this.#countryOfLocation.get(attr(location, "LocationID"));
          value = loc?.name ?? "";
          iso2 = loc?.iso2 ?? null;
        }
        if (value === "") {
          const date = ymd(child(child(child(version, "DatePeriod"), "Start"), "From"));
          value = date ?? "";
        }
        if (value !== "") features.set(type, [...(features.get(type) ?? []), { value, iso2, label }]);
      }
    }
    const first = (type: string) => features.get(type)?.[0];
    const all = (type: string) => (features.get(type) ?? []).map((f) => f.value);
    const unreadLines: string[] = [];
    for (const [type, values] of features) {
      if (READ_FEATURES.has(type)) continue;
      const label = values[0]!.label || "(untyped feature)";
      this.unread.saw(`Feature "${label}"`);
      unreadLines.push(...values.map((v) => `${label}: ${v.value}`));
    }
    const entry = this.#entries.get(id);
    return makeDesignation({
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
      remarks: unreadLines.length > 0 ? unreadLines.join("; ") : null,
      listedAt: entry?.listedAt ?? null,
      listedAtField: "SDN_ADVANCED SanctionsEntry/EntryEvent/Date",
      sourceUrl: OFAC_DETAILS_URL + id,
    });
  }
}

/** Reads an SDN_ADVANCED.XML file as a stream. */
export async function readAdvancedXml(file: SourceFile, chunkSize?: number): Promise<AdvancedXmlReader> {
  const reader = new AdvancedXmlReader();
  await streamXmlElements(LIST, file, reader.handlers(), chunkSize);
  return reader;
}

/** The same reader fed from a document already parsed whole (parseXml): the reference the stream is checked against. */
export function fromAdvancedXmlTree(xml: XmlNode): AdvancedXmlReader {
  const reader = new AdvancedXmlReader();
  reader.referenceValueSets(child(xml, "ReferenceValueSets") ?? {});
  for (const n of children(child(xml, "Locations"), "Location")) reader.location(n);
  for (const n of children(child(xml, "IDRegDocuments"), "IDRegDocument")) reader.idRegDocument(n);
  for (const n of children(child(xml, "DistinctParties"), "DistinctParty")) reader.distinctParty(n);
  for (const n of children(child(xml, "ProfileRelationships"), "ProfileRelationship")) reader.relationship(n);
  for (const n of children(child(xml, "SanctionsEntries"), "SanctionsEntry")) reader.sanctionsEntry(n);
  return reader;
}
