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
import {
  type Designation,
  type DesignationInput,
  type ExternalId,
  isoDate,
  makeDesignation,
  parseTonnage,
  parseYear,
  SanctionsParseError,
} from "../../../domain/sanctions/designation.ts";
import {
  attr,
  child,
  children,
  decodeText,
  describeFormat,
  detectFormat,
  type ParseOptions,
  parseCsvRows,
  parseXml,
  type SanctionsInput,
  type SourceFile,
  text,
  texts,
  toSourceFiles,
  type XmlNode,
} from "./common.ts";

const LIST = "ofac";
export const OFAC_DETAILS_URL = "https://sanctionssearch.ofac.treas.gov/Details.aspx?id=";

/** The SLS export files a full OFAC import wants (the advanced XML is large and optional). */
export const OFAC_OFFICIAL_URLS = [
  "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.CSV",
  "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ALT.CSV",
  "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN_COMMENTS.CSV",
] as const;

type OfacFileKind = "sdn-csv" | "alt-csv" | "add-csv" | "comments-csv" | "legacy-xml" | "advanced-xml" | "enhanced-xml";

type Classified = { file: SourceFile; kind: OfacFileKind; rows?: string[][]; xml?: XmlNode };

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

/** OFAC's null marker is "-0-" (with a trailing space in the real file). */
function field(value: string | undefined): string | null {
  const s = (value ?? "").trim();
  return s === "" || s === "-0-" ? null : s;
}

/** "SDGT] [IFSR" -> ["SDGT", "IFSR"]: the CSV strips the outer brackets of a bracketed list. */
export function splitOfacPrograms(value: string | null): string[] {
  if (value === null) return [];
  return value
    .split(/\]\s*\[/)
    .map((p) => p.replace(/^\[|\]$/g, "").trim())
    .filter((p) => p !== "");
}

type RemarkFacts = {
  imoValues: string[];
  mmsiValues: string[];
  aliases: string[];
  formerNames: string[];
  formerFlags: string[];
  owners: string[];
  measures: string[];
  externalIds: ExternalId[];
  yearBuilt: number | null;
};

/**
 * Reads the semicolon-separated "features" of a vessel's remarks. IMO and MMSI
 * exist only here in the CSV. A registration number that is not IMO-shaped
 * ("15411 (Malta)", "RS 150443 (Russia)") is kept as an external id, not an IMO.
 */
export function parseOfacRemarks(remarks: string | null): RemarkFacts {
  const facts: RemarkFacts = {
    imoValues: [],
    mmsiValues: [],
    aliases: [],
    formerNames: [],
    formerFlags: [],
    owners: [],
    measures: [],
    externalIds: [],
    yearBuilt: null,
  };
  if (remarks === null) return facts;

  for (const m of remarks.matchAll(/\b([afn])\.k\.a\.,?\s+'(.+?)'(?=\s*(?:;|\.?\s*$|\.\s))/g)) {
    if (m[1] === "f") facts.formerNames.push(m[2]!);
    else facts.aliases.push(m[2]!);
  }

  const rules: [RegExp, (m: RegExpExecArray) => void][] = [
    [
      /^Vessel Registration Identification\s+(.+)$/i,
      (m) => {
        const value = m[1]!.trim();
        if (/^IMO/i.test(value) || /^\d{7}(?:\s*\(.*\))?$/.test(value)) facts.imoValues.push(value.replace(/\s*\(.*\)$/, ""));
        else facts.externalIds.push({ type: "Vessel Registration Identification", value });
      },
    ],
    [/^Identification Number\s+(IMO\s*\d+)/i, (m) => facts.imoValues.push(m[1]!)],
    [/^MMSI\s+(\d+)/i, (m) => facts.mmsiValues.push(m[1]!)],
    [
      /^Former Vessel Flag\s+(.+)$/i,
      (m) => {
        if (!/^None Identified$/i.test(m[1]!)) facts.formerFlags.push(m[1]!);
      },
    ],
    [
      /^Vessel Year of Build\s+(.+)$/i,
      (m) => {
        facts.yearBuilt = parseYear(m[1]);
      },
    ],
    [/^Linked To:\s*(.+)$/i, (m) => facts.owners.push(m[1]!)],
    [/^(Other Vessel (?:Flag|Call Sign|Type))\s+(.+)$/i, (m) => facts.externalIds.push({ type: m[1]!, value: m[2]! })],
    [
      /^(?:Secondary sanctions risk:|Additional Sanctions Information\b|Transactions Prohibited For Persons\b|PEESA Information:|Effective Date\b|Listing Date\b).*$/i,
      (m) => facts.measures.push(m[0]),
    ],
  ];
  for (const rawToken of remarks.split(/;\s*/)) {
    const token = rawToken.trim().replace(/\.$/, "").trim().replace(/^alt\.\s+/i, "");
    for (const [pattern, apply] of rules) {
      const m = pattern.exec(token);
      if (m) {
        apply(m);
        break;
      }
    }
  }
  return facts;
}

