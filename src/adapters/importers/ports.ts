/**
 * Ports: every UN/LOCODE location with the port function, joined with the
 * World Port Index (NGA Pub 150). datasets/unlocode/README.md describes the data
 * defects behind these rules.
 *
 * - Base: the UNECE UN/LOCODE 2018-1 code list, the newest complete and correctly
 *   encoded edition available. A location is a port when its function classifier
 *   has '1' in the first position.
 * - Later codes: the 2024 geoapify export adds codes that have the port function
 *   in 2024 but not in 2018-1 (new codes, and older codes that gained the port
 *   function). Only rows flagged exactly `ok` or `name_diacritics_lost` are used:
 *   in `shifted_columns` rows every field after the name is misplaced (and their
 *   coordinates were geocoded from the broken name); `invalid_coords` rows are all
 *   shifted too. `name_diacritics_lost` rows keep their location, function and
 *   coordinates intact, so they are used, and their name is taken from the 2018-1
 *   row of the same code when it names the same place, else from
 *   `nameWoDiacritics` (noted in `notes`). Skipping them would lose real ports.
 *   Names with "?" in place of a letter (another upstream decoding loss, some
 *   flagged `ok`) are treated the same way.
 * - One record per UN/LOCODE. UNECE lists bilingual places twice under one code
 *   ("Mariehamn (Maarianhamina)" / "Maarianhamina (Mariehamn)"); the preferred row
 *   is the one not marked for deletion, then the one with valid coordinates, then
 *   the most recent Date, then the first in file order. The other rows' names go
 *   to `alternateNames`. The 2024 file's duplicates are resolved alike (an `ok` row
 *   before a `name_diacritics_lost` one, then UNECE coordinates, then file order).
 * - A 2024 row is only used for a 2018-1 code when it describes the same place:
 *   UNECE has reused withdrawn codes (BRPCE was Pecém, in 2024 it is Paulicéia,
 *   2,400 km away). Same place = the names match after normalisation (or one
 *   contains the other); failing that, the 2024 UNECE position within 100 km of the
 *   2018-1 one (or of the WPI port's); failing that (no positions to compare),
 *   names similar by bigram overlap (Chumporn / Chumphon).
 * - Coordinates, first that exists: UNECE coordinates from the 2024 edition (they
 *   correct sign and typing errors of 2018-1, e.g. JPTTK "13934W" -> "13934E"),
 *   UNECE coordinates from 2018-1, the WPI port with the same UN/LOCODE, then
 *   coordinates the 2024 file marks `geoapify_geocoded` (OpenStreetMap-derived and
 *   geocoded from the name, so of low quality: kept and labelled `geoapify` for the
 *   rights rules to withhold).
 */
import { join } from "node:path";
import { parseUnlocode } from "../../domain/identifiers.ts";
import { readSource } from "./read-source.ts";
import { describeCoordinateRejection, type LatLon, parseUnlocodeCoordinates, validLatLon } from "./unlocode-coordinates.ts";

export type CoordSource = "unlocode" | "wpi" | "geoapify";

/** Harbour facts of the World Port Index row matched on UN/LOCODE. Measurements in metres; null when WPI gives none. */
export type WpiFacts = {
  number: number;
  name: string;
  alternateName: string | null;
  regionName: string | null;
  countryName: string | null;
  waterBody: string | null;
  harborSize: string | null;
  harborType: string | null;
  harborUse: string | null;
  shelter: string | null;
  tidalRangeM: number | null;
  entranceWidthM: number | null;
  channelDepthM: number | null;
  anchorageDepthM: number | null;
  cargoPierDepthM: number | null;
  oilTerminalDepthM: number | null;
  lngTerminalDepthM: number | null;
  maxVesselLengthM: number | null;
  maxVesselBeamM: number | null;
  maxVesselDraftM: number | null;
  offshoreMaxVesselLengthM: number | null;
  offshoreMaxVesselBeamM: number | null;
  offshoreMaxVesselDraftM: number | null;
  firstPortOfEntry: boolean | null;
  pilotageCompulsory: boolean | null;
  tugsAvailable: boolean | null;
  /** Facility columns WPI answers "Yes", e.g. ["wharves", "container", "ro-ro"]. */
  facilities: string[];
  repairs: string | null;
  dryDock: string | null;
  railway: string | null;
  sailingDirections: string | null;
  lat: number | null;
  lon: number | null;
  /** Other WPI ports that carry the same UN/LOCODE (WPI has 29 such codes). */
  otherNumbers: number[];
};

