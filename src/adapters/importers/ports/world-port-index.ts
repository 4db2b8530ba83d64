/** Reader of the NGA World Port Index (Pub 150): harbour facts and positions keyed by UN/LOCODE. */
import { parseUnlocode } from "../../../domain/identifiers.ts";
import { cell, readCsv } from "../csv-reader.ts";
import { push } from "./collections.ts";
import { normaliseName } from "./place-names.ts";
import type { WpiFacts } from "./port-record.ts";
import { validLatLon } from "./unlocode-coordinates.ts";

export type WpiRow = { code: string; mainName: string; altName: string; facts: WpiFacts };

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

/** WPI ports by UN/LOCODE (several ports may share one code). */
export function readWpi(bytes: Buffer): Map<string, WpiRow[]> {
  const label = "World Port Index (Pub 150)";
  const { rows: records, header } = readCsv(bytes, { label, columns: WPI_REQUIRED, fast: true, latin1Fallback: true, relaxColumnCount: true });
  // Beyond the required columns, every other one is read when present.
  const index = new Map(header.map((h, i) => [h, i]));
  const at = (r: string[], name: string): string => {
    const i = index.get(name);
    return i === undefined ? "" : cell(r, i);
  };
  const byCode = new Map<string, WpiRow[]>();
  let rowCount = 0;
  for (let i = 0; i < records.length; i++) {
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
export function pickWpi(candidates: WpiRow[], names: string[]): WpiRow {
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
