/**
 * Shared plumbing of the sanctions parsers: input shapes, format sniffing, and
 * XML/CSV decoding that fails loudly with the list's name. A parser must never
 * turn a broken download into an empty list, because an empty list reads as
 * "everything was de-listed".
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { type SanctionsListKey, SanctionsParseError } from "../../../domain/sanctions/designation.ts";
import { parseCsvRecords } from "../csv-reader.ts";
import { utf8 } from "../read-source.ts";
import { unzip } from "./zip.ts";

/**
 * One file of a publication; the name is only used in messages and as a hint. A file on disk
 * (`path`) is read only when a parser asks for `bytes`; the streaming readers never do, so
 * a 100 MB download is never held in memory.
 */
export type SourceFile = { name: string; readonly bytes: Buffer; path?: string; size?: number };

/** A publication file on disk, loaded on first use of `bytes`. */
export function diskFile(name: string, path: string): SourceFile {
  let loaded: Buffer | null = null;
  return {
    name,
    path,
    size: statSync(path).size,
    get bytes() {
      loaded ??= readFileSync(path);
      return loaded;
    },
  };
}

/** The first bytes of a file, without reading a file on disk whole. */
export function headOf(file: SourceFile, length: number): Buffer {
  if (file.path === undefined) return file.bytes.subarray(0, length);
  const fd = openSync(file.path, "r");
  try {
    const buffer = Buffer.alloc(Math.min(length, file.size ?? length));
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Byte size, without reading a file on disk. */
export function sizeOf(file: SourceFile): number {
  return file.path !== undefined && file.size !== undefined ? file.size : file.bytes.length;
}

/** Format of a file by its first bytes; a zip is told from a workbook by its whole directory, so it is read then (zips are small). */
export function formatOf(file: SourceFile): SanctionsFormat {
  const head = headOf(file, 65_536);
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b) return detectFormat(file.bytes);
  return sizeOf(file) === 0 ? "empty" : detectFormat(head);
}

/**
 * What a parser accepts: the bytes of one file, or several named files
 * (an array, a plain object or a Map of name -> bytes), e.g. OFAC's sdn.csv + alt.csv.
 */
export type SanctionsInput = Buffer | Uint8Array | readonly SourceFile[] | Readonly<Record<string, Buffer | Uint8Array>> | ReadonlyMap<string, Buffer | Uint8Array>;

export type ParseOptions = {
  /** Receives non-fatal observations (a missing companion file, an unreadable value). */
  onWarning?: (message: string) => void;
};

/**
 * Normalises an input to named files. Zip archives other than xlsx workbooks
 * are opened and replaced by their members ("SDN_XML.ZIP/SDN.XML").
 */
export function toSourceFiles(input: SanctionsInput, list?: SanctionsListKey): SourceFile[] {
  let files: SourceFile[];
  if (Buffer.isBuffer(input) || input instanceof Uint8Array) files = [{ name: "input", bytes: Buffer.from(input) }];
  else if (Array.isArray(input)) files = (input as readonly SourceFile[]).map((f) => (f.path !== undefined ? f : { name: f.name, bytes: Buffer.from(f.bytes) }));
  else if (input instanceof Map) files = [...input].map(([name, bytes]) => ({ name, bytes: Buffer.from(bytes) }));
  else files = Object.entries(input as Record<string, Buffer | Uint8Array>).map(([name, bytes]) => ({ name, bytes: Buffer.from(bytes) }));
  return files.flatMap((file) => {
    if (formatOf(file) !== "zip") return [file];
    let entries: { name: string; bytes: Buffer }[];
    try {
      entries = unzip(file.bytes);
    } catch (error) {
      const message = `${file.name} is a zip archive that cannot be read: ${(error as Error).message}`;
      if (list) throw new SanctionsParseError(list, message, { cause: error });
      throw new Error(message, { cause: error });
    }
    return entries.map((e) => ({ name: `${file.name}/${e.name}`, bytes: e.bytes }));
  });
}

/** OFAC ends its CSV files with a DOS end-of-file byte. */
export const CTRL_Z = "\u001a";

export type SanctionsFormat = "xml" | "csv" | "xlsx" | "zip" | "empty" | "unknown";

/**
 * Sniffs the format from content, not from the name: official files are served
 * as application/octet-stream and URLs often carry no extension.
 */
export function detectFormat(bytes: Uint8Array): SanctionsFormat {
  if (bytes.length === 0) return "empty";
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    // A workbook names its parts "xl/..."; the names are in the local headers near the
    // start and again in the central directory at the end.
    const head = Buffer.from(bytes.subarray(0, Math.min(bytes.length, 65536)));
    const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 65536)));
    return head.includes("xl/workbook") || tail.includes("xl/workbook") ? "xlsx" : "zip";
  }
  const raw = Buffer.from(bytes.subarray(0, Math.min(bytes.length, 4096)));
  if (raw[0] === 0xd0 && raw[1] === 0xcf) return "unknown"; // legacy .xls/OLE, not supported
  const utf16 = isUtf16(raw);
  const head = utf16 ? Buffer.from(toText(raw), "utf8") : raw;
  const text = utf8(head).replaceAll(CTRL_Z, "").trimStart();
  if (text === "") return "empty";
  if (!looksLikeText(head)) return "unknown";
  if (text.startsWith("<")) return "xml";
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  if (/[,;\t]/.test(firstLine) || /^Report Date:/i.test(firstLine)) return "csv";
  return "unknown";
}

