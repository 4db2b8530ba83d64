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
import { groupBy, push } from "./collections.ts";
import { functionNamesOf } from "./function-classifier.ts";
import { placeWithNaturalEarth, readNaturalEarthPorts } from "./natural-earth.ts";
import { otherNames, stripDiacritics } from "./place-names.ts";
import type { CoordSource, PortRecord, PortsInput } from "./port-record.ts";
import { distanceKm, samePlace } from "./same-place.ts";
import { readSubdivisions } from "./subdivisions.ts";
import { type NonPortLocation, prefer2018, read2018 } from "./unlocode-2018.ts";
import { geocodedOf, name2024, prefer2024, read2024, type Row2024, uneceCoordinatesOf } from "./unlocode-2024.ts";
import { describeCoordinateRejection, type LatLon, parseUnlocodeCoordinates } from "./unlocode-coordinates.ts";
import { pickWpi, readWpi, type WpiRow } from "./world-port-index.ts";

export function parsePorts(input: PortsInput): PortRecord[] {
  const rows2024 = input.unlocode2024 === undefined ? null : read2024(input.unlocode2024);
  // Non-port 2018-1 rows matter only for codes that are ports in 2024 (their names);
  // keeping just those avoids holding ~90,000 rows that are then thrown away.
  const portCodes2024 = new Set((rows2024 ?? []).filter((r) => r.trusted && r.functions.startsWith("1")).map((r) => r.code));
  const nonPorts: NonPortLocation[] = [];
  const rows2018 = read2018(input.unlocode2018, portCodes2024, nonPorts);
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

  /** What UN/LOCODE classifies a port as, the same for a record from either edition. */
  const classification = (row: { country: string; subdivision: string; functions: string; status: string; iata: string }) => ({
    subdivision: row.subdivision || null,
    subdivisionName: subdivisionNames.get(`${row.country}|${row.subdivision}`) ?? null,
    functions: row.functions,
    functionNames: functionNamesOf(row.functions),
    status: row.status || null,
    iata: row.iata || null,
  });

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
      ...classification(primary),
      changed: /^\d{4}$/.test(primary.date) ? primary.date : null,
      remarks: primary.remarks || null,
      edition: "2018-1",
      in2024,
      ...unplaced(),
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
      ...classification(primary),
      changed: null,
      remarks: null,
      edition: "2024",
      in2024: "port",
      ...unplaced(),
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

  harbourNamedAfterPlace(records, wpiByCode);
  if (input.naturalEarth) placeWithNaturalEarth(records, readNaturalEarthPorts(input.naturalEarth));
  linkSameNameLocations(records, nonPorts);
  records.sort((a, b) => (a.unlocode < b.unlocode ? -1 : a.unlocode > b.unlocode ? 1 : 0));
  return records;
}

/** A new record's place, harbour facts and namesakes: none until coordinates, WPI and same-name locations are matched. */
function unplaced(): Pick<PortRecord, "lat" | "lon" | "coordSource" | "coordEdition" | "wpi" | "sameNameLocations"> {
  return { lat: null, lon: null, coordSource: null, coordEdition: null, wpi: null, sameNameLocations: [] };
}

function setCoordinates(record: PortRecord, at: LatLon, source: CoordSource, edition: PortRecord["coordEdition"]): void {
  record.lat = at.lat;
  record.lon = at.lon;
  record.coordSource = source;
  record.coordEdition = edition;
}

/** Words that say what kind of place a name is, not which place: "Shanghai Hongqiao International Apt" is in Shanghai. */
const GENERIC_WORDS = new Set(["international", "intl", "apt", "airport", "pt", "port", "harbour", "harbor", "terminal", "city"]);

function placeWords(name: string): string[] {
  return stripDiacritics(name)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "" && !GENERIC_WORDS.has(w));
}

function startsWithWords(long: string[], short: string[]): boolean {
  return short.length > 0 && short.length <= long.length && short.every((w, i) => long[i] === w);
}

/**
 * A non-port location is linked to the ports of its country (and subdivision, when both
 * give one) whose name, without words like "Pt" or "International Apt", starts the
 * other's as whole words: CNSHA "Shanghai Hongqiao International Apt" -> CNSGH
 * "Shanghai". The link is a pointer in a 404, never a merge.
 */
function linkSameNameLocations(records: PortRecord[], nonPorts: NonPortLocation[]): void {
  const portCodes = new Set(records.map((r) => r.unlocode));
  const byCountry = new Map<string, { port: PortRecord; words: string[] }[]>();
  for (const r of records) push(byCountry, r.country, { port: r, words: placeWords(r.nameAscii || r.name) });
  for (const loc of nonPorts) {
    if (portCodes.has(loc.code)) continue;
    const words = placeWords(loc.nameAscii || loc.name);
    if (words.length === 0) continue;
    for (const { port, words: portWords } of byCountry.get(loc.country) ?? []) {
      if (loc.subdivision && port.subdivision && loc.subdivision !== port.subdivision) continue;
      if (!startsWithWords(words, portWords) && !startsWithWords(portWords, words)) continue;
      port.sameNameLocations.push({ unlocode: loc.code, name: loc.name || loc.nameAscii, functionNames: functionNamesOf(loc.functions) });
    }
  }
}

/**
 * The World Port Index files some city ports under a terminal's code: Singapore is
 * "Keppel - (East Singapore)" under SG KEP, so SGSIN would get no harbour facts. A port
 * left without a WPI row takes the one WPI row of its country whose name holds the
 * port's whole name as a word sequence, when exactly one does and it lies within 30 km
 * of the port's position (geocoded positions count for this check only).
 */
function harbourNamedAfterPlace(records: PortRecord[], wpiByCode: Map<string, WpiRow[]>): void {
  const byCountry = new Map<string, WpiRow[]>();
  for (const rows of wpiByCode.values()) for (const row of rows) push(byCountry, row.code.slice(0, 2), row);
  const contains = (hay: string[], needle: string[]) => hay.some((_, i) => startsWithWords(hay.slice(i), needle));
  for (const record of records) {
    if (record.wpi || record.lat === null || record.lon === null) continue;
    const words = placeWords(record.nameAscii || record.name);
    if (words.length === 0) continue;
    const at = { lat: record.lat, lon: record.lon };
    const fits = (byCountry.get(record.country) ?? []).filter(
      (row) =>
        row.code !== record.unlocode &&
        contains(placeWords(row.mainName), words) &&
        row.facts.lat !== null && row.facts.lon !== null &&
        distanceKm(at, { lat: row.facts.lat, lon: row.facts.lon }) <= 30,
    );
    if (fits.length !== 1) continue;
    const row = fits[0]!;
    record.wpi = { ...row.facts, otherNumbers: [] };
    record.notes.push(`harbour facts from World Port Index port ${row.facts.number} "${row.mainName}", filed under ${row.code}`);
    if (record.coordSource === null || record.coordSource === "geoapify") setCoordinates(record, { lat: row.facts.lat!, lon: row.facts.lon! }, "wpi", null);
  }
}
