import { join } from "node:path";
import { readCsv } from "./csv-reader.ts";
import { readSource } from "./read-source.ts";
import { countReason, imoOrRejection } from "./row-rejections.ts";
import type { EmissionReport } from "../../domain/vessels/emission-report.ts";

/**
 * EU MRV (THETIS-MRV) annual emission reports, one row per ship and reporting year,
 * from the bundled 2018-2022 "key columns" CSV (EMSA's xlsx publications flattened;
 * see datasets/emissions/PROVENANCE.md). Source: EMSA THETIS-MRV.
 */

const DATASET = "EU MRV emissions CSV";

/** Which of the four MRV monitoring methods (Regulation (EU) 2015/757 Annex I) the ship used. */
export type MonitoringMethod = "A" | "B" | "C" | "D";

/** An EU MRV row as the import reads it: the stored EmissionReport (domain/vessels/emission-report.ts) and the columns the service does not keep. */
export type EmissionRecord = EmissionReport & {
  homePort: string | null;
  iceClass: string | null;
  /** "EEDI" or "EIV", as stated in the "Technical efficiency" column. */
  technicalEfficiencyIndex: "EEDI" | "EIV" | null;
  technicalEfficiencyGCo2PerTNm: number | null;
  /** ISO dates (YYYY-MM-DD) of the Document of Compliance; null when "DoC not issued". */
  docIssueDate: string | null;
  docExpiryDate: string | null;
  verifierName: string | null;
  verifierCountry: string | null;
  monitoringMethods: MonitoringMethod[];
  co2BetweenMsPortsT: number | null;
  co2DepartingMsPortsT: number | null;
  co2ToMsPortsT: number | null;
  co2AtBerthMsPortsT: number | null;
  fuelPerDistanceKgPerNm: number | null;
  co2PerDistanceKgPerNm: number | null;
  distanceThroughIceNm: number | null;
  timeAtSeaThroughIceH: number | null;
};

export type EmissionsParseResult = {
  records: EmissionRecord[];
  /** Rows left out, by reason. */
  rejected: Record<string, number>;
  /** Cells that held something other than a number or a known "no value" marker and became null, by "column: reason". */
  nulled: Record<string, number>;
  /** Rows seen in the file (excluding the header). */
  rowsRead: number;
};

const NUMERIC_COLUMNS = {
  fuelT: "total_fuel_consumption_t",
  co2T: "total_co2_t",
  co2BetweenMsPortsT: "co2_voyages_between_ms_ports_t",
  co2DepartingMsPortsT: "co2_voyages_departing_ms_ports_t",
  co2ToMsPortsT: "co2_voyages_to_ms_ports_t",
  co2AtBerthMsPortsT: "co2_at_berth_ms_ports_t",
  timeAtSeaH: "annual_time_at_sea_h",
  fuelPerDistanceKgPerNm: "avg_fuel_per_distance_kg_per_nm",
  co2PerDistanceKgPerNm: "avg_co2_per_distance_kg_per_nm",
  distanceThroughIceNm: "distance_through_ice_nm",
  timeAtSeaThroughIceH: "time_at_sea_through_ice_h",
} as const;

type NumericField = keyof typeof NUMERIC_COLUMNS;

const TEXT_COLUMNS = [
  "reporting_year",
  "imo",
  "name",
  "ship_type",
  "technical_efficiency",
  "port_of_registry",
  "home_port",
  "ice_class",
  "doc_issue_date",
  "doc_expiry_date",
  "verifier_name",
  "verifier_country",
  "monitoring_method_a",
  "monitoring_method_b",
  "monitoring_method_c",
  "monitoring_method_d",
] as const;

const REQUIRED_COLUMNS: readonly string[] = [...TEXT_COLUMNS, ...Object.values(NUMERIC_COLUMNS)];

/**
 * Markers the EMSA sheets use for "no value". "Division by zero!" is what the
 * sheet shows for per-distance averages of ships that reported zero distance.
 */
const NO_VALUE = new Set(["", "n/a", "na", "not applicable", "division by zero!", "#div/0!", "-"]);

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Hours in a calendar year: a reported time at sea above this is a data-entry error. */
function hoursInYear(year: number): number {
  return (isLeapYear(year) ? 366 : 365) * 24;
}

/** Trimmed, with runs of blanks collapsed ("MSC  BRIANNA" occurs); null when blank. */
function text(value: string | undefined): string | null {
  if (!value) return null;
  let s = value.trim();
  if (/\s\s|[\t\r\n]/.test(s)) s = s.replace(/\s+/g, " ");
  return s === "" ? null : s;
}

