/**
 * The one way importers read a CSV file: refuse what cannot be the expected file
 * (empty, still gzip-compressed, binary, another table), then parse it, so a wrong
 * or damaged download fails loudly, naming the file and what is wrong, instead of
 * importing nothing or half of it.
 */
import { parse } from "csv-parse/sync";
import { parseCsvText } from "./csv-text.ts";

export type CsvReadOptions<C extends string> = {
  /** Names the file in every error, e.g. "NOAA AWOIS wrecks CSV". */
  label: string;
  /** Header columns the file must have (matched after trimming). */
  columns: readonly C[];
  /** Match column names ignoring case: MARAD's capitalisation varies between editions. */
  ignoreCase?: boolean;
  /**
   * Rows may have fewer or more fields than the header. Off by default, so a row cut
   * short (a truncated download) is an error rather than a row of blanks.
   */
  relaxColumnCount?: boolean;
  /**
   * Read text that is not valid UTF-8 as Latin-1 (UNECE has published its downloads
   * in Latin-1) instead of decoding it with replacement characters.
   */
  latin1Fallback?: boolean;
  /** Parse with the hand-written reader of csv-text.ts (large files read at first start; rows may differ in length). */
  fast?: boolean;
  /**
   * For a file published both with and without a header row: given the first record,
   * the header it implies when that record is data, else null.
   */
  impliedHeader?: (first: string[]) => readonly string[] | null;
};

export type CsvTable<C extends string> = {
  /** Trimmed header names (the implied ones for a headerless file). */
  header: string[];
  /** Data rows, the header row excluded. */
  rows: string[][];
  /** Index of each required column (its first occurrence). */
  column: Record<C, number>;
};

/** Decodes, checks and parses CSV bytes; throws an Error starting with the label. */
export function readCsv<C extends string>(bytes: Buffer, options: CsvReadOptions<C>): CsvTable<C> {
  const { label } = options;
  const fail = (problem: string, cause?: unknown): never => {
    throw new Error(`${label}: ${problem}`, cause === undefined ? undefined : { cause });
  };
  const text = decode(bytes, options);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  if (firstLine.includes("\uFFFD")) fail("not UTF-8 CSV text (undecodable bytes in the header line)");

  // The header is checked before the whole file is parsed, so another table is named
  // as such even when its body would not parse.
  let first: string[] = [];
  try {
    first = parseRecords(firstLine, options)[0] ?? [];
  } catch (err) {
    fail(`unreadable header line: ${(err as Error).message}`, err);
  }
  const implied = options.impliedHeader?.(first) ?? null;
  const header = (implied ? [...implied] : first).map((h) => h.trim());
  const key = options.ignoreCase ? (h: string) => h.toLowerCase() : (h: string) => h;
  const keys = header.map(key);
  const missing = options.columns.filter((c) => !keys.includes(key(c)));
  if (missing.length > 0) {
    const named = missing.slice(0, 6).join(", ") + (missing.length > 6 ? ` and ${missing.length - 6} more` : "");
    const got = header.slice(0, 8).map((h) => JSON.stringify(h.slice(0, 40)));
    fail(`unexpected header, missing column(s) ${named}; got ${got.join(", ")}${header.length > 8 ? ", …" : ""}; is this the right file?`);
  }

  let records: string[][] = [];
  try {
    records = parseRecords(text, options);
  } catch (err) {
    fail(`malformed CSV: ${(err as Error).message}`, err);
  }
  const rows = implied ? records : records.slice(1);
  if (rows.length === 0) fail("no data rows after the header");
  // Where rows may vary in length, a download cut off mid-row still parses; its last
  // row is then shorter than the header (no bundled file has a short row at all).
  const lastWidth = rows[rows.length - 1]!.length;
  if (lastWidth < header.length) {
    fail(`the last row has ${lastWidth} of the header's ${header.length} fields; the file looks truncated`);
  }
  const column = Object.fromEntries(options.columns.map((c) => [c, keys.indexOf(key(c))])) as Record<C, number>;
  return { header, rows, column };
}

/** CSV records of a text with csv-parse (empty lines skipped); throws csv-parse's error, which names the line. */
export function parseCsvRecords(text: string, options: { delimiter?: string; relaxColumnCount?: boolean } = {}): string[][] {
  return parse(text, {
    delimiter: options.delimiter ?? ",",
    relax_column_count: options.relaxColumnCount ?? false,
    skip_empty_lines: true,
    bom: true,
  }) as string[][];
}

function parseRecords(text: string, options: CsvReadOptions<string>): string[][] {
  return options.fast ? parseCsvText(text) : parseCsvRecords(text, { relaxColumnCount: options.relaxColumnCount ?? false });
}

function decode(bytes: Buffer, options: CsvReadOptions<string>): string {
  const { label } = options;
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${label}: expected the file's bytes as a Buffer`);
  if (bytes.length === 0) throw new Error(`${label}: the file is empty`);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    throw new Error(`${label}: the file is still gzip-compressed (readSource() decompresses it)`);
  }
  if (bytes.includes(0)) throw new Error(`${label}: binary data (NUL bytes), not CSV text`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // Outside the header, a stray byte in an otherwise UTF-8 file becomes U+FFFD
    // rather than failing the whole import (the header line is checked by the caller).
    text = options.latin1Fallback ? Buffer.from(bytes).toString("latin1") : Buffer.from(bytes).toString("utf8");
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === "") throw new Error(`${label}: the file is empty`);
  return text;
}

/** A field trimmed, "" when the row is shorter than the header. */
export function cell(row: readonly string[], index: number): string {
  return (row[index] ?? "").trim();
}