function fromCsv(sdn: Classified[], alt: Classified[], comments: Classified[]): Designation[] {
  const spill = new Map<string, string>();
  for (const c of comments) for (const row of c.rows ?? []) spill.set(row[0]!.trim(), (spill.get(row[0]!.trim()) ?? "") + (row[1] ?? ""));

  const alternates = new Map<string, { type: string; name: string }[]>();
  for (const a of alt) {
    for (const row of a.rows ?? []) {
      const ent = row[0]!.trim();
      const name = field(row[3]);
      if (name === null) continue;
      const list = alternates.get(ent) ?? [];
      list.push({ type: (field(row[2]) ?? "aka").toLowerCase(), name });
      alternates.set(ent, list);
    }
  }

  const out: Designation[] = [];
  const seen = new Set<string>();
  for (const s of sdn) {
    for (const row of s.rows ?? []) {
      if ((field(row[2]) ?? "").toLowerCase() !== "vessel") continue;
      const entNum = row[0]!.trim();
      if (seen.has(entNum)) continue;
      seen.add(entNum);
      // Remarks beyond 1000 characters continue in SDN_COMMENTS.CSV mid-word or right after a
      // space: join the untrimmed halves without a separator.
      const head = field(row[11]) === null ? "" : (row[11] ?? "");
      const remarks = field(`${head}${spill.get(entNum) ?? ""}`);
      const facts = parseOfacRemarks(remarks);
      const alts = alternates.get(entNum) ?? [];
      const owner = field(row[10]);
      out.push(
        makeDesignation({
          list: LIST,
          recordId: entNum,
          name: field(row[1]) ?? "",
          programs: splitOfacPrograms(field(row[3])),
          aliases: [...facts.aliases, ...alts.filter((a) => a.type !== "fka").map((a) => a.name)],
          formerNames: [...facts.formerNames, ...alts.filter((a) => a.type === "fka").map((a) => a.name)],
          imoValues: facts.imoValues,
          mmsiValues: facts.mmsiValues,
          callSign: field(row[5]),
          vesselType: field(row[6]),
          tonnage: parseTonnage(field(row[7])),
          grossTonnage: parseTonnage(field(row[8])),
          flag: field(row[9]),
          formerFlags: facts.formerFlags,
          yearBuilt: facts.yearBuilt,
          owners: [...(owner === null ? [] : [owner]), ...facts.owners],
          measures: facts.measures,
          externalIds: facts.externalIds,
          remarks,
          sourceUrl: OFAC_DETAILS_URL + entNum,
        }),
      );
    }
  }
  return out;
}

