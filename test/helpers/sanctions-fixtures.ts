/**
 * Test helpers for the sanctions importers: fixture access, a minimal xlsx
 * writer (the NZ register has no public verbatim sample), a re-assembly of the
 * UK derived ship table into the official CSV layout, and a reconstruction of
 * an earlier OFAC sdn.csv from the recorded change history.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32, deflateRawSync } from "node:zlib";

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "sanctions");

export function fixturePath(...parts: string[]): string {
  return join(FIXTURES, ...parts);
}

export function fixture(...parts: string[]): Buffer {
  return readFileSync(fixturePath(...parts));
}

export function namedFixture(...parts: string[]): { name: string; bytes: Buffer } {
  return { name: parts[parts.length - 1]!, bytes: fixture(...parts) };
}

// --- zip + xlsx writer --------------------------------------------------------

/** A zip archive of deflated entries with a fixed timestamp, so output is byte-stable. */
export function buildZip(entries: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const dosDate = (0 << 9) | (1 << 5) | 1; // 1980-01-01
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const compressed = deflateRawSync(entry.data);
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, compressed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const centralDirectory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDirectory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDirectory, end]);
}

export type XlsxCell = string | number | Date | null;

function xmlEscape(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function columnName(index: number): string {
  let n = index + 1;
  let name = "";
  while (n > 0) {
    const r = (n - 1) % 26;
    name = String.fromCharCode(65 + r) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/**
 * A minimal but genuine SpreadsheetML workbook: shared strings for text, numbers
 * as numbers, and dates as serial numbers in a date style (built-in format 14),
 * which is how Excel stores the NZ register's "Date of Sanction".
 */
export function buildXlsx(sheets: { name: string; rows: XlsxCell[][] }[]): Buffer {
  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const sst = (s: string) => {
    let i = stringIndex.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      stringIndex.set(s, i);
    }
    return i;
  };
  const sheetXml = sheets.map((sheet) => {
    const rows = sheet.rows
      .map((row, r) => {
        const cells = row
          .map((value, c) => {
            const ref = `${columnName(c)}${r + 1}`;
            if (value === null || value === "") return "";
            if (value instanceof Date) {
              const serial = (value.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000;
              return `<c r="${ref}" s="1"><v>${serial}</v></c>`;
            }
            if (typeof value === "number") return `<c r="${ref}"><v>${value}</v></c>`;
            return `<c r="${ref}" t="s"><v>${sst(value)}</v></c>`;
          })
          .join("");
        return `<row r="${r + 1}">${cells}</row>`;
      })
      .join("");
    return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;
  });
  const main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
  const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  const ct = "application/vnd.openxmlformats-officedocument.spreadsheetml";
  const entries = [
    {
      name: "[Content_Types].xml",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${ct}.sheet.main+xml"/>${sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${ct}.worksheet+xml"/>`).join("")}<Override PartName="/xl/styles.xml" ContentType="${ct}.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="${ct}.sharedStrings+xml"/></Types>`,
    },
    {
      name: "_rels/.rels",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: "xl/workbook.xml",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="${main}" xmlns:r="${rel}"><sheets>${sheets.map((s, i) => `<sheet name="${xmlEscape(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("")}</sheets></workbook>`,
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${rel}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join("")}<Relationship Id="rId${sheets.length + 1}" Type="${rel}/styles" Target="styles.xml"/><Relationship Id="rId${sheets.length + 2}" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    },
    {
      name: "xl/styles.xml",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="${main}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    },
    ...sheetXml.map((data, i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, data })),
  ];
  // Shared strings last: their content is only known once every sheet is written.
  entries.push({
    name: "xl/sharedStrings.xml",
    data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${main}" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t xml:space="preserve">${xmlEscape(s)}</t></si>`).join("")}</sst>`,
  });
  return buildZip(entries.map((e) => ({ name: e.name, data: Buffer.from(e.data, "utf8") })));
}

// --- NZ Ships sheet -------------------------------------------------------------

/** Column order of the Ships sheet as given in nz/ships_sheet_schema_and_known_values.md. */
export const NZ_SHIPS_HEADER = [
  "Type",
  "Unique Identifier",
  "IMO Number",
  "Name of Ship as of Date of Sanction",
  "Date of Sanction",
  "Alias/Alternate Names",
  "Date of Additional Sanction",
  "Sanction Status",
  "Travel Ban",
  "Asset Freeze",
  "Aircraft Ban",
  "Ship Ban",
  "Service Prohibition",
  "Dealing with Securities",
  "Date Record Deleted",
  "Record Deleted Flag",
  "Reason for Deletion",
];

const d = (iso: string) => new Date(`${iso}T00:00:00Z`);

/**
 * Ships rows: IMO, name, date and deleted flag of the three ships are the values
 * quoted in the schema notes; Unique Identifiers, measure flags, the alias, the
 * deletion date/reason and the fourth row (Angara, borrowed from the EU annex)
 * are invented for the test.
 */
export const NZ_SHIPS_ROWS: XlsxCell[][] = [
  NZ_SHIPS_HEADER,
  ["Ship", "NZ-TEST-S0001", 9288693, "Andaman Skies", d("2025-06-19"), null, null, "Sanctioned", null, null, null, "Yes", "Yes", null, null, null, null],
  ["Ship", "NZ-TEST-S0002", 9288746, "Udaya", d("2025-06-19"), "Udaya 1; Udaya I", null, "Sanctioned", null, null, null, "Yes", "Yes", null, null, null, null],
  ["Ship", "NZ-TEST-S0003", 9281011, "Moti", d("2025-06-19"), null, null, "Sanctioned", null, null, null, "Yes", "Yes", null, d("2026-03-02"), "Yes", "Test: vessel scrapped"],
  // IMO as text cell and the date as a plain (unstyled) serial number, both seen in MFAT workbooks per the notes.
  ["Ship", "NZ-TEST-S0004", "9179842", "Angara", 45708, null, null, "Sanctioned", null, null, null, "Yes", null, null, null, null, null],
];

export function buildNzWorkbook(rows: XlsxCell[][] = NZ_SHIPS_ROWS): Buffer {
  return buildXlsx([
    { name: "Russia Sanctions Register", rows: [["Legend"], [], ["Type", "Unique Identifier", "First name", "Last name"], ["Individual", "TEST-P1", "Test", "Person"]] },
    { name: "Ships", rows },
    { name: "Trade Measures", rows: [["HS Code", "Description"]] },
  ]);
}

// --- UK CSV re-assembly -----------------------------------------------------------

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The 58-column header recorded in uk/uk_sanctions_list_csv_header.txt. */
export function ukCsvHeader(): string[] {
  const line = fixture("uk", "uk_sanctions_list_csv_header.txt")
    .toString("utf8")
    .split(/\r?\n/)
    .find((l) => l.startsWith("Last Updated,Unique ID,"));
  if (!line) throw new Error("UK CSV header line not found in the fixture");
  return line.split(",");
}

const UK_REGIME_BY_PREFIX: Record<string, string> = {
  RUS: "The Russia (Sanctions) (EU Exit) Regulations 2019",
  DPR: "The Democratic People's Republic of Korea (Sanctions) (EU Exit) Regulations 2019",
};

/**
 * Rebuilds the official UK-Sanctions-List.csv layout (metadata line, header,
 * one row per name) from the derived 29-Apr-2026 ship table. The regime is
 * inferred from the Unique ID prefix, which the derivation does not carry.
 */
export function reassembleUkCsv(): string {
  const header = ukCsvHeader();
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`no column ${name}`);
    return i;
  };
  const derived = fixture("uk", "uk_sanctions_list_ships_derived_2026-04-29.csv").toString("utf8").trim().split(/\r?\n/).slice(1);
  const lines = ["Report Date: 29-Apr-2026", header.join(",")];
  for (const line of derived) {
    const [uniqueId, unRef, designated, updated, primary, aliases, imo] = line.split(",");
    const names: [string, string][] = [[primary!, "Primary name"], ...(aliases ? aliases.split("; ").map((a): [string, string] => [a, "Alias"]) : [])];
    for (const [name, type] of names) {
      const row = header.map(() => "");
      row[col("Last Updated")] = updated!;
      row[col("Unique ID")] = uniqueId!;
      row[col("UN Reference Number")] = unRef!;
      row[col("Name 6")] = name;
      row[col("Name type")] = type;
      row[col("Regime Name")] = UK_REGIME_BY_PREFIX[uniqueId!.slice(0, 3)] ?? "";
      row[col("Designation Type")] = "Ship";
      row[col("Designation source")] = uniqueId!.startsWith("DPR") ? "UN" : "UK";
      row[col("Sanctions Imposed")] = "";
      row[col("Date Designated")] = designated!;
      row[col("IMO number")] = imo!;
      lines.push(row.map(csvField).join(","));
    }
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

// --- OFAC history -------------------------------------------------------------------

type ChangeEvent = {
  snapshot: string;
  change: "ADDED" | "REMOVED" | "MODIFIED";
  entNum: string;
  before: { name: string; imo: string; mmsi: string; programs: string; flag: string };
  after: { name: string; imo: string; mmsi: string; programs: string; flag: string };
};

export function ofacChanges(): ChangeEvent[] {
  const [, ...lines] = fixture("ofac", "sdn_csv_vessel_changes_2021-08_to_2024-05.tsv").toString("utf8").trim().split(/\r?\n/);
  return lines.map((line) => {
    const f = line.split("\t");
    return {
      snapshot: f[1]!,
      change: f[4] as ChangeEvent["change"],
      entNum: f[5]!,
      before: { name: f[6]!, imo: f[7]!, mmsi: f[8]!, programs: f[9]!, flag: f[10]! },
      after: { name: f[11]!, imo: f[12]!, mmsi: f[13]!, programs: f[14]!, flag: f[15]! },
    };
  });
}

function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = "";
      i++;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          value += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else value += line[i++];
      }
      out.push(value);
      i++; // comma
    } else {
      const end = line.indexOf(",", i);
      out.push(end < 0 ? line.slice(i) : line.slice(i, end));
      i = end < 0 ? line.length + 1 : end + 1;
    }
  }
  return out;
}

