/**
 * An operator's inspections CSV (README, "Inspections"): one row per inspection, header
 *
 *   date,type,port,vessel_imo,authority,source
 *
 * `date` yyyy-mm-dd (a real day, not in the future of the import), `type` and `authority`
 * as published, `port` a UN/LOCODE or the port's name, `vessel_imo` a ship IMO number with a
 * valid check digit, `source` the publication the row comes from (e.g. "USCG PSIX"). Built, for
 * example, from a US Coast Guard PSIX export. One bad row refuses the file, naming the row
 * (its line in the file), the column and the rule.
 */
import { parseImo } from "../../domain/identifiers.ts";
import type { Inspection } from "../../domain/inspections/inspection.ts";
import { cell, readCsv } from "./csv-reader.ts";

const LABEL = "inspections CSV";
const COLUMNS = ["date", "type", "port", "vessel_imo", "authority", "source"] as const;

/** Length limits per text column: a field longer than these is not what the column holds. */
const MAX_LENGTH: Record<"type" | "port" | "authority" | "source", number> = { type: 100, port: 100, authority: 100, source: 300 };

export class InspectionsFileError extends Error {
  constructor(message: string) {
    super(`${LABEL}: ${message}`);
    this.name = "InspectionsFileError";
  }
}

function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text && text >= "1900-01-01";
}

/** Parses and checks every row; `today` (yyyy-mm-dd) bounds the dates. */
export function parseInspectionsCsv(bytes: Buffer, today: string): Inspection[] {
  let table;
  try {
    table = readCsv(bytes, { label: LABEL, columns: COLUMNS, ignoreCase: true });
  } catch (e) {
    throw new InspectionsFileError((e as Error).message.replace(`${LABEL}: `, ""));
  }
  const out: Inspection[] = [];
  table.rows.forEach((row, i) => {
    // The header is line 1, so data row i is line i + 2 (csv-parse skips empty lines).
    const at = (column: string, rule: string) => new InspectionsFileError(`row ${i + 1} (line ${i + 2}), column ${column}: ${rule}`);
    const get = (c: (typeof COLUMNS)[number]) => cell(row, table.column[c]).replace(/\s+/g, " ");
    if (row.length !== table.header.length) throw at("*", `has ${row.length} fields, the header ${table.header.length}`);
    const date = get("date");
    if (!isDay(date)) throw at("date", `${JSON.stringify(date.slice(0, 40))} is not a day written yyyy-mm-dd`);
    if (date > today) throw at("date", `${date} is after today (${today})`);
    const imo = parseImo(get("vessel_imo"));
    if (imo === null) throw at("vessel_imo", `${JSON.stringify(get("vessel_imo").slice(0, 40))} is not a ship IMO number with a valid check digit`);
    const text: Partial<Record<keyof typeof MAX_LENGTH, string>> = {};
    for (const c of ["type", "port", "authority", "source"] as const) {
      const v = get(c);
      if (v === "") throw at(c, "must not be empty");
      if (v.length > MAX_LENGTH[c]) throw at(c, `is ${v.length} characters; at most ${MAX_LENGTH[c]}`);
      text[c] = v;
    }
    out.push({ date, imo, type: text.type!, port: text.port!, authority: text.authority!, origin: text.source! });
  });
  return out;
}