function fromLegacyXml(xml: XmlNode): Designation[] {
  const out: Designation[] = [];
  for (const entry of children(xml, "sdnEntry")) {
    if (text(entry, "sdnType").toLowerCase() !== "vessel") continue;
    const uid = text(entry, "uid");
    if (uid === "") continue;
    const info = child(entry, "vesselInfo");
    const input: DesignationInput & { imoValues: string[]; mmsiValues: string[] } = {
      list: LIST,
      recordId: uid,
      name: [text(entry, "firstName"), text(entry, "lastName")].filter((s) => s !== "").join(" "),
      programs: texts(child(entry, "programList"), "program"),
      aliases: [],
      formerNames: [],
      imoValues: [],
      mmsiValues: [],
      formerFlags: [],
      externalIds: [],
      callSign: text(info, "callSign"),
      vesselType: text(info, "vesselType"),
      flag: text(info, "vesselFlag"),
      owners: texts(info, "vesselOwner"),
      tonnage: parseTonnage(text(info, "tonnage")),
      grossTonnage: parseTonnage(text(info, "grossRegisteredTonnage")),
      remarks: text(entry, "remarks"),
      sourceUrl: OFAC_DETAILS_URL + uid,
    };
    for (const aka of children(child(entry, "akaList"), "aka")) {
      const name = [text(aka, "firstName"), text(aka, "lastName")].filter((s) => s !== "").join(" ");
      if (/^f\.?k\.?a/i.test(text(aka, "type"))) input.formerNames!.push(name);
      else input.aliases!.push(name);
    }
    for (const id of children(child(entry, "idList"), "id")) {
      const type = text(id, "idType");
      const value = text(id, "idNumber");
      if (value === "") continue;
      if (/^MMSI$/i.test(type)) input.mmsiValues.push(value);
      else if (/^(Vessel Registration Identification|Identification Number)$/i.test(type) && /^(IMO\b|\d{7}\b)/i.test(value)) input.imoValues.push(value);
      else if (/^Former Vessel Flag$/i.test(type)) input.formerFlags!.push(value);
      else if (/^Vessel Year of Build$/i.test(type)) input.yearBuilt = parseYear(value);
      else input.externalIds!.push({ type, value });
    }
    out.push(makeDesignation(input));
  }
  return out;
}

// --- SDN_ADVANCED.XML -------------------------------------------------------

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

/** Earliest Year/Month/Day below a node, as an ISO date. */
function ymd(node: unknown): string | null {
  const year = Number(text(node, "Year"));
  const month = Number(text(node, "Month") || "1");
  const day = Number(text(node, "Day") || "1");
  return isoDate(year, month, day);
}

function earliest(dates: (string | null)[]): string | null {
  const valid = dates.filter((d): d is string => d !== null).sort();
  return valid[0] ?? null;
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

function fromAdvancedXml(xml: XmlNode): Designation[] {
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
      for (const doc of docsByIdentity.get(attr(identity, "ID")) ?? []) {
        if (/^MMSI$/i.test(doc.type)) mmsiValues.push(doc.value);
        else if (/\bIMO\s*\d/i.test(doc.value) || (/^Vessel Registration Identification$/i.test(doc.type) && /^\d{7}$/.test(doc.value))) imoValues.push(doc.value);
        else externalIds.push({ type: doc.type || "Identification", value: doc.value });
      }
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

/** Listing dates by ent_num from an advanced or enhanced XML, to complete CSV records. */
function datesFromXml(c: Classified): Map<string, { date: string; field: string }> {
  const dates = new Map<string, { date: string; field: string }>();
  if (c.kind === "advanced-xml") {
    const sets = referenceSets(c.xml!);
    for (const [profileId, entry] of advancedEntries(c.xml!, sets)) {
      if (entry.listedAt) dates.set(profileId, { date: entry.listedAt, field: "SDN_ADVANCED SanctionsEntry/EntryEvent/Date" });
    }
  } else if (c.kind === "enhanced-xml") {
    for (const entity of enhancedEntities(c.xml!)) {
      const date = enhancedDate(entity);
      if (date) dates.set(attr(entity, "id"), { date, field: "SDN_ENHANCED sanctionsList/@datePublished" });
    }
  }
  return dates;
}

// --- SDN_ENHANCED.XML -------------------------------------------------------

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

function fromEnhancedXml(xml: XmlNode): Designation[] {
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
      if (value === "") continue;
      if (/^MMSI$/i.test(type)) mmsiValues.push(value);
      else if (/\bIMO\s*\d/i.test(value) || (/^Vessel Registration Identification$/i.test(type) && /^\d{7}$/.test(value))) imoValues.push(value);
      else externalIds.push({ type: type || "Identification", value });
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
    const designations = fromCsv(sdn, of("alt-csv"), of("comments-csv"));
    const dateSources = [...advanced, ...enhanced];
    if (dateSources.length === 0) return designations;
    const dates = new Map<string, { date: string; field: string }>();
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
