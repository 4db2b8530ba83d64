/** Reader of the UNECE UN/LOCODE 2018-1 code list, the base edition of the ports. */
import { parseUnlocode } from "../../../domain/identifiers.ts";
import { cell, readCsv } from "../csv-reader.ts";
import { compareKeys } from "./collections.ts";
import { FUNCTION_PATTERN } from "./function-classifier.ts";
import { parseUnlocodeCoordinates } from "./unlocode-coordinates.ts";

export type Row2018 = {
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

/** A location without the port function: only what a "not a port, see ..." answer needs. */
export type NonPortLocation = { code: string; country: string; name: string; nameAscii: string; subdivision: string; functions: string };

/**
 * Rows with the port function, plus the rows of the codes in `alsoKeep`. Every other
 * location goes to `others` in brief, when given (carriers write a city's airport code,
 * CNSHA, for its port, CNSGH).
 */
export function read2018(bytes: Buffer, alsoKeep: Set<string>, others?: NonPortLocation[]): Row2018[] {
  const label = "UN/LOCODE 2018-1 code list";
  const { rows: records, column: col } = readCsv(bytes, {
    label,
    columns: UNECE_COLUMNS,
    // UNECE's own downloads have no header row; the bundled copy has one. Recognise
    // the headerless layout by its 12 columns and a country code in the second.
    impliedHeader: (first) => (!first.includes("Location") && first.length === 12 && /^[A-Z]{2}$/.test(first[1] ?? "") ? UNECE_COLUMNS : null),
    fast: true, latin1Fallback: true, relaxColumnCount: true,
  });
  const rows: Row2018[] = [];
  let locations = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const location = cell(r, col.Location);
    if (!location) continue; // country header rows (".ANDORRA") have no location
    const country = cell(r, col.Country);
    const code = parseUnlocode(country + location);
    if (!code || code !== country + location) continue;
    const functions = cell(r, col.Function);
    if (!FUNCTION_PATTERN.test(functions)) continue;
    locations++;
    if (!functions.startsWith("1")) {
      others?.push({ code, country, name: cell(r, col.Name), nameAscii: cell(r, col.NameWoDiacritics), subdivision: cell(r, col.Subdivision), functions });
      if (!alsoKeep.has(code)) continue;
    }
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

/** Whether `a` is the better row of a code: not marked for deletion, valid coordinates, newest, first in the file. */
export function prefer2018(a: Row2018, b: Row2018): boolean {
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
