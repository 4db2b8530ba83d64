import { parse } from "csv-parse/sync";

/**
 * The vessel ids of a pasted text or an uploaded CSV, each with the line it came from, so a
 * refusal can name the line a person sees in their file. Two shapes are read: a CSV whose
 * header names an id column (`id`, `imo`, `mmsi` and the like; other columns are ignored),
 * or ids alone, one per line or several to a line separated by commas.
 */
export type IdLines = { ok: true; ids: { text: string; line: number }[] } | { ok: false; message: string };

/** Header names of an id column, and how a bare value in it is written as an API id. */
const ID_COLUMNS: Record<string, (v: string) => string> = {
  id: (v) => v,
  ids: (v) => v,
  "vessel id": (v) => v,
  vessel: (v) => v,
  imo: (v) => v.replace(/^imo[\s:-]*/i, ""),
  "imo number": (v) => v.replace(/^imo[\s:-]*/i, ""),
  imo_number: (v) => v.replace(/^imo[\s:-]*/i, ""),
  mmsi: (v) => (/^\d{9}$/.test(v) ? `mmsi-${v}` : v),
};

export function readIdLines(text: string): IdLines {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { relax_column_count: true, skip_empty_lines: true, bom: true, trim: true, info: true }) as unknown as typeof records;
  } catch (e) {
    return { ok: false, message: `The ids could not be read as CSV: ${(e as Error).message}` };
  }
  const first = records[0]?.record ?? [];
  const column = first.findIndex((cell) => ID_COLUMNS[cell.toLowerCase()] !== undefined);
  const ids: { text: string; line: number }[] = [];
  if (column >= 0) {
    const write = ID_COLUMNS[first[column]!.toLowerCase()]!;
    for (const { record, info } of records.slice(1)) {
      const cell = record[column] ?? "";
      if (cell !== "") ids.push({ text: write(cell), line: info.lines });
    }
  } else {
    for (const { record, info } of records) for (const cell of record) if (cell !== "") ids.push({ text: cell, line: info.lines });
  }
  if (ids.length === 0) return { ok: false, message: "No vessel ids were found: paste one per line, or upload a CSV with an id (or imo, mmsi) column." };
  return { ok: true, ids };
}
