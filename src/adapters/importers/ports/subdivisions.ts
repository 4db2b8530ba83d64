/** Reader of the UNECE subdivision codes: "country|code" -> subdivision name. */
import { cell, readCsv } from "../csv-reader.ts";

export function readSubdivisions(bytes: Buffer): Map<string, string> {
  const label = "UN/LOCODE subdivision codes";
  const columns = ["SUCountry", "SUCode", "SUName"] as const;
  const { rows: records, column: col } = readCsv(bytes, { label, columns, fast: true, latin1Fallback: true, relaxColumnCount: true });
  const names = new Map<string, string>();
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const key = `${cell(r, col.SUCountry)}|${cell(r, col.SUCode)}`;
    // A handful of codes are listed twice (IN-JK, MA-CHT, ...): the first name wins.
    if (!names.has(key)) names.set(key, cell(r, col.SUName));
  }
  return names;
}