export type PortRecord = {
  unlocode: string;
  country: string;
  location: string;
  name: string;
  nameAscii: string;
  /** Names of the other rows UNECE lists under the same code (bilingual names). */
  alternateNames: string[];
  subdivision: string | null;
  subdivisionName: string | null;
  /** UNECE function classifier string, e.g. "1-3-----". */
  functions: string;
  functionNames: string[];
  status: string | null;
  iata: string | null;
  /** UNECE Date column, YYMM, of the last change (2018-1 rows only; the 2024 export dropped it). */
  changed: string | null;
  /** UNECE Remarks column (2018-1 rows only), e.g. "USE BR PEC". */
  remarks: string | null;
  /** Which file the row came from. */
  edition: "2018-1" | "2024";
  /**
   * What the 2024 file says about this code: still a port, no longer a port, not in
   * the file at all, only in damaged rows, or reused for another place. Null when no
   * 2024 data was given. ("absent" needs the 2024 rows of every 2018-1 port code,
   * which the bundled subset has; with only the port-function rows it means
   * "absent or no longer a port".)
   */
  in2024: "port" | "not-a-port" | "absent" | "damaged" | "different-location" | null;
  lat: number | null;
  lon: number | null;
  coordSource: CoordSource | null;
  /** For coordSource "unlocode": the edition whose coordinates were used. */
  coordEdition: "2018-1" | "2024" | null;
  wpi: WpiFacts | null;
  /** Human-readable caveats: rejected or corrected coordinates, repaired names, deletion marks. */
  notes: string[];
};

export type PortsInput = {
  /** UNECE 2018-1 code list CSV (with the header row, or UNECE's headerless 12-column layout). */
  unlocode2018: Buffer;
  /** The 2024 geoapify export (whole file or any subset of its rows, same columns). */
  unlocode2024?: Buffer;
  /** NGA World Port Index "UpdatedPub150.csv". */
  wpi?: Buffer;
  /** UNECE subdivision codes (SUCountry, SUCode, SUName, SUType). */
  subdivisions?: Buffer;
};

/** Bundled files, relative to the datasets directory. */
export const BUNDLED_PORT_FILES = {
  unlocode2018: "unlocode/unece_unlocode_2018-1_raw.csv.gz",
  unlocode2024: "unlocode/unlocode_geoapify_2024_port-relevant.csv.gz",
  wpi: "ports/wpi_UpdatedPub150.csv.gz",
  subdivisions: "unlocode/unece_subdivision-codes.csv",
} as const;

export async function loadBundledPorts(datasetsDir: string): Promise<PortRecord[]> {
  const [unlocode2018, unlocode2024, wpi, subdivisions] = await Promise.all([
    readSource(join(datasetsDir, BUNDLED_PORT_FILES.unlocode2018)),
    readSource(join(datasetsDir, BUNDLED_PORT_FILES.unlocode2024)),
    readSource(join(datasetsDir, BUNDLED_PORT_FILES.wpi)),
    readSource(join(datasetsDir, BUNDLED_PORT_FILES.subdivisions)),
  ]);
  return parsePorts({ unlocode2018, unlocode2024, wpi, subdivisions });
}

// Function classifier positions (UNECE UN/LOCODE manual, 2018 layout): the
// character at position i means the function when it is not "-". A "0" in the
// first position means "function not known, to be specified".
const FUNCTION_NAMES: Record<string, string> = {
  "0": "function not known",
  "1": "port",
  "2": "rail terminal",
  "3": "road terminal",
  "4": "airport",
  "5": "postal exchange office",
  "6": "multimodal facility",
  "7": "fixed transport installation",
  "8": "inland water port",
  A: "special economic zone",
  B: "border crossing",
};

