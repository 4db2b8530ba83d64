/** What the OFAC readers share: the list key, the details link, dates and identity documents. */
import { type ExternalId, isoDate, SanctionsParseError } from "../../../../domain/sanctions/designation.ts";
import { type SourceFile, text, type XmlNode } from "../common.ts";
import { csvRecords } from "../csv-stream.ts";

export const LIST = "ofac";
export const OFAC_DETAILS_URL = "https://sanctionssearch.ofac.treas.gov/Details.aspx?id=";

export type OfacFileKind = "sdn-csv" | "alt-csv" | "add-csv" | "comments-csv" | "legacy-xml" | "advanced-xml" | "enhanced-xml";

/** One publication file, recognised by content: a CSV by the width of its first record (read as a stream later), a legacy XML parsed. */
export type Classified = { file: SourceFile; kind: OfacFileKind; width?: number; xml?: XmlNode };

/** A CSV row of nothing but blanks (OFAC's files end with a Ctrl-Z line). */
export const isBlankRow = (row: string[]) => row.length === 1 && (row[0] ?? "").trim() === "";

/**
 * The records of a classified CSV file, read as a stream; a record of another width than the
 * first stops the read with an error naming it, so a file cut short never reads as a shorter list.
 */
export async function* ofacCsvRows(c: Classified): AsyncIterable<string[]> {
  let n = 0;
  for await (const row of csvRecords(LIST, c.file)) {
    if (isBlankRow(row)) continue;
    n++;
    if (row.length !== c.width) {
      throw new SanctionsParseError(LIST, `${c.file.name} record ${n} has ${row.length} columns, expected ${c.width}; the file may be truncated`);
    }
    yield row;
  }
}

/** A listing date found for an entity, and the field it was read from. */
export type ListingDate = { date: string; field: string };

/** Earliest Year/Month/Day below a node, as an ISO date. */
export function ymd(node: unknown): string | null {
  const year = Number(text(node, "Year"));
  const month = Number(text(node, "Month") || "1");
  const day = Number(text(node, "Day") || "1");
  return isoDate(year, month, day);
}

/** The earliest of the dates given, ignoring nulls. */
export function earliest(dates: (string | null)[]): string | null {
  const valid = dates.filter((d): d is string => d !== null).sort();
  return valid[0] ?? null;
}

/**
 * Files one identity document of a vessel: an MMSI, an IMO number (IMO-prefixed, or
 * seven digits given as the registration), or another identifier kept as it is.
 */
export function fileIdentityDocument(
  type: string,
  value: string,
  into: { imoValues: string[]; mmsiValues: string[]; externalIds: ExternalId[] },
): void {
  if (/^MMSI$/i.test(type)) into.mmsiValues.push(value);
  else if (/\bIMO\s*\d/i.test(value) || (/^Vessel Registration Identification$/i.test(type) && /^\d{7}$/.test(value))) into.imoValues.push(value);
  else into.externalIds.push({ type: type || "Identification", value });
}

/** Reads a CSV file through, for its errors only. */
export async function checkOfacCsv(c: Classified): Promise<void> {
  const rows = ofacCsvRows(c)[Symbol.asyncIterator]();
  while (!(await rows.next()).done);
}
