import type { z } from "zod";
import type { ScreenResultSchema } from "../../operations/screening.ts";

type ScreenRow = z.output<typeof ScreenResultSchema>;

/**
 * A screening as CSV for a spreadsheet: spec 2.7's fields flattened, one line per vessel and
 * designation (a vessel no designation matches has one line with the designation columns
 * empty), so every designation can be filtered and counted. `status` says whether the line's
 * designation is active or past.
 */
const COLUMNS = [
  "query",
  "imo",
  "mmsi",
  "name",
  "sanctioned",
  "certainty",
  "listsCheckedFull",
  "listsCheckedExtract",
  "listsNotChecked",
  "status",
  "list",
  "family",
  "listName",
  "recordId",
  "designationName",
  "program",
  "listedAt",
  "firstSeenAt",
  "delistedAt",
  "matchedOn",
  "matchedValue",
  "matchedFormerIdentifier",
  "sourceUrl",
] as const;

export function screeningCsv(rows: readonly ScreenRow[]): string {
  const lines = [COLUMNS.join(",")];
  for (const r of rows) {
    const vessel = [r.query, r.imo, r.mmsi, r.name, r.sanctioned, r.certainty, r.listsChecked.full.join(" "), r.listsChecked.extract.join(" "), r.listsChecked.notChecked.join(" ")];
    const designations = [...r.activeDesignations.map((d) => ["active", d] as const), ...r.pastDesignations.map((d) => ["past", d] as const)];
    if (designations.length === 0) lines.push(csvLine([...vessel, ...COLUMNS.slice(vessel.length).map(() => null)]));
    for (const [status, d] of designations) {
      lines.push(csvLine([...vessel, status, d.list, d.family, d.listName, d.recordId, d.name, d.program, d.listedAt, d.firstSeenAt, d.delistedAt, d.matchedOn, d.matchedValue, d.matchedFormerIdentifier, d.sourceUrl]));
    }
  }
  return `${lines.join("\r\n")}\r\n`;
}

/**
 * One CSV line (RFC 4180): a field with a comma, quote or line break is quoted. A text field
 * starting with =, +, - or @ gets a leading apostrophe, so a spreadsheet never runs a name a
 * list published as a formula.
 */
function csvLine(values: readonly (string | number | boolean | null)[]): string {
  return values
    .map((v) => {
      if (v === null) return "";
      let s = String(v);
      if (typeof v === "string" && /^[=+\-@]/.test(s)) s = `'${s}`;
      return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
    })
    .join(",");
}