export function functionNamesOf(functions: string): string[] {
  const names: string[] = [];
  for (const ch of functions) {
    if (ch === "-") continue;
    const name = FUNCTION_NAMES[ch];
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

const FUNCTION_PATTERN = /^[0-9A-Z-]{8}$/;

type Row2018 = {
  code: string;
  country: string;
  location: string;
  change: string;
  name: string;
  nameAscii: string;
  subdivision: string;
  functions: string;
  status: string;
  date: string;
  iata: string;
  coordinates: string;
  remarks: string;
  index: number;
};

type Row2024 = {
  code: string;
  country: string;
  location: string;
  name: string;
  nameAscii: string;
  subdivision: string;
  status: string;
  functions: string;
  iata: string;
  lat: string;
  lon: string;
  coordSource: string;
  unece: string;
  /** Flagged exactly `ok` or `name_diacritics_lost`, with a well-formed function classifier. */
  trusted: boolean;
  flagOk: boolean;
  nameBroken: boolean;
  asciiBroken: boolean;
  index: number;
};

type WpiRow = { code: string; mainName: string; altName: string; facts: WpiFacts };

export function parsePorts(input: PortsInput): PortRecord[] {
  const rows2024 = input.unlocode2024 === undefined ? null : read2024(input.unlocode2024);
  // Non-port 2018-1 rows matter only for codes that are ports in 2024 (their names);
  // keeping just those avoids holding ~90,000 rows that are then thrown away.
  const portCodes2024 = new Set((rows2024 ?? []).filter((r) => r.trusted && r.functions.startsWith("1")).map((r) => r.code));
  const rows2018 = read2018(input.unlocode2018, portCodes2024);
  const wpiByCode = input.wpi === undefined ? new Map<string, WpiRow[]>() : readWpi(input.wpi);
  const subdivisionNames = input.subdivisions === undefined ? new Map<string, string>() : readSubdivisions(input.subdivisions);

  const byCode2018 = groupBy(rows2018, (r) => r.code);
  const trusted2024 = new Map<string, Row2024[]>();
  const damaged2024 = new Set<string>();
  for (const row of rows2024 ?? []) {
    if (row.trusted) push(trusted2024, row.code, row);
    else damaged2024.add(row.code);
  }

  const chosenWpi = new Map<string, WpiRow | null>();
  const chooseWpi = (code: string, names: string[]): WpiRow | null => {
    if (!chosenWpi.has(code)) {
      const rows = wpiByCode.get(code);
      chosenWpi.set(code, rows ? pickWpi(rows, names) : null);
    }
    return chosenWpi.get(code) ?? null;
  };

  const records: PortRecord[] = [];
  // The 2024 rows describing the same place as each record, for the geocoded fallback.
  const laterRows = new Map<string, Row2024[]>();
  const portCodes2018 = new Set<string>();
  for (const [code, group] of byCode2018) {
    const ports = group.filter((r) => r.functions.startsWith("1"));
    if (ports.length === 0) continue;
    portCodes2018.add(code);
    const primary = ports.reduce((best, r) => (prefer2018(r, best) ? r : best));
    const own = parseUnlocodeCoordinates(primary.coordinates);
    const names = ports.map((r) => r.nameAscii || r.name);
    const wpi = chooseWpi(code, [...names, ...ports.map((r) => r.name)]);
    const reference = own ?? (wpi && wpi.facts.lat !== null && wpi.facts.lon !== null ? { lat: wpi.facts.lat, lon: wpi.facts.lon } : null);
    const candidates = trusted2024.get(code) ?? [];
    const later = candidates.filter((r) => samePlace(names, reference, r));
    laterRows.set(code, later);
    let in2024: PortRecord["in2024"] = null;
    if (rows2024) {
      if (later.some((r) => r.functions.startsWith("1"))) in2024 = "port";
      else if (later.length > 0) in2024 = "not-a-port";
      else if (candidates.length > 0) in2024 = "different-location";
      else if (damaged2024.has(code)) in2024 = "damaged";
      else in2024 = "absent";
    }
    const notes: string[] = [];
    if (primary.change === "X") notes.push("marked for deletion in the 2018-1 edition (change indicator X)");
    if (in2024 === "different-location") {
      notes.push(`the 2024 edition uses this code for another place ("${candidates[0]!.nameAscii || candidates[0]!.name}")`);
    }
    const record: PortRecord = {
      unlocode: code,
      country: primary.country,
      location: primary.location,
      name: primary.name,
      nameAscii: primary.nameAscii || primary.name,
      alternateNames: otherNames(primary.name, ports.map((r) => r.name)),
      subdivision: primary.subdivision || null,
      subdivisionName: subdivisionNames.get(`${primary.country}|${primary.subdivision}`) ?? null,
      functions: primary.functions,
      functionNames: functionNamesOf(primary.functions),
      status: primary.status || null,
      iata: primary.iata || null,
      changed: /^\d{4}$/.test(primary.date) ? primary.date : null,
      remarks: primary.remarks || null,
      edition: "2018-1",
      in2024,
      lat: null,
      lon: null,
      coordSource: null,
      coordEdition: null,
      wpi: null,
      notes,
    };
    if (primary.coordinates && !own) {
      notes.push(`2018-1 coordinates "${primary.coordinates}" rejected: ${describeCoordinateRejection(primary.coordinates)}`);
    }
    const newer = uneceCoordinatesOf(later, record.nameAscii);
    if (newer) {
      setCoordinates(record, newer.at, "unlocode", "2024");
      if (own && (own.lat !== newer.at.lat || own.lon !== newer.at.lon)) {
        notes.push(`coordinates corrected by the 2024 edition ("${newer.text}"; 2018-1 had "${primary.coordinates}")`);
      }
    } else if (own) {
      setCoordinates(record, own, "unlocode", "2018-1");
    }
    records.push(record);
  }

  // Codes that are ports only in the 2024 edition.
  for (const [code, group] of trusted2024) {
    if (portCodes2018.has(code)) continue;
    const ports = group.filter((r) => r.functions.startsWith("1"));
    if (ports.length === 0) continue;
    const primary = ports.reduce((best, r) => (prefer2024(r, best) ? r : best));
    const naming = name2024(primary, byCode2018.get(code));
    if (!naming) continue; // no readable name in either edition: not worth a record
    const others = ports.filter((r) => r !== primary && !r.nameBroken).map((r) => r.name);
    const record: PortRecord = {
      unlocode: code,
      country: primary.country,
      location: primary.location,
      name: naming.name,
      nameAscii: naming.nameAscii,
      alternateNames: otherNames(naming.name, others),
      subdivision: primary.subdivision || null,
      subdivisionName: subdivisionNames.get(`${primary.country}|${primary.subdivision}`) ?? null,
      functions: primary.functions,
      functionNames: functionNamesOf(primary.functions),
      status: primary.status || null,
      iata: primary.iata || null,
      changed: null,
      remarks: null,
      edition: "2024",
      in2024: "port",
      lat: null,
      lon: null,
      coordSource: null,
      coordEdition: null,
      wpi: null,
      notes: naming.note ? [naming.note] : [],
    };
    const sameCode = [primary, ...group.filter((r) => r !== primary)];
    laterRows.set(code, sameCode);
    const unece = uneceCoordinatesOf(sameCode, record.nameAscii);
    if (unece) setCoordinates(record, unece.at, "unlocode", "2024");
    records.push(record);
  }

  // WPI facts for every matched port, WPI coordinates where UN/LOCODE has none,
  // then the geocoded coordinates as the last resort.
  for (const record of records) {
    const chosen = chooseWpi(record.unlocode, [record.name, record.nameAscii, ...record.alternateNames]);
    if (chosen) {
      const others = (wpiByCode.get(record.unlocode) ?? []).filter((c) => c !== chosen);
      record.wpi = { ...chosen.facts, otherNumbers: others.map((c) => c.facts.number) };
      if (record.coordSource === null && chosen.facts.lat !== null && chosen.facts.lon !== null) {
        setCoordinates(record, { lat: chosen.facts.lat, lon: chosen.facts.lon }, "wpi", null);
      }
    }
    if (record.coordSource === null) {
      const geocoded = geocodedOf(laterRows.get(record.unlocode) ?? [], record.nameAscii);
      if (geocoded) setCoordinates(record, geocoded, "geoapify", null);
    }
  }

  records.sort((a, b) => (a.unlocode < b.unlocode ? -1 : a.unlocode > b.unlocode ? 1 : 0));
  return records;
}

function setCoordinates(record: PortRecord, at: LatLon, source: CoordSource, edition: PortRecord["coordEdition"]): void {
  record.lat = at.lat;
  record.lon = at.lon;
  record.coordSource = source;
  record.coordEdition = edition;
}

// ---------------------------------------------------------------- UN/LOCODE 2018-1

const UNECE_COLUMNS = [
  "Change",
  "Country",
  "Location",
  "Name",
  "NameWoDiacritics",
  "Subdivision",
  "Function",
  "Status",
  "Date",
  "IATA",
  "Coordinates",
  "Remarks",
] as const;

/** Rows with the port function, plus the rows of the codes in `alsoKeep`. */
function read2018(bytes: Buffer, alsoKeep: Set<string>): Row2018[] {
  const label = "UN/LOCODE 2018-1 code list";
  const records = parseCsv(bytes, label);
  const first = records[0] ?? [];
  // UNECE's own downloads have no header row; the bundled copy has one. Recognise
  // the headerless layout by its 12 columns and a country code in the second.
  const headerless = !first.includes("Location") && first.length === 12 && /^[A-Z]{2}$/.test(first[1] ?? "");
  const header = headerless ? [...UNECE_COLUMNS] : first;
  const col = columns(header, UNECE_COLUMNS, label);
  const rows: Row2018[] = [];
  let locations = 0;
  for (let i = headerless ? 0 : 1; i < records.length; i++) {
    const r = records[i]!;
    const location = cell(r, col.Location);
    if (!location) continue; // country header rows (".ANDORRA") have no location
    const country = cell(r, col.Country);
    const code = parseUnlocode(country + location);
    if (!code || code !== country + location) continue;
    const functions = cell(r, col.Function);
    if (!FUNCTION_PATTERN.test(functions)) continue;
    locations++;
    if (!functions.startsWith("1") && !alsoKeep.has(code)) continue;
    rows.push({
      code,
      country,
      location,
      change: cell(r, col.Change),
      name: cell(r, col.Name),
      nameAscii: cell(r, col.NameWoDiacritics),
      subdivision: cell(r, col.Subdivision),
      functions,
      status: cell(r, col.Status),
      date: cell(r, col.Date),
      iata: cell(r, col.IATA),
      coordinates: cell(r, col.Coordinates),
      remarks: cell(r, col.Remarks),
      index: i,
    });
  }
  if (!rows.some((r) => r.functions.startsWith("1"))) {
    throw new Error(`${label}: no location with the port function found in ${locations} rows; is this a UN/LOCODE code list?`);
  }
  return rows;
}

function prefer2018(a: Row2018, b: Row2018): boolean {
  const keys = (r: Row2018): number[] => [
    r.change === "X" ? 0 : 1,
    parseUnlocodeCoordinates(r.coordinates) ? 1 : 0,
    yymmOrder(r.date),
    -r.index,
  ];
  return compareKeys(keys(a), keys(b)) > 0;
}

// UN/LOCODE dates start in the 1990s, so YY >= 90 is 19YY.
function yymmOrder(date: string): number {
  if (!/^\d{4}$/.test(date)) return 0;
  const yy = Number(date.slice(0, 2));
  return (yy >= 90 ? 1900 + yy : 2000 + yy) * 100 + Number(date.slice(2));
}

// ---------------------------------------------------------------- UN/LOCODE 2024 (geoapify export)

const COLUMNS_2024 = [
  "unlocode",
  "country",
  "location",
  "name",
  "nameWoDiacritics",
  "subdivision",
  "status",
  "function",
  "iata",
  "lat",
  "lon",
  "coord_source",
  "coordinates_unece_reconstructed",
  "quality_flag",
] as const;

function read2024(bytes: Buffer): Row2024[] {
  const label = "UN/LOCODE 2024 (geoapify export)";
  const records = parseCsv(bytes, label);
  const col = columns(records[0] ?? [], COLUMNS_2024, label);
  const rows: Row2024[] = [];
  for (let i = 1; i < records.length; i++) {
    const r = records[i]!;
    const country = cell(r, col.country);
    const location = cell(r, col.location);
    const code = parseUnlocode(country + location);
    if (!code || code !== country + location) continue;
    const flag = cell(r, col.quality_flag); // combined defects ("a|b") are never trusted
    const functions = cell(r, col.function);
    const name = cell(r, col.name);
    const nameAscii = cell(r, col.nameWoDiacritics);
    const trusted = (flag === "ok" || flag === "name_diacritics_lost") && FUNCTION_PATTERN.test(functions);
    rows.push({
      code,
      country,
      location,
      name,
      nameAscii,
      subdivision: cell(r, col.subdivision),
      status: cell(r, col.status),
      functions,
      iata: cell(r, col.iata),
      lat: cell(r, col.lat),
      lon: cell(r, col.lon),
      coordSource: cell(r, col.coord_source),
      unece: cell(r, col.coordinates_unece_reconstructed),
      trusted,
      flagOk: trusted && flag === "ok",
      // The flag is the curator's verdict; the character check also catches the
      // "?"-for-a-letter losses that some `ok` rows carry (CZKAD "Kada?").
      nameBroken: flag === "name_diacritics_lost" || brokenText(name),
      asciiBroken: brokenText(nameAscii),
      index: i,
    });
  }
  if (rows.length === 0) throw new Error(`${label}: no UN/LOCODE rows found`);
  return rows;
}

function prefer2024(a: Row2024, b: Row2024): boolean {
  const keys = (r: Row2024): number[] => [r.flagOk && !r.nameBroken ? 1 : 0, r.coordSource === "unece" ? 1 : 0, -r.index];
  return compareKeys(keys(a), keys(b)) > 0;
}

/** UNECE coordinates among trusted 2024 rows; on disagreement the row named like the port wins. */
function uneceCoordinatesOf(rows: Row2024[], nameAscii: string): { at: LatLon; text: string } | null {
  const usable = rows.filter((r) => r.coordSource === "unece" && parseUnlocodeCoordinates(r.unece));
  if (usable.length === 0) return null;
  const row = usable.find((r) => namesMatch(r.nameAscii || r.name, nameAscii)) ?? usable[0]!;
  return { at: parseUnlocodeCoordinates(row.unece)!, text: row.unece };
}

function geocodedOf(rows: Row2024[], nameAscii: string): LatLon | null {
  const usable = rows.filter((r) => r.coordSource === "geoapify_geocoded");
  const row = usable.find((r) => namesMatch(r.nameAscii || r.name, nameAscii)) ?? usable[0];
  if (!row || row.lat === "" || row.lon === "") return null;
  return validLatLon(Number(row.lat), Number(row.lon));
}

function name2024(row: Row2024, older: Row2018[] | undefined): { name: string; nameAscii: string; note?: string } | null {
  if (!row.nameBroken) {
    return { name: row.name, nameAscii: row.asciiBroken || !row.nameAscii ? stripDiacritics(row.name) : row.nameAscii };
  }
  const broken = row.asciiBroken || !row.nameAscii ? row.name : row.nameAscii;
  const same = older?.find((r) => namesMatch(r.nameAscii || r.name, broken) || namesSimilar(r.nameAscii || r.name, broken));
  if (same) {
    return {
      name: same.name,
      nameAscii: same.nameAscii || same.name,
      note: "name taken from the 2018-1 edition (the 2024 file lost its diacritics)",
    };
  }
  if (row.asciiBroken || !row.nameAscii) return null;
  return { name: row.nameAscii, nameAscii: row.nameAscii, note: "name without diacritics (the 2024 file lost them)" };
}

function brokenText(value: string): boolean {
  return value.includes("\uFFFD") || value.includes("?");
}

/**
 * Whether a 2024 row describes the same place as the 2018-1 entry of its code (see
 * the module comment). `reference` is the 2018-1 position, else the WPI port's.
 */
function samePlace(names2018: string[], reference: LatLon | null, row: Row2024): boolean {
  const name = row.asciiBroken || !row.nameAscii ? row.name : row.nameAscii;
  if (names2018.some((n) => namesMatch(n, name))) return true;
  const position = row.coordSource === "unece" ? parseUnlocodeCoordinates(row.unece) : null;
  if (reference && position) return distanceKm(reference, position) <= 100;
  return names2018.some((n) => namesSimilar(n, name));
}

function namesMatch(a: string, b: string): boolean {
  if (brokenText(b) && !brokenText(a)) return brokenNameMatches(a, b);
  if (brokenText(a) && !brokenText(b)) return brokenNameMatches(b, a);
  const x = normaliseName(a);
  const y = normaliseName(b);
  if (!x || !y) return false;
  return x === y || (Math.min(x.length, y.length) >= 4 && (x.includes(y) || y.includes(x)));
}

// "Sar?seki" / "Timb\uFFFDes": each lost character stood for one accented letter
// (two when a UTF-8 sequence was split), so it matches one or two letters.
function brokenNameMatches(clean: string, broken: string): boolean {
  const parts = stripDiacritics(broken)
    .toLowerCase()
    .split(/[?\uFFFD]/)
    .map((p) => p.replace(/[^a-z0-9]/g, ""));
  const pattern = new RegExp(`^${parts.join("[a-z0-9]{0,2}")}$`);
  return pattern.test(normaliseName(clean));
}

// Dice coefficient over letter bigrams: catches respellings (Meklong / Mae Klong,
// Kiliya / Kiliia) that exact matching misses.
function namesSimilar(a: string, b: string): boolean {
  const x = bigrams(normaliseName(a));
  const y = bigrams(normaliseName(b));
  if (x.length === 0 || y.length === 0) return false;
  const pool = [...y];
  let common = 0;
  for (const g of x) {
    const i = pool.indexOf(g);
    if (i >= 0) {
      common++;
      pool.splice(i, 1);
    }
  }
  return (2 * common) / (x.length + y.length) >= 0.5;
}

function bigrams(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < s.length; i++) out.push(s.slice(i, i + 2));
  return out;
}

function distanceKm(a: LatLon, b: LatLon): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

// ---------------------------------------------------------------- World Port Index

const WPI_REQUIRED = ["World Port Index Number", "Main Port Name", "UN/LOCODE", "Latitude", "Longitude"] as const;

// Boolean "Facilities - X" columns and the name they get in `facilities`.
const WPI_FACILITIES: Array<[string, string]> = [
  ["Facilities - Wharves", "wharves"],
  ["Facilities - Anchorage", "anchorage"],
  ["Facilities - Dangerous Cargo Anchorage", "dangerous cargo anchorage"],
  ["Facilities - Med Mooring", "med mooring"],
  ["Facilities - Beach Mooring", "beach mooring"],
  ["Facilities - Ice Mooring", "ice mooring"],
  ["Facilities - Ro-Ro", "ro-ro"],
  ["Facilities - Solid Bulk", "solid bulk"],
  ["Facilities - Liquid Bulk", "liquid bulk"],
  ["Facilities - Container", "container"],
  ["Facilities - Breakbulk", "breakbulk"],
  ["Facilities - Oil Terminal", "oil terminal"],
  ["Facilities - LNG Terminal", "lng terminal"],
  ["Facilities - Other", "other"],
];

function readWpi(bytes: Buffer): Map<string, WpiRow[]> {
  const label = "World Port Index (Pub 150)";
  const records = parseCsv(bytes, label);
  const header = records[0] ?? [];
  columns(header, WPI_REQUIRED, label);
  const index = new Map(header.map((h, i) => [h.trim(), i]));
  const at = (r: string[], name: string): string => {
    const i = index.get(name);
    return i === undefined ? "" : cell(r, i);
  };
  const byCode = new Map<string, WpiRow[]>();
  let rowCount = 0;
  for (let i = 1; i < records.length; i++) {
    const r = records[i]!;
    rowCount++;
    // WPI writes "US ANP"; a few rows have no space, "LB" or stray quotes: those fail parseUnlocode.
    const code = parseUnlocode(at(r, "UN/LOCODE"));
    const number = wpiNumber(at(r, "World Port Index Number"));
    if (!code || number === null) continue;
    const lat = wpiNumber(at(r, "Latitude"));
    const lon = wpiNumber(at(r, "Longitude"));
    const position = lat !== null && lon !== null && !(lat === 0 && lon === 0) ? validLatLon(round6(lat), round6(lon)) : null;
    const facts: WpiFacts = {
      number,
      name: at(r, "Main Port Name"),
      alternateName: text(at(r, "Alternate Port Name")),
      regionName: text(at(r, "Region Name")),
      countryName: text(at(r, "Country Code")), // NGA's "Country Code" column holds the country name
      waterBody: text(at(r, "World Water Body")),
      harborSize: text(at(r, "Harbor Size")),
      harborType: text(at(r, "Harbor Type")),
      harborUse: text(at(r, "Harbor Use")),
      shelter: text(at(r, "Shelter Afforded")),
      tidalRangeM: measure(at(r, "Tidal Range (m)")),
      entranceWidthM: measure(at(r, "Entrance Width (m)")),
      channelDepthM: measure(at(r, "Channel Depth (m)")),
      anchorageDepthM: measure(at(r, "Anchorage Depth (m)")),
      cargoPierDepthM: measure(at(r, "Cargo Pier Depth (m)")),
      oilTerminalDepthM: measure(at(r, "Oil Terminal Depth (m)")),
      lngTerminalDepthM: measure(at(r, "Liquified Natural Gas Terminal Depth (m)")),
      maxVesselLengthM: measure(at(r, "Maximum Vessel Length (m)")),
      maxVesselBeamM: measure(at(r, "Maximum Vessel Beam (m)")),
      maxVesselDraftM: measure(at(r, "Maximum Vessel Draft (m)")),
      offshoreMaxVesselLengthM: measure(at(r, "Offshore Maximum Vessel Length (m)")),
      offshoreMaxVesselBeamM: measure(at(r, "Offshore Maximum Vessel Beam (m)")),
      offshoreMaxVesselDraftM: measure(at(r, "Offshore Maximum Vessel Draft (m)")),
      firstPortOfEntry: yesNo(at(r, "First Port of Entry")),
      pilotageCompulsory: yesNo(at(r, "Pilotage - Compulsory")),
      tugsAvailable: yesNo(at(r, "Tugs - Assistance")),
      facilities: WPI_FACILITIES.filter(([column]) => yesNo(at(r, column)) === true).map(([, name]) => name),
      repairs: text(at(r, "Repairs")),
      dryDock: text(at(r, "Dry Dock")),
      railway: text(at(r, "Railway")),
      sailingDirections: text(at(r, "Sailing Direction or Publication")),
      lat: position?.lat ?? null,
      lon: position?.lon ?? null,
      otherNumbers: [],
    };
    push(byCode, code, { code, mainName: facts.name, altName: facts.alternateName ?? "", facts });
  }
  if (byCode.size === 0) throw new Error(`${label}: none of its ${rowCount} rows has a usable UN/LOCODE and port number`);
  return byCode;
}

/** Among WPI ports sharing a code, the one named like the UN/LOCODE entry, else the lowest WPI number. */
function pickWpi(candidates: WpiRow[], names: string[]): WpiRow {
  const wanted = names.map(normaliseName).filter(Boolean);
  const score = (c: WpiRow): number => {
    const own = [normaliseName(c.mainName), normaliseName(c.altName)].filter(Boolean);
    if (own.some((n) => wanted.includes(n))) return 2;
    if (own.some((n) => wanted.some((w) => w.includes(n) || n.includes(w)))) return 1;
    return 0;
  };
  return candidates.reduce((best, c) => {
    const d = score(c) - score(best);
    return d > 0 || (d === 0 && c.facts.number < best.facts.number) ? c : best;
  });
}

// NGA's ArcGIS export writes every number as a float and every missing number as 0.0,
// so 0 cannot mean a real zero depth or length: it is read as "not given".
function measure(value: string): number | null {
  const n = wpiNumber(value);
  return n === null || n === 0 ? null : n;
}

function wpiNumber(value: string): number | null {
  if (value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

function yesNo(value: string): boolean | null {
  return value === "Yes" ? true : value === "No" ? false : null;
}

function text(value: string): string | null {
  const s = value.trim();
  return s === "" || s === "Unknown" ? null : s;
}

function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

// ---------------------------------------------------------------- subdivisions

function readSubdivisions(bytes: Buffer): Map<string, string> {
  const label = "UN/LOCODE subdivision codes";
  const records = parseCsv(bytes, label);
  const col = columns(records[0] ?? [], ["SUCountry", "SUCode", "SUName"] as const, label);
  const names = new Map<string, string>();
  for (let i = 1; i < records.length; i++) {
    const r = records[i]!;
    const key = `${cell(r, col.SUCountry)}|${cell(r, col.SUCode)}`;
    // A handful of codes are listed twice (IN-JK, MA-CHT, ...): the first name wins.
    if (!names.has(key)) names.set(key, cell(r, col.SUName));
  }
  if (names.size === 0) throw new Error(`${label}: no rows`);
  return names;
}

// ---------------------------------------------------------------- CSV plumbing

/**
 * Parses CSV bytes into rows, refusing input that cannot be the expected text
 * file, so a wrong or corrupt file fails loudly instead of yielding no ports.
 */
function parseCsv(bytes: Buffer, label: string): string[][] {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${label}: expected the file's bytes as a Buffer`);
  if (bytes.length === 0) throw new Error(`${label}: the file is empty`);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    throw new Error(`${label}: the data is still gzip-compressed (readSource() decompresses it)`);
  }
  if (bytes.includes(0)) throw new Error(`${label}: binary data (NUL bytes), not a CSV text file`);
  let content: string;
  try {
    content = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // UNECE's own downloads have been published in Latin-1; a decode that is
    // wrong for other input still fails on the header check below.
    content = Buffer.from(bytes).toString("latin1");
  }
  if (content.charCodeAt(0) === 0xfeff) content = content.slice(1);
  if (content.trim() === "") throw new Error(`${label}: the file is empty`);
  try {
    return parseCsvText(content);
  } catch (err) {
    throw new Error(`${label}: not a readable CSV file (${(err as Error).message})`, { cause: err });
  }
}

/**
 * Strict RFC 4180 reader: comma-separated, CRLF or LF line ends, double quotes
 * around fields that hold commas, quotes ("" inside) or line breaks; empty lines
 * skipped; rows may differ in length. It exists because csv-parse needs 2-3 s for
 * the 7 MB UN/LOCODE file and this runs at first start; this reader takes a tenth
 * of that and gives identical rows on the bundled files (tested). Malformed
 * quoting throws, as csv-parse does by default.
 */
export function parseCsvText(text: string): string[][] {
  const rows: string[][] = [];
  const n = text.length;
  let pos = 0;
  let nextQuote = -1; // position of the next quote at or after pos, or n when none is left
  while (pos < n) {
    let eol = text.indexOf("\n", pos);
    if (eol < 0) eol = n;
    const end = eol > pos && text.charCodeAt(eol - 1) === CR ? eol - 1 : eol;
    if (nextQuote < pos) {
      nextQuote = text.indexOf(QUOTE_CHAR, pos);
      if (nextQuote < 0) nextQuote = n;
    }
    // Most lines have no quotes: a plain split is exact for them and far cheaper.
    if (nextQuote >= end) {
      if (end > pos) rows.push(text.slice(pos, end).split(","));
      pos = eol + 1;
      continue;
    }
    const row: string[] = [];
    let i = pos;
    for (;;) {
      if (text.charCodeAt(i) === QUOTE) {
        let value = "";
        let from = i + 1;
        for (;;) {
          const q = text.indexOf(QUOTE_CHAR, from);
          if (q < 0) throw new Error(`unterminated quoted field on line ${lineOf(text, i)}`);
          if (text.charCodeAt(q + 1) === QUOTE) {
            value += text.slice(from, q + 1);
            from = q + 2;
            continue;
          }
          value += text.slice(from, q);
          i = q + 1;
          break;
        }
        row.push(value);
      } else {
        let j = i;
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === COMMA || c === LF || (c === CR && text.charCodeAt(j + 1) === LF)) break;
          if (c === QUOTE) throw new Error(`quote inside an unquoted field on line ${lineOf(text, j)}`);
          j++;
        }
        row.push(text.slice(i, j));
        i = j;
      }
      const c = text.charCodeAt(i);
      if (c === COMMA) {
        i++;
        continue;
      }
      if (i >= n) {
        pos = n;
        break;
      }
      if (c === LF) {
        pos = i + 1;
        break;
      }
      if (c === CR && text.charCodeAt(i + 1) === LF) {
        pos = i + 2;
        break;
      }
      throw new Error(`unexpected character after a closing quote on line ${lineOf(text, i)}`);
    }
    rows.push(row);
  }
  return rows;
}

