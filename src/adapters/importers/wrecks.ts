import { join } from "node:path";
import { readCsv } from "./csv-reader.ts";
import { readSource } from "./read-source.ts";
import { nameSlug } from "../../domain/pages/page-paths.ts";
import type { Wreck } from "../../domain/wrecks/wreck.ts";

/**
 * NOAA AWOIS wrecks (Automated Wreck and Obstruction Information System), US waters.
 * US Government work, public domain; see datasets/wrecks/PROVENANCE.md.
 */

const DATASET = "NOAA AWOIS wrecks CSV";

const REQUIRED_COLUMNS = [
  "RECRD",
  "VESSLTERMS",
  "FEATURE_TYPE",
  "LATDEC",
  "LONDEC",
  "GP_QUALITY",
  "WATER_DEPTH",
  "SOUNDING_TYPE",
  "YEARSUNK",
  "HISTORY",
] as const;

export type PositionQuality = "high" | "medium" | "low" | "poor";

export type DepthUnit = "feet" | "metres" | "fathoms";

/**
 * A depth as published in WATER_DEPTH, with its unit from SOUNDING_TYPE (null when the row
 * gives a depth but no unit). `wireDragClearance` is true for "Wire-drag clearance, feet":
 * a wire drag passed over the wreck at this depth, so the wreck's least depth is at least
 * this much, not a sounding on it.
 */
export type WreckDepth = Omit<Wreck["depth"] & {}, "unit"> & { unit: DepthUnit | null };

/** A wreck as the AWOIS import reads it: the service's Wreck (domain/wrecks/wreck.ts) before its source is set, with coded fields narrowed. */
export type WreckRecord = Omit<Wreck, "source" | "positionQuality" | "depth"> & {
  positionQuality: PositionQuality | null;
  depth: WreckDepth | null;
};

/**
 * VESSLTERMS values that name no vessel: the placeholders (with the misspellings
 * found in the data) and generic terms for the kind of object.
 */
const PLACEHOLDER_NAMES = new Set([
  "UNKNOWN",
  "UNKNNOWN",
  "UNKNWON",
  "UNKOWN",
  "UNK",
  "WRECK",
  "WRECKS",
  "WRECKAGE",
  "OBSTRUCTION",
  "OBSTRUCTIONS",
  "BARGE",
  "DERELICT",
  "FISH HAVEN",
  "NONE",
  "N/A",
]);

const POSITION_QUALITY: Record<string, PositionQuality> = {
  high: "high",
  med: "medium",
  medium: "medium",
  low: "low",
  poor: "poor",
};

const SOUNDING_TYPES: Record<string, { unit: DepthUnit; wireDragClearance: boolean }> = {
  "feet and tenths": { unit: "feet", wireDragClearance: false },
  "meters and tenths": { unit: "metres", wireDragClearance: false },
  "fathoms and tenths": { unit: "fathoms", wireDragClearance: false },
  "wire-drag clearance, feet": { unit: "feet", wireDragClearance: true },
};

const METRES_PER: Record<DepthUnit, number> = { feet: 0.3048, metres: 1, fathoms: 1.8288 };


/**
 * HISTORY is free text from several decades of AWOIS. Older entries end wrapped lines
 * with "ì" (a mis-decoded soft line-break byte) before the newline, and pad with spaces
 * to fixed widths. Both are layout, not content: a marked wrap joins the two lines with
 * a space, padding collapses to one space, and the remaining line breaks are kept.
 */
function cleanHistory(value: string | undefined): string | null {
  if (!value) return null;
  const lines = value
    .replace(/[ \t]*ì[ \t]*(?:\r?\n[ \t]*)?/g, " ")
    .split(/\r?\n/)
    .map((line) => line.replace(/[ \t]+/g, " ").trim());
  const s = lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return s === "" ? null : s;
}

function fail(problem: string): never {
  throw new Error(`${DATASET}: ${problem}`);
}

