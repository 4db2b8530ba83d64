/**
 * Reader of the 2024 geoapify export of UN/LOCODE, which adds codes that gained the
 * port function after 2018-1 and corrected coordinates, with a quality flag per row.
 */
import { parseUnlocode } from "../../../domain/identifiers.ts";
import { cell, readCsv } from "../csv-reader.ts";
import { compareKeys } from "./collections.ts";
import { FUNCTION_PATTERN } from "./function-classifier.ts";
import { brokenText, namesMatch, namesSimilar, stripDiacritics } from "./place-names.ts";
import type { Row2018 } from "./unlocode-2018.ts";
import { type LatLon, parseUnlocodeCoordinates, validLatLon } from "./unlocode-coordinates.ts";

export type Row2024 = {
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

export function read2024(bytes: Buffer): Row2024[] {
  const label = "UN/LOCODE 2024 (geoapify export)";
  const { rows: records, column: col } = readCsv(bytes, { label, columns: COLUMNS_2024, fast: true, latin1Fallback: true, relaxColumnCount: true });
  const rows: Row2024[] = [];
  for (let i = 0; i < records.length; i++) {
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

/** Whether `a` is the better row of a code: flagged `ok` with an intact name, UNECE coordinates, first in the file. */
export function prefer2024(a: Row2024, b: Row2024): boolean {
  const keys = (r: Row2024): number[] => [r.flagOk && !r.nameBroken ? 1 : 0, r.coordSource === "unece" ? 1 : 0, -r.index];
  return compareKeys(keys(a), keys(b)) > 0;
}

/** UNECE coordinates among trusted 2024 rows; on disagreement the row named like the port wins. */
export function uneceCoordinatesOf(rows: Row2024[], nameAscii: string): { at: LatLon; text: string } | null {
  const usable = rows.filter((r) => r.coordSource === "unece" && parseUnlocodeCoordinates(r.unece));
  if (usable.length === 0) return null;
  const row = usable.find((r) => namesMatch(r.nameAscii || r.name, nameAscii)) ?? usable[0]!;
  return { at: parseUnlocodeCoordinates(row.unece)!, text: row.unece };
}

/** Geocoded coordinates (low quality, labelled `geoapify`) among the rows, preferring the row named like the port. */
export function geocodedOf(rows: Row2024[], nameAscii: string): LatLon | null {
  const usable = rows.filter((r) => r.coordSource === "geoapify_geocoded");
  const row = usable.find((r) => namesMatch(r.nameAscii || r.name, nameAscii)) ?? usable[0];
  if (!row || row.lat === "" || row.lon === "") return null;
  return validLatLon(Number(row.lat), Number(row.lon));
}

/** A readable name for a 2024-only port: its own, else the 2018-1 row's of the same place, else the one without diacritics. */
export function name2024(row: Row2024, older: Row2018[] | undefined): { name: string; nameAscii: string; note?: string } | null {
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
