/**
 * OFAC's SDN_ADVANCED.XML (`<Sanctions>`) -> vessel designations. The only classic
 * file with designation dates: alongside the CSV it supplies just those.
 *
 * Read as a stream (AdvancedXmlReader takes one top-level record at a time: reference
 * values, locations, documents, parties, relationships, entries, in the schema's order), so
 * the ~130 MB file is never held whole. What it keeps is per vessel: their documents,
 * locations, owners' names and entries; nothing of the other parties.
 */
import { type Designation, type DesignationInput, type ExternalId, makeDesignation, parseTonnage, parseYear } from "../../../../domain/sanctions/designation.ts";
import { attr, child, children, type SourceFile, text, type XmlNode } from "../common.ts";
import { type ElementFilters, type ElementHandlers, type OpenTagHandlers, streamXmlElements } from "../xml-stream.ts";
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

type Attrs = Record<string, string>;

/** A vessel reduced to its designation as soon as its party is read; its entries and owners come later in the file. */
type VesselDraft = { id: string; fields: DesignationInput; secondaryRisk: string[] };

const LISTED_AT_FIELD = "SDN_ADVANCED SanctionsEntry/EntryEvent/Date";

/** The attributes of a parsed element, by name, as the stream's open-tag handlers get them. */
function attrsOf(node: XmlNode): Attrs {
  const out: Attrs = {};
  for (const [k, v] of Object.entries(node)) if (k.startsWith("@_")) out[k.slice(2)] = String(v);
  return out;
}

/**
 * Gathers what the vessel designations need, in two passes over the file (it is on disk).
 * The first reads only attributes: which profiles are vessels, their identities, the
 * locations their features point to, and whom they are "owned or controlled by". The second
 * then keeps the identity documents and locations of vessels only, the primary names of their
 * owners only, reduces each vessel to its designation as its party is read, and adds the
 * entries. What is kept follows the vessels, not the file: a file grown by other parties
 * (people, companies, their documents and addresses) costs time, not memory.
 */
export class AdvancedXmlReader {
  #sets: Sets = new Map();
  readonly #vesselIds = new Set<string>();
  readonly #vesselIdentities = new Set<string>();
  readonly #vesselLocations = new Set<string>();
  readonly #relations: { from: string; to: string }[] = [];
  readonly #ownerIds = new Set<string>();
  #scanning: string | null = null;
  readonly #countryOfLocation = new Map<string, { name: string; iso2: string | null }>();
  readonly #docsByIdentity = new Map<string, { type: string; value: string }[]>();
  readonly #primaryName = new Map<string, string>();
  readonly #vessels: VesselDraft[] = [];
  readonly #entries = new Map<string, AdvancedEntry>();
  readonly unread = new UnreadFields("SDN_ADVANCED vessel");

  /** First pass: the reference values, and the attributes that say which records are about vessels. */
  scanHandlers(): { elements: ElementHandlers; open: OpenTagHandlers } {
    const party = "Sanctions/DistinctParties/DistinctParty/Profile";
    return {
      elements: { "Sanctions/ReferenceValueSets": (n) => this.referenceValueSets(asNode(n)) },
      open: {
        [party]: (a) => this.scanProfile(a),
        [`${party}/Identity`]: (a) => this.scanIdentity(a),
        [`${party}/Feature/FeatureVersion/VersionLocation`]: (a) => this.scanVersionLocation(a),
        "Sanctions/ProfileRelationships/ProfileRelationship": (a) => this.scanRelationship(a),
      },
    };
  }

