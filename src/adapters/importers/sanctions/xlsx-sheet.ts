/**
 * One sheet of an xlsx workbook, read without unpacking the rest. New Zealand's register is
 * a workbook of about 21 MB whose "Trade Measures" sheet dwarfs the few hundred rows of its
 * "Ships" sheet; a workbook reader that unpacks every part (read-excel-file does) peaked at
 * some 870 MB RSS for a constructed workbook of that size. Here only the workbook's directory, the
 * wanted sheet and, as a stream, the strings that sheet uses are read.
 *
 * Cells come back as a workbook reader gives them, except dates: a date-styled number stays
 * the Excel serial number it is stored as (callers convert serials); a `t="d"` cell is a Date.
 */
import { type SanctionsListKey, SanctionsParseError } from "../../../domain/sanctions/designation.ts";
import type { PartOfFile } from "./chunks.ts";
import { attr, child, children, parseXml, type SourceFile, text, type XmlNode } from "./common.ts";
import { streamXmlElements } from "./xml-stream.ts";
import { extractZipEntry, zipDirectory, type ZipDirectoryEntry, zipEntryChunks } from "./zip.ts";

export type SheetCell = string | number | boolean | Date | null;

/** The workbook has no sheet the caller wants; `sheets` names those it has. */
export class SheetNotFoundError extends Error {
  readonly sheets: string[];
  constructor(sheets: string[]) {
    super(`no such sheet; sheets: ${sheets.join(", ") || "none"}`);
    this.name = "SheetNotFoundError";
    this.sheets = sheets;
  }
}

type RawCell = { col: number; type: string; value: string };

const asNode = (v: XmlNode | string): XmlNode => (typeof v === "string" ? { "#text": v } : v);

/** "AB12" -> 27 (zero-based column), or null without letters. */
function columnOf(ref: string): number | null {
  const letters = /^[A-Z]+/i.exec(ref)?.[0].toUpperCase();
  if (!letters) return null;
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** Text of a string item (`<si>` or `<is>`): plain, or the runs of rich text, phonetic runs left out. */
function stringItem(node: XmlNode | string): string {
  if (typeof node === "string") return node;
  return (
    text(node, "t") +
    children(node, "r")
      .map((r) => text(r, "t"))
      .join("")
  );
}

/** A relationship target ("worksheets/sheet2.xml", "/xl/sharedStrings.xml") as a path in the archive. */
function partPath(target: string): string {
  return target.startsWith("/") ? target.slice(1) : `xl/${target.replace(/^\.\//, "")}`;
}

/**
 * Reads the sheet `pick` chooses among the workbook's sheet names (in workbook order), as rows
 * indexed from the sheet's first row (a row absent from the file is an empty array). Throws
 * SheetNotFoundError when `pick` chooses none, an Error when the archive or its XML is broken.
 */
export async function readXlsxSheet(list: SanctionsListKey, file: SourceFile, pick: (names: string[]) => string | undefined): Promise<SheetCell[][]> {
  const archive = file.bytes;
  const entries = new Map<string, ZipDirectoryEntry>(zipDirectory(archive).map((e) => [e.name, e]));
  const small = (path: string): XmlNode => {
    const entry = entries.get(path);
    if (!entry) throw new Error(`the workbook has no ${path}`);
    return parseXml(list, { name: `${file.name}/${path}`, bytes: extractZipEntry(archive, entry) }).node;
  };
  const part = (path: string): PartOfFile => {
    const entry = entries.get(path);
    if (!entry) throw new Error(`the workbook has no ${path}`);
    return { name: `${file.name}/${path}`, chunks: () => zipEntryChunks(archive, entry) };
  };

  const sheets = children(child(small("xl/workbook.xml"), "sheets"), "sheet").map((s) => ({ name: attr(s, "name"), rel: attr(s, "id") }));
  const chosen = pick(sheets.map((s) => s.name));
  const sheet = sheets.find((s) => s.name === chosen);
  if (!sheet) throw new SheetNotFoundError(sheets.map((s) => s.name));
  const rels = children(small("xl/_rels/workbook.xml.rels"), "Relationship");
  const target = rels.find((r) => attr(r, "Id") === sheet.rel);
  if (!target) throw new Error(`the workbook names no part for sheet "${sheet.name}"`);
  const stringsRel = rels.find((r) => /\/sharedStrings$/.test(attr(r, "Type")));
  const stringsPath = stringsRel ? partPath(attr(stringsRel, "Target")) : "xl/sharedStrings.xml";

  const rows: RawCell[][] = [];
  await streamXmlElements(list, part(partPath(attr(target, "Target"))), {
    "worksheet/sheetData/row": (n) => {
      const row = asNode(n);
      const at = Number(attr(row, "r")) || rows.length + 1;
      const cells: RawCell[] = [];
      for (const c of children(row, "c")) {
        const type = attr(c, "t");
        const value = type === "inlineStr" ? stringItem(asNode(child(c, "is") ?? "")) : text(c, "v");
        cells.push({ col: columnOf(attr(c, "r")) ?? (cells.at(-1)?.col ?? -1) + 1, type, value });
      }
      while (rows.length < at - 1) rows.push([]);
      rows[at - 1] = cells;
    },
  });

  // Only the strings this sheet uses are kept: the table holds those of every sheet.
  const wanted = new Set(rows.flatMap((r) => r.filter((c) => c.type === "s").map((c) => Number(c.value))));
  const strings = new Map<number, string>();
  if (wanted.size > 0 && entries.has(stringsPath)) {
    let index = 0;
    await streamXmlElements(list, part(stringsPath), {
      "sst/si": (n) => {
        if (wanted.has(index)) strings.set(index, stringItem(n));
        index++;
      },
    });
  }

  return rows.map((cells) => {
    const out: SheetCell[] = [];
    for (const c of cells) {
      while (out.length < c.col) out.push(null);
      out[c.col] = cellValue(c, strings);
    }
    return out;
  });
}

function cellValue(c: RawCell, strings: Map<number, string>): SheetCell {
  switch (c.type) {
    case "s":
      return strings.get(Number(c.value)) ?? null;
    case "b":
      return c.value === "1";
    case "str":
    case "inlineStr":
      return c.value;
    case "e":
      return null;
    case "d": {
      const date = new Date(c.value);
      return Number.isNaN(date.getTime()) ? c.value : date;
    }
    default: {
      if (c.value === "") return null;
      const n = Number(c.value);
      return Number.isNaN(n) ? c.value : n;
    }
  }
}

/** Errors of a broken workbook as the list's parse errors. */
export function workbookError(list: SanctionsListKey, file: SourceFile, error: unknown): SanctionsParseError {
  return new SanctionsParseError(list, `${file.name} could not be read as an xlsx workbook: ${(error as Error).message}`, { cause: error });
}