function ofacLine(fields: string[]): string {
  return fields.map((f, i) => (f === "-0- " || i === 0 ? f : `"${f.replace(/"/g, '""')}"`)).join(",");
}

/**
 * The vessel rows of sdn.csv as they stood before `afterSnapshot`, rebuilt by
 * undoing, newest first, the recorded changes of later snapshots on the real
 * 2024-05-03 rows. Removed vessels come back with the identifiers the history kept.
 */
export function ofacCsvBefore(afterSnapshot: string): { csv: string; events: ChangeEvent[] } {
  const events = ofacChanges()
    .filter((e) => e.snapshot > afterSnapshot)
    .reverse();
  const lines = fixture("ofac", "sdn_csv_vessel_rows_2024-05-03.csv")
    .toString("utf8")
    .split("\r\n")
    .filter((l) => l !== "" && l !== "\u001a");
  const rows = new Map(lines.map((l) => [l.split(",", 1)[0]!, parseCsvLine(l)]));
  for (const e of events) {
    if (e.change === "ADDED") rows.delete(e.entNum);
    else if (e.change === "REMOVED") {
      const b = e.before;
      const remarks = [b.imo ? `Vessel Registration Identification IMO ${b.imo}` : "", b.mmsi ? `MMSI ${b.mmsi}` : ""].filter((s) => s).join("; ");
      rows.set(e.entNum, [e.entNum, b.name, "vessel", b.programs, "-0- ", "-0- ", "-0- ", "-0- ", "-0- ", b.flag, "-0- ", `${remarks}.`]);
    } else {
      const row = rows.get(e.entNum)!;
      row[1] = e.before.name;
      row[3] = e.before.programs;
      row[9] = e.before.flag;
      let remarks = row[11]!;
      if (e.after.imo !== e.before.imo) remarks = remarks.replace(`IMO ${e.after.imo}`, `IMO ${e.before.imo}`);
      if (e.after.mmsi !== e.before.mmsi) {
        if (e.after.mmsi && e.before.mmsi) remarks = remarks.replace(`MMSI ${e.after.mmsi}`, `MMSI ${e.before.mmsi}`);
        else if (e.after.mmsi) remarks = remarks.replace(`; MMSI ${e.after.mmsi}`, "");
        else remarks = remarks.replace(/\.$/, `; MMSI ${e.before.mmsi}.`);
      }
      row[11] = remarks;
    }
  }
  const csv = [...rows.values()].map(ofacLine).join("\r\n");
  return { csv: `${csv}\r\n\u001a`, events };
}

/**
 * The real 2024-05-03 vessel rows of sdn.csv with the first `n` vessels that carry an IMO
 * renamed (`suffix` added to the name): a next version that changes `n` designations, and
 * the IMO numbers of the renamed vessels.
 */
export function ofacWithRenames(n: number, suffix = " II"): { csv: string; imos: number[] } {
  const lines = fixture("ofac", "sdn_csv_vessel_rows_2024-05-03.csv").toString("utf8").split("\r\n");
  const imos: number[] = [];
  for (const [i, line] of lines.entries()) {
    const imo = /IMO (\d{7})/.exec(line);
    if (!imo || imos.length >= n) continue;
    imos.push(Number(imo[1]));
    lines[i] = line.replace(/^(\d+),"([^"]*)"/, (_m, id: string, name: string) => `${id},"${name}${suffix}"`);
  }
  return { csv: lines.join("\r\n"), imos };
}