/** dd/mm/yyyy as published → YYYY-MM-DD; null for "DoC not issued" and blanks. */
function isoDate(value: string | undefined): string | null | undefined {
  const s = (value ?? "").trim();
  if (s === "" || /^doc not issued$/i.test(s)) return null;
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
  if (!m) return undefined;
  const [, dd, mm, yyyy] = m;
  const day = Number(dd);
  const month = Number(mm);
  const days = month === 2 ? (isLeapYear(Number(yyyy)) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  if (month < 1 || month > 12 || day < 1 || day > days) return undefined;
  return `${yyyy}-${mm}-${dd}`;
}

/**
 * "EIV (5.9 gCO₂/t·nm)", "EEDI (3E+1 gCO₂/t·nm)", "Not Applicable", "EEDI",
 * "0 gCO₂/t·nm" and "Not Applicable (21 gCO₂/t·nm)" all occur. A zero value is
 * the sheet's placeholder, not an efficiency, so it becomes null.
 */
function technicalEfficiency(value: string | undefined): {
  index: "EEDI" | "EIV" | null;
  gCo2PerTNm: number | null;
} {
  const s = (value ?? "").trim();
  const indexMatch = /^(EEDI|EIV)\b/i.exec(s);
  const index = indexMatch ? (indexMatch[1]!.toUpperCase() as "EEDI" | "EIV") : null;
  const numberMatch = /([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*gCO/.exec(s);
  const n = numberMatch ? Number(numberMatch[1]) : Number.NaN;
  return { index, gCo2PerTNm: Number.isFinite(n) && n > 0 ? n : null };
}

/**
 * Parses the EU MRV key-columns CSV. Rows without a checksum-valid IMO number, a
 * usable reporting year or a ship name are left out and counted in `rejected`.
 * Time at sea above the hours of the reporting year (20 rows in 2018-2022) is nulled
 * and counted in `nulled`, as is any number cell holding unrecognised text.
 *
 * Duplicates: EMSA publishes one verified report per ship and period, so a repeated
 * (imo, year) is a revised report. The row with the later DoC issue date wins (on a
 * tie, the later row in the file); each row dropped this way is counted as
 * `duplicate_imo_year`.
 */
export function parseEmissions(bytes: Buffer): EmissionsParseResult {
  const { header, rows } = readCsv(bytes, { label: DATASET, columns: REQUIRED_COLUMNS });
  const at = (name: string): number => header.indexOf(name);
  const col = {
    year: at("reporting_year"),
    imo: at("imo"),
    name: at("name"),
    shipType: at("ship_type"),
    efficiency: at("technical_efficiency"),
    registry: at("port_of_registry"),
    homePort: at("home_port"),
    iceClass: at("ice_class"),
    docIssue: at("doc_issue_date"),
    docExpiry: at("doc_expiry_date"),
    verifierName: at("verifier_name"),
    verifierCountry: at("verifier_country"),
    methods: (["a", "b", "c", "d"] as const).map((m) => at(`monitoring_method_${m}`)),
  };
  const numericCols = Object.entries(NUMERIC_COLUMNS).map(
    ([field, column]) => [field as NumericField, column, at(column)] as const,
  );
  const methodLetters: MonitoringMethod[] = ["A", "B", "C", "D"];

  const rejected: Record<string, number> = {};
  const nulled: Record<string, number> = {};
  const byKey = new Map<string, EmissionRecord>();
  const latestYear = new Date().getUTCFullYear() + 1;

  for (const row of rows) {
    const imo = imoOrRejection((row[col.imo] ?? "").trim());
    if (typeof imo === "string") {
      countReason(rejected, imo);
      continue;
    }
    const yearRaw = (row[col.year] ?? "").trim();
    const year = /^\d{4}(\.0)?$/.test(yearRaw) ? Number.parseInt(yearRaw, 10) : Number.NaN;
    if (!(year >= 2018 && year <= latestYear)) {
      countReason(rejected, "year_invalid");
      continue;
    }
    const name = text(row[col.name]);
    if (name === null) {
      countReason(rejected, "name_missing");
      continue;
    }

    const numbers = {} as Record<NumericField, number | null>;
    for (const [field, column, index] of numericCols) {
      const raw = (row[index] ?? "").trim();
      let value: number | null = null;
      if (!NO_VALUE.has(raw.toLowerCase())) {
        if (DECIMAL.test(raw)) {
          value = Number(raw);
          if (value < 0) {
            countReason(nulled, `${column}: negative`);
            value = null;
          }
        } else {
          countReason(nulled, `${column}: not a number`);
        }
      }
      numbers[field] = value;
    }
    for (const field of ["timeAtSeaH", "timeAtSeaThroughIceH"] as const) {
      const v = numbers[field];
      if (v !== null && v > hoursInYear(year)) {
        countReason(nulled, `${NUMERIC_COLUMNS[field]}: more hours than the year has`);
        numbers[field] = null;
      }
    }

    const dates = [isoDate(row[col.docIssue]), isoDate(row[col.docExpiry])];
    if (dates[0] === undefined) countReason(nulled, "doc_issue_date: not a dd/mm/yyyy date");
    if (dates[1] === undefined) countReason(nulled, "doc_expiry_date: not a dd/mm/yyyy date");
    const efficiency = technicalEfficiency(row[col.efficiency]);

    const record: EmissionRecord = {
      imo,
      year,
      name,
      shipType: text(row[col.shipType]),
      portOfRegistry: text(row[col.registry]),
      homePort: text(row[col.homePort]),
      iceClass: text(row[col.iceClass]),
      technicalEfficiencyIndex: efficiency.index,
      technicalEfficiencyGCo2PerTNm: efficiency.gCo2PerTNm,
      docIssueDate: dates[0] ?? null,
      docExpiryDate: dates[1] ?? null,
      verifierName: text(row[col.verifierName]),
      verifierCountry: text(row[col.verifierCountry]),
      monitoringMethods: methodLetters.filter((_, i) => /^yes$/i.test((row[col.methods[i]!] ?? "").trim())),
      ...numbers,
    };

    const key = `${imo}:${year}`;
    const previous = byKey.get(key);
    if (previous) {
      countReason(rejected, "duplicate_imo_year");
      // ISO dates compare as strings; a report with no DoC never supersedes one with a DoC.
      if ((record.docIssueDate ?? "") < (previous.docIssueDate ?? "")) continue;
    }
    byKey.set(key, record);
  }

  return { records: [...byKey.values()], rejected, nulled, rowsRead: rows.length };
}

export const BUNDLED_EMISSIONS_FILE = join("emissions", "eu_mrv_2018-2022_key_columns.csv.gz");

/** Reads and parses the EU MRV file bundled under `<datasetsDir>/emissions/`. */
export async function loadBundledEmissions(datasetsDir: string): Promise<EmissionsParseResult> {
  return parseEmissions(await readSource(join(datasetsDir, BUNDLED_EMISSIONS_FILE)));
}