function looksLikeText(head: Buffer): boolean {
  let control = 0;
  for (const b of head) {
    if (b === 0) return false;
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1a)) control++;
  }
  if (control > head.length / 100) return false;
  const decoded = head.toString("utf8");
  // A cut multi-byte sequence at the end of the sniffed window is not evidence of binary data.
  const replacements = (decoded.slice(0, -4).match(/\uFFFD/g) ?? []).length;
  return replacements <= head.length / 200;
}

export function describeFormat(format: SanctionsFormat): string {
  switch (format) {
    case "empty":
      return "empty (0 bytes or whitespace only)";
    case "unknown":
      return "not CSV, XML or an xlsx workbook (binary or unrecognised content)";
    default:
      return format.toUpperCase();
  }
}

/** UTF-8 text of a file without BOM or OFAC's trailing Ctrl-Z; refuses binary content. */
export function decodeText(list: SanctionsListKey, file: SourceFile): string {
  const format = detectFormat(file.bytes);
  if (format === "empty") throw new SanctionsParseError(list, `${file.name} is empty; an empty download is never a valid list`);
  if (format === "unknown" || format === "xlsx" || format === "zip") {
    throw new SanctionsParseError(list, `${file.name} is ${describeFormat(format)}, expected a text file`);
  }
  return toText(file.bytes).replaceAll(CTRL_Z, "");
}

function isUtf16(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/** Text of a file: UTF-8 (BOM stripped), or UTF-16 when it starts with a UTF-16 byte-order mark (spreadsheet exports). */
function toText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes);
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return buffer.subarray(2).toString("utf16le");
  if (buffer[0] === 0xfe && buffer[1] === 0xff) {
    const swapped = Buffer.from(buffer.subarray(2, buffer.length - (buffer.length % 2)));
    return swapped.swap16().toString("utf16le");
  }
  return utf8(buffer);
}

export type XmlNode = Record<string, unknown>;

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
});

/**
 * Parses an XML document after checking it is well formed, so a truncated
 * download fails with the line where it broke instead of yielding fewer records.
 * Returns the root element's name and node.
 */
export function parseXml(list: SanctionsListKey, file: SourceFile): { root: string; node: XmlNode } {
  const text = decodeText(list, file);
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw new SanctionsParseError(list, `${file.name} is not well-formed XML (line ${line}, column ${col}: ${msg}); the file may be truncated or not XML`);
  }
  let doc: XmlNode;
  try {
    doc = xmlParser.parse(text) as XmlNode;
  } catch (error) {
    throw new SanctionsParseError(list, `${file.name} could not be parsed as XML: ${(error as Error).message}`, { cause: error });
  }
  const roots = Object.keys(doc).filter((k) => !k.startsWith("?") && !k.startsWith("#"));
  const root = roots[0];
  if (root === undefined) throw new SanctionsParseError(list, `${file.name} has no XML root element`);
  const node = doc[root];
  return { root, node: typeof node === "object" && node !== null ? (node as XmlNode) : {} };
}

/** An element that may occur once or many times, as an array. */
export function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null || value === "") return [];
  return Array.isArray(value) ? value : [value];
}

/** Child elements as nodes (a text-only child becomes { "#text": ... }). */
export function children(node: unknown, name: string): XmlNode[] {
  if (typeof node !== "object" || node === null) return [];
  return asArray((node as XmlNode)[name]).map((c) => (typeof c === "object" && c !== null ? (c as XmlNode) : { "#text": String(c) }));
}

export function child(node: unknown, name: string): XmlNode | undefined {
  return children(node, name)[0];
}

/** The text of an element (or of a named child), "" when absent. */
export function text(node: unknown, name?: string): string {
  const target = name === undefined ? node : typeof node === "object" && node !== null ? (node as XmlNode)[name] : undefined;
  const first = Array.isArray(target) ? target[0] : target;
  if (first === undefined || first === null) return "";
  if (typeof first === "object") {
    const t = (first as XmlNode)["#text"];
    return t === undefined || t === null ? "" : String(t).trim();
  }
  return String(first).trim();
}

/** Texts of every occurrence of a child element. */
export function texts(node: unknown, name: string): string[] {
  if (typeof node !== "object" || node === null) return [];
  return asArray((node as XmlNode)[name])
    .map((c) => text(c))
    .filter((s) => s !== "");
}

export function attr(node: unknown, name: string): string {
  if (typeof node !== "object" || node === null) return "";
  const v = (node as XmlNode)[`@_${name}`];
  return v === undefined || v === null ? "" : String(v).trim();
}

/** Raw CSV records (arrays of fields); errors name the list, the file and the line. */
export function parseCsvRows(list: SanctionsListKey, file: SourceFile, text: string, delimiter?: string): string[][] {
  try {
    // Rows differ in length by design here: OFAC's files have no header and the UK
    // CSV opens with a "Report Date:" line; each parser checks its own widths.
    return parseCsvRecords(text, { delimiter: delimiter ?? ",", relaxColumnCount: true });
  } catch (error) {
    throw new SanctionsParseError(list, `${file.name} is not valid CSV: ${(error as Error).message}`, { cause: error });
  }
}

/** Lower-cased, space-folded header text for column lookup that survives casing and stray spaces. */
export function headerKey(header: string): string {
  return header.replace(/^\uFEFF/, "").replace(/\s+/g, " ").trim().toLowerCase();
}

/** Maps header names to their index; the first occurrence wins. */
export function headerIndex(headers: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  headers.forEach((h, i) => {
    const key = headerKey(h);
    if (!map.has(key)) map.set(key, i);
  });
  return map;
}

/** Merges parsed records of several files by record id; the first file holding an id wins. */
export function firstWins<T extends { recordId: string }>(records: Iterable<T>): T[] {
  const out = new Map<string, T>();
  for (const r of records) if (!out.has(r.recordId)) out.set(r.recordId, r);
  return [...out.values()];
}
