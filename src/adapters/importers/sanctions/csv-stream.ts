/**
 * Reads a CSV publication as a stream of records (csv-parse's streaming parser), so a large
 * file (the UK's CSV is about 50 MB) is never held whole, neither as text nor as rows: a
 * reader keeps only the records it needs. Fails as loudly as a whole-file parse: an empty or
 * binary file before the first record, a broken quote where it is found.
 */
import { pipeline, Readable } from "node:stream";
import { parse } from "csv-parse";
import { type SanctionsListKey, SanctionsParseError } from "../../../domain/sanctions/designation.ts";
import { textChunks } from "./chunks.ts";
import { CTRL_Z, describeFormat, formatOf, type SourceFile } from "./common.ts";

/** Refuses what cannot be a text file (empty, binary, a workbook), with the same words as decodeText. */
function checkText(list: SanctionsListKey, file: SourceFile): void {
  const format = formatOf(file);
  if (format === "empty") throw new SanctionsParseError(list, `${file.name} is empty; an empty download is never a valid list`);
  if (format === "unknown" || format === "xlsx" || format === "zip") {
    throw new SanctionsParseError(list, `${file.name} is ${describeFormat(format)}, expected a text file`);
  }
}

async function* csvText(file: SourceFile): AsyncIterable<string> {
  for await (const text of textChunks(file)) {
    const clean = text.replaceAll(CTRL_Z, "");
    if (clean !== "") yield clean;
  }
}

/**
 * The file's CSV records, one at a time; empty lines skipped, rows of any width (each reader
 * checks its own). Leaving the loop early closes the file.
 */
export async function* csvRecords(list: SanctionsListKey, file: SourceFile, delimiter = ","): AsyncIterable<string[]> {
  checkText(list, file);
  const parser = parse({ delimiter, relax_column_count: true, skip_empty_lines: true, bom: true });
  // pipeline (not pipe) so that a reader stopping early, or a parse error, also ends the file's read.
  const records = pipeline(Readable.from(csvText(file)), parser, () => {});
  try {
    for await (const record of records) yield record as string[];
  } catch (error) {
    throw new SanctionsParseError(list, `${file.name} is not valid CSV: ${(error as Error).message}`, { cause: error });
  }
}