const QUOTE = 34;
const QUOTE_CHAR = '"';
const COMMA = 44;
const LF = 10;
const CR = 13;

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

function columns<const T extends readonly string[]>(header: string[], wanted: T, label: string): Record<T[number], number> {
  const trimmed = header.map((h) => h.trim());
  const missing = wanted.filter((w) => !trimmed.includes(w));
  if (missing.length > 0) {
    throw new Error(`${label}: missing column(s) ${missing.join(", ")}; is this the right file? (header starts ${JSON.stringify(trimmed.slice(0, 4))})`);
  }
  return Object.fromEntries(wanted.map((w) => [w, trimmed.indexOf(w)])) as Record<T[number], number>;
}

function cell(row: string[], index: number): string {
  return (row[index] ?? "").trim();
}

// ---------------------------------------------------------------- small helpers

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) push(map, key(item), item);
  return map;
}

function push<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function otherNames(primary: string, names: string[]): string[] {
  const out: string[] = [];
  for (const n of names) if (n && n !== primary && !out.includes(n)) out.push(n);
  return out;
}

function stripDiacritics(name: string): string {
  return name.normalize("NFD").replace(/\p{M}/gu, "");
}

/** Lower-case letters and digits only; drops accents and the "?" / U+FFFD of broken names. */
function normaliseName(name: string): string {
  return stripDiacritics(name)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}
