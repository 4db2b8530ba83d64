import { join } from "node:path";
import { readCsv } from "./csv-reader.ts";
import { readSource } from "./read-source.ts";
import { countReason, imoOrRejection } from "./row-rejections.ts";
import type { FleetEntry } from "../../domain/vessels/fleet-entry.ts";

/**
 * US DOT Maritime Administration (MARAD) "United States-Flag Privately-Owned Merchant
 * Fleet" list (oceangoing, 1,000 GT and over). US Government work, public domain;
 * see datasets/vessels/PROVENANCE.md.
 */

const DATASET = "MARAD US-flag fleet CSV";

const COLUMNS = {
  imo: "IMO NUMBER",
  name: "Vessel Name",
  shipType: "Ship Type",
  grossTons: "Gross Tons",
  deadweightTons: "Deadweight Tons",
  yearBuilt: "Year of Build",
  operator: "Operator",
  msp: "MSP",
  visa: "VISA",
  vta: "VTA",
  jonesActEligible: "Jones Act Eligible",
  militarilyUseful: "Militarily Useful",
} as const;

/** A fleet-list row as the MARAD import reads it: the store's FleetEntry (domain/vessels/fleet-entry.ts) without its source, plus MARAD's programme flags. */
export type FleetRecord = Omit<FleetEntry, "source"> & {
  /** Enrolled in the Maritime Security Program. */
  msp: boolean;
  /** Enrolled in the Voluntary Intermodal Sealift Agreement. */
  visa: boolean;
  /** Enrolled in the Voluntary Tanker Agreement. */
  vta: boolean;
  /** Qualifies for US domestic (coastwise) trade under the Jones Act. */
  jonesActEligible: boolean;
  /** MARAD's assessment that the ship is militarily useful. */
  militarilyUseful: boolean;
};

export type FleetParseResult = {
  records: FleetRecord[];
  /** Rows left out, by reason. */
  rejected: Record<string, number>;
  rowsRead: number;
};

type FlagField = "msp" | "visa" | "vta" | "jonesActEligible" | "militarilyUseful";
const FLAG_FIELDS: FlagField[] = ["msp", "visa", "vta", "jonesActEligible", "militarilyUseful"];

/** "110,693" or "30415" → number; blank → null; anything else → undefined. */
function tons(value: string): number | null | undefined {
  if (value === "") return null;
  if (!/^\d{1,3}(,\d{3})+$|^\d+$/.test(value)) return undefined;
  return Number(value.replace(/,/g, ""));
}

function flag(value: string): boolean | undefined {
  const v = value.toUpperCase();
  if (v === "Y" || v === "YES") return true;
  if (v === "N" || v === "NO") return false;
  return undefined;
}

/**
 * Parses the MARAD fleet CSV (with or without a BOM). Rows whose IMO number fails the
 * check digit, whose programme flags are not Y/N, or whose tonnage or build year is
 * not a number are left out and counted in `rejected`; an IMO listed twice keeps its
 * first row and counts the others as `duplicate_imo`.
 */
export function parseMaradFleet(bytes: Buffer): FleetParseResult {
  // MARAD's own capitalisation varies between editions ("IMO NUMBER"), so names match case-insensitively.
  const table = readCsv(bytes, { label: DATASET, columns: Object.values(COLUMNS), ignoreCase: true });
  const rows = table.rows;
  const index = Object.fromEntries(Object.entries(COLUMNS).map(([field, column]) => [field, table.column[column]])) as Record<
    keyof typeof COLUMNS,
    number
  >;
  const rejected: Record<string, number> = {};
  const seen = new Set<number>();
  const records: FleetRecord[] = [];

  for (const row of rows) {
    const field = (name: keyof typeof COLUMNS): string => (row[index[name]] ?? "").trim().replace(/\s+/g, " ");
    const imo = imoOrRejection(field("imo"));
    if (typeof imo === "string") {
      countReason(rejected, imo);
      continue;
    }
    const name = field("name");
    if (name === "") {
      countReason(rejected, "name_missing");
      continue;
    }
    const grossTons = tons(field("grossTons"));
    const deadweightTons = tons(field("deadweightTons"));
    if (grossTons === undefined || deadweightTons === undefined) {
      countReason(rejected, "tonnage_not_a_number");
      continue;
    }
    const yearRaw = field("yearBuilt");
    if (yearRaw !== "" && !/^(18|19|20)\d\d$/.test(yearRaw)) {
      countReason(rejected, "year_built_invalid");
      continue;
    }
    const flags = {} as Record<FlagField, boolean>;
    let flagsOk = true;
    for (const f of FLAG_FIELDS) {
      const v = flag(field(f));
      if (v === undefined) flagsOk = false;
      else flags[f] = v;
    }
    if (!flagsOk) {
      countReason(rejected, "flag_not_y_or_n");
      continue;
    }
    if (seen.has(imo)) {
      countReason(rejected, "duplicate_imo");
      continue;
    }
    seen.add(imo);
    records.push({
      imo,
      name,
      shipType: field("shipType") || null,
      grossTons,
      deadweightTons,
      yearBuilt: yearRaw === "" ? null : Number(yearRaw),
      operator: field("operator") || null,
      ...flags,
    });
  }
  return { records, rejected, rowsRead: rows.length };
}

export const BUNDLED_MARAD_FLEET_FILE = join("vessels", "marad_us_flag_fleet_2023-04-10.csv");

/** Reads and parses the MARAD file bundled under `<datasetsDir>/vessels/`. */
export async function loadBundledMaradFleet(datasetsDir: string): Promise<FleetParseResult> {
  return parseMaradFleet(await readSource(join(datasetsDir, BUNDLED_MARAD_FLEET_FILE)));
}
