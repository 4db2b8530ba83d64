/**
 * New Zealand Russia Sanctions Register (MFAT workbook) -> ship designations,
 * from its "Ships" sheet. NZ is the one list that keeps de-listed ships in the
 * file: rows with "Record Deleted Flag" become designations with status "deleted",
 * carrying the deletion date and reason, so a diff reports them as de-listed.
 */
import {
  type Designation,
  excelSerialToIsoDate,
  makeDesignation,
  parseDayFirstDate,
  SanctionsParseError,
  uniqueStrings,
} from "../../../domain/sanctions/designation.ts";
import { describeFormat, detectFormat, firstWins, headerKey, type ParseOptions, type SanctionsInput, type SourceFile, toSourceFiles } from "./common.ts";
import { readXlsxSheet, SheetNotFoundError, workbookError } from "./xlsx-sheet.ts";

const LIST = "new-zealand";
export const NZ_REGISTER_URL = "https://www.mfat.govt.nz/assets/Countries-and-Regions/Europe/Ukraine/Russia-Sanctions-Register.xlsx";
export const NZ_PROGRAM = "Russia Sanctions Regulations 2022 (New Zealand)";

const MEASURE_COLUMNS = ["Travel Ban", "Asset Freeze", "Aircraft Ban", "Ship Ban", "Service Prohibition", "Dealing with Securities"];
const REQUIRED = ["unique identifier", "imo number", "name of ship as of date of sanction"];

type Cell = string | number | boolean | Date | null;

function cellText(value: Cell | undefined): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString().slice(0, 10);
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : String(value);
  return String(value).trim();
}

/** Dates arrive as Date (date-styled cells), Excel serials (unstyled) or text. */
function cellDate(value: Cell | undefined): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  if (typeof value === "number") return excelSerialToIsoDate(value);
  const s = String(value).trim();
  if (/^\d{5}(?:\.\d+)?$/.test(s)) return excelSerialToIsoDate(Number(s));
  return parseDayFirstDate(s);
}

function truthy(value: Cell | undefined): boolean {
  if (value === true) return true;
  return /^(y|yes|x|true|1|✓|✔)$/i.test(cellText(value));
}

/** The "Ships" sheet (or one renamed or re-cased: "SHIPS", "Ships "), read alone from the workbook. */
async function readShipsSheet(file: SourceFile): Promise<Cell[][]> {
  try {
    return await readXlsxSheet(LIST, file, (names) => names.find((s) => s === "Ships") ?? names.find((s) => /^\s*ships?\s*$/i.test(s)));
  } catch (error) {
    if (error instanceof SheetNotFoundError) {
      throw new SanctionsParseError(LIST, `${file.name} has no "Ships" sheet (sheets: ${error.sheets.join(", ") || "none"}); it is not the Russia Sanctions Register`, {
        cause: error,
      });
    }
    throw workbookError(LIST, file, error);
  }
}

function fromRows(file: SourceFile, rows: Cell[][]): Designation[] {
  const headerAt = rows.findIndex((r, i) => i < 20 && r.some((c) => headerKey(cellText(c)) === "unique identifier"));
  if (headerAt < 0) throw new SanctionsParseError(LIST, `${file.name}: the Ships sheet has no "Unique Identifier" header row`);
  const index = new Map<string, number>();
  rows[headerAt]!.forEach((c, i) => {
    const key = headerKey(cellText(c));
    if (key !== "" && !index.has(key)) index.set(key, i);
  });
  const missing = REQUIRED.filter((c) => !index.has(c));
  if (missing.length > 0) throw new SanctionsParseError(LIST, `${file.name}: the Ships sheet lacks the columns ${missing.join(", ")}`);
  const cell = (row: Cell[], column: string): Cell | undefined => {
    const i = index.get(column.toLowerCase());
    return i === undefined ? undefined : row[i];
  };

  const out: Designation[] = [];
  rows.slice(headerAt + 1).forEach((row, i) => {
    if (row.every((c) => cellText(c) === "")) return;
    const type = cellText(cell(row, "Type"));
    if (type !== "" && !/^(ship|vessel)s?$/i.test(type)) return;
    const imo = cellText(cell(row, "IMO Number"));
    const uniqueId = cellText(cell(row, "Unique Identifier"));
    const name = cellText(cell(row, "Name of Ship as of Date of Sanction"));
    if (uniqueId === "" && imo === "") {
      throw new SanctionsParseError(LIST, `${file.name}: Ships row ${headerAt + i + 2} has neither a Unique Identifier nor an IMO Number`);
    }
    const deleted = truthy(cell(row, "Record Deleted Flag"));
    const status = cellText(cell(row, "Sanction Status"));
    const additional = cellDate(cell(row, "Date of Additional Sanction"));
    out.push(
      makeDesignation({
        list: LIST,
        recordId: uniqueId !== "" ? uniqueId : `imo-${imo}`,
        name,
        aliases: cellText(cell(row, "Alias/Alternate Names")).split(/\s*[;\n]\s*/),
        program: NZ_PROGRAM,
        programs: [NZ_PROGRAM],
        imoValues: [imo],
        measures: MEASURE_COLUMNS.filter((m) => truthy(cell(row, m))),
        remarks: uniqueStrings([status ? `Sanction Status: ${status}` : "", additional ? `Date of Additional Sanction: ${additional}` : ""]).join(". "),
        listedAt: cellDate(cell(row, "Date of Sanction")),
        listedAtField: "Date of Sanction",
        updatedAt: additional,
        status: deleted ? "deleted" : "active",
        deletedAt: deleted ? cellDate(cell(row, "Date Record Deleted")) : null,
        deletionReason: deleted ? cellText(cell(row, "Reason for Deletion")) : null,
        sourceUrl: NZ_REGISTER_URL,
      }),
    );
  });
  return out;
}

/**
 * Parses the Russia Sanctions Register workbook (xlsx) into ship designations.
 * Asynchronous because the workbook is unzipped and read as a stream.
 */
export async function parseNewZealand(input: SanctionsInput, _options: ParseOptions = {}): Promise<Designation[]> {
  const files = toSourceFiles(input, LIST);
  if (files.length === 0) throw new SanctionsParseError(LIST, "no file supplied");
  const all: Designation[] = [];
  for (const file of files) {
    const format = detectFormat(file.bytes);
    if (format !== "xlsx") {
      throw new SanctionsParseError(LIST, `${file.name} is ${describeFormat(format)}; expected the Russia Sanctions Register .xlsx workbook`);
    }
    all.push(...fromRows(file, await readShipsSheet(file)));
  }
  return firstWins(all);
}