/**
 * Parses the AWOIS wrecks CSV. Identity and position are required: a row without a
 * numeric RECRD, with a repeated RECRD, or without a valid position throws, naming the
 * row, as does an unknown GP_QUALITY or SOUNDING_TYPE (the unit cannot be guessed).
 *
 * WATER_DEPTH "0" is AWOIS's "no depth recorded" (3,375 rows, nearly all without a unit,
 * and the few with a unit have histories giving real depths), so 0 becomes null.
 */
export function parseWrecks(bytes: Buffer): WreckRecord[] {
  const { column: col, rows } = readCsv(bytes, { label: DATASET, columns: REQUIRED_COLUMNS });
  const seen = new Set<number>();
  const records: WreckRecord[] = [];

  rows.forEach((row, i) => {
    const field = (name: (typeof REQUIRED_COLUMNS)[number]): string => (row[col[name]] ?? "").trim();
    const where = `data row ${i + 1} (RECRD ${JSON.stringify(field("RECRD"))})`;

    const idRaw = field("RECRD");
    if (!/^\d+$/.test(idRaw)) fail(`${where}: RECRD is not a record number`);
    const id = Number(idRaw);
    if (seen.has(id)) fail(`${where}: RECRD ${id} occurs twice`);
    seen.add(id);

    const lat = Number(field("LATDEC"));
    const lon = Number(field("LONDEC"));
    if (field("LATDEC") === "" || field("LONDEC") === "" || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) {
      fail(`${where}: no valid position (LATDEC ${field("LATDEC")}, LONDEC ${field("LONDEC")})`);
    }

    const terms = field("VESSLTERMS").replace(/\s+/g, " ");
    const name = terms === "" || PLACEHOLDER_NAMES.has(terms.toUpperCase()) ? null : terms;
    const slug = nameSlug(name);

    const qualityRaw = field("GP_QUALITY");
    let positionQuality: PositionQuality | null = null;
    if (qualityRaw !== "") {
      const q = POSITION_QUALITY[qualityRaw.toLowerCase()];
      if (!q) fail(`${where}: unknown GP_QUALITY ${JSON.stringify(qualityRaw)}`);
      positionQuality = q;
    }

    const soundingRaw = field("SOUNDING_TYPE");
    const sounding = soundingRaw === "" ? null : SOUNDING_TYPES[soundingRaw.toLowerCase()];
    if (sounding === undefined) fail(`${where}: unknown SOUNDING_TYPE ${JSON.stringify(soundingRaw)}`);
    const depthRaw = field("WATER_DEPTH");
    let depth: WreckDepth | null = null;
    if (depthRaw !== "") {
      const value = Number(depthRaw);
      if (!Number.isFinite(value)) fail(`${where}: WATER_DEPTH ${JSON.stringify(depthRaw)} is not a number`);
      if (value !== 0) {
        depth = { value, unit: sounding?.unit ?? null, wireDragClearance: sounding?.wireDragClearance ?? false };
      }
    }
    const depthM = depth?.unit ? Math.round(depth.value * METRES_PER[depth.unit] * 100) / 100 : null;

    const yearRaw = field("YEARSUNK");
    let yearSunk: number | null = null;
    if (yearRaw !== "") {
      if (!/^\d{4}$/.test(yearRaw)) fail(`${where}: YEARSUNK ${JSON.stringify(yearRaw)} is not a year`);
      yearSunk = Number(yearRaw);
    }

    records.push({
      id,
      slug: `${slug || "wreck"}-${id}`,
      name,
      featureType: field("FEATURE_TYPE") || null,
      lat,
      lon,
      positionQuality,
      depth,
      depthM,
      yearSunk,
      history: cleanHistory(row[col.HISTORY]),
    });
  });
  return records;
}

export const BUNDLED_WRECKS_FILE = join("wrecks", "noaa_awois_wrecks.csv.gz");

/** Reads and parses the AWOIS file bundled under `<datasetsDir>/wrecks/`. */
export async function loadBundledWrecks(datasetsDir: string): Promise<WreckRecord[]> {
  return parseWrecks(await readSource(join(datasetsDir, BUNDLED_WRECKS_FILE)));
}