  /** Only what listing dates need: which profiles are vessels, and their entries (one pass). */
  datesHandlers(): { elements: ElementHandlers; open: OpenTagHandlers; keepIf: ElementFilters } {
    const entry = "Sanctions/SanctionsEntries/SanctionsEntry";
    return {
      elements: {
        "Sanctions/ReferenceValueSets": (n) => this.referenceValueSets(asNode(n)),
        [entry]: (n) => this.sanctionsEntry(asNode(n)),
      },
      open: { "Sanctions/DistinctParties/DistinctParty/Profile": (a) => this.scanProfile(a) },
      keepIf: { [entry]: (a) => this.#vesselIds.has(a.ProfileID ?? "") },
    };
  }

  /** Second pass: the records themselves, built only where they are about a vessel (told by their attributes). */
  handlers(): { elements: ElementHandlers; keepIf: ElementFilters } {
    const location = "Sanctions/Locations/Location";
    const document = "Sanctions/IDRegDocuments/IDRegDocument";
    const profile = "Sanctions/DistinctParties/DistinctParty/Profile";
    const entry = "Sanctions/SanctionsEntries/SanctionsEntry";
    return {
      elements: {
        [location]: (n) => this.location(asNode(n)),
        [document]: (n) => this.idRegDocument(asNode(n)),
        [profile]: (n) => this.profile(asNode(n)),
        [entry]: (n) => this.sanctionsEntry(asNode(n)),
      },
      keepIf: {
        [location]: (a) => this.#vesselLocations.has(a.ID ?? ""),
        [document]: (a) => this.#vesselIdentities.has(a.IdentityID ?? ""),
        [profile]: (a) => this.#vesselIds.has(a.ID ?? "") || this.#ownerIds.has(a.ID ?? ""),
        [entry]: (a) => this.#vesselIds.has(a.ProfileID ?? ""),
      },
    };
  }

  referenceValueSets(node: XmlNode): void {
    this.#sets = referenceSets(node);
  }

  scanProfile(profile: Attrs): void {
    const vessel = /^vessel$/i.test(ref(this.#sets, "PartySubType", profile.PartySubTypeID ?? ""));
    this.#scanning = vessel ? (profile.ID ?? "") : null;
    if (vessel) this.#vesselIds.add(profile.ID ?? "");
  }

  scanIdentity(identity: Attrs): void {
    if (this.#scanning !== null) this.#vesselIdentities.add(identity.ID ?? "");
  }

  scanVersionLocation(location: Attrs): void {
    if (this.#scanning !== null) this.#vesselLocations.add(location.LocationID ?? "");
  }

  scanRelationship(rel: Attrs): void {
    const from = rel.From ?? "";
    if (!this.#vesselIds.has(from)) return;
    const type = ref(this.#sets, "RelationType", rel.RelationTypeID ?? "");
    if (type !== "" && !/owned or controlled by/i.test(type)) return;
    const to = rel.To ?? "";
    this.#relations.push({ from, to });
    this.#ownerIds.add(to);
  }

  /** The first pass over a document parsed whole: the same attributes the stream hands over. */
  scanTree(xml: XmlNode): void {
    this.referenceValueSets(child(xml, "ReferenceValueSets") ?? {});
    for (const party of children(child(xml, "DistinctParties"), "DistinctParty")) {
      for (const profile of children(party, "Profile")) {
        this.scanProfile(attrsOf(profile));
        for (const identity of children(profile, "Identity")) this.scanIdentity(attrsOf(identity));
        for (const feature of children(profile, "Feature")) {
          for (const version of children(feature, "FeatureVersion")) {
            for (const location of children(version, "VersionLocation")) this.scanVersionLocation(attrsOf(location));
          }
        }
      }
    }
    for (const rel of children(child(xml, "ProfileRelationships"), "ProfileRelationship")) this.scanRelationship(attrsOf(rel));
  }

  location(loc: XmlNode): void {
    if (!this.#vesselLocations.has(attr(loc, "ID"))) return;
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
    if (!this.#vesselIdentities.has(identity)) return;
    const list = this.#docsByIdentity.get(identity) ?? [];
    list.push({ type: ref(this.#sets, "IDRegDocType", attr(doc, "IDRegDocTypeID")), value: text(doc, "IDRegistrationNo") });
    this.#docsByIdentity.set(identity, list);
  }

  /** A party's profile: a vessel becomes its draft designation; an owner of one leaves its primary name. */
  profile(profile: XmlNode): void {
    const id = attr(profile, "ID");
    if (this.#ownerIds.has(id)) {
      for (const identity of children(profile, "Identity")) {
        const primary = children(identity, "Alias").find((a) => attr(a, "Primary") === "true");
        const name = primary ? documentedName(primary)[0] : undefined;
        if (name) this.#primaryName.set(id, name);
      }
    }
    if (this.#vesselIds.has(id) && /^vessel$/i.test(ref(this.#sets, "PartySubType", attr(profile, "PartySubTypeID")))) this.#vessels.push(this.#draft(profile));
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
      if (entry.listedAt) dates.set(profileId, { date: entry.listedAt, field: LISTED_AT_FIELD });
    }
    return dates;
  }

  designations(): Designation[] {
    const ownersOf = new Map<string, string[]>();
    for (const { from, to } of this.#relations) {
      const target = this.#primaryName.get(to);
      if (target) ownersOf.set(from, [...(ownersOf.get(from) ?? []), target]);
    }
    return this.#vessels.map(({ id, fields, secondaryRisk }) => {
      const entry = this.#entries.get(id);
      return makeDesignation({
        ...fields,
        programs: entry?.programs ?? [],
        measures: [...(entry?.measures ?? []), ...secondaryRisk],
        owners: [...(fields.owners ?? []), ...(ownersOf.get(id) ?? [])],
        listedAt: entry?.listedAt ?? null,
      });
    });
  }

  /** Everything of a vessel's designation its party and the records before it give. */
  #draft(profile: XmlNode): VesselDraft {
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
    const fields: DesignationInput = {
      list: LIST,
      recordId: id,
      name,
      aliases,
      formerNames,
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
      owners: all("vessel owner"),
      remarks: unreadLines.length > 0 ? unreadLines.join("; ") : null,
      listedAtField: LISTED_AT_FIELD,
      sourceUrl: OFAC_DETAILS_URL + id,
    };
    return { id, fields, secondaryRisk: all("secondary sanctions risk") };
  }
}

/** Reads an SDN_ADVANCED.XML file as a stream, twice (see AdvancedXmlReader). */
export async function readAdvancedXml(file: SourceFile, chunkSize?: number): Promise<AdvancedXmlReader> {
  const reader = new AdvancedXmlReader();
  const scan = reader.scanHandlers();
  await streamXmlElements(LIST, file, scan.elements, chunkSize, { onOpen: scan.open });
  const records = reader.handlers();
  await streamXmlElements(LIST, file, records.elements, chunkSize, { keepIf: records.keepIf });
  return reader;
}

/** Reads only the listing dates of an SDN_ADVANCED.XML file (one pass); `designations()` is then empty. */
export async function readAdvancedXmlDates(file: SourceFile, chunkSize?: number): Promise<AdvancedXmlReader> {
  const reader = new AdvancedXmlReader();
  const pass = reader.datesHandlers();
  await streamXmlElements(LIST, file, pass.elements, chunkSize, { onOpen: pass.open, keepIf: pass.keepIf });
  return reader;
}

/** The same reader fed from a document already parsed whole (parseXml): the reference the stream is checked against. */
export function fromAdvancedXmlTree(xml: XmlNode): AdvancedXmlReader {
  const reader = new AdvancedXmlReader();
  reader.scanTree(xml);
  for (const n of children(child(xml, "Locations"), "Location")) reader.location(n);
  for (const n of children(child(xml, "IDRegDocuments"), "IDRegDocument")) reader.idRegDocument(n);
  for (const n of children(child(xml, "DistinctParties"), "DistinctParty")) for (const profile of children(n, "Profile")) reader.profile(profile);
  for (const n of children(child(xml, "SanctionsEntries"), "SanctionsEntry")) reader.sanctionsEntry(n);
  return reader;
}
