/**
 * Import time and peak RSS of each sanctions list, each beside a file twice its size, so
 * the growth shows: a reader that streams keeps its peak flat, one that loads the file
 * whole grows with it.
 *
 *   npx node bench/sanctions-import.ts [scale] [file]   scale 1 (default): the largest file ~100 MB;
 *                                                       file: only the cases whose file name holds it
 *   npx node bench/sanctions-import.ts --write SDN_ADVANCED.XML <path> <MB>   one file, to profile by hand
 *
 * The files are synthetic but follow the real schemas: the bundled extracts of each
 * publication (test/fixtures/sanctions) are repeated with fresh record ids, vessels mixed
 * with non-vessel records in about the real share (OFAC 8%, UK 10%), to about the real
 * sizes: SDN_ADVANCED.XML ~100 MB, SDN_ENHANCED.XML ~100 MB, UK-Sanctions-List.xml ~30 MB,
 * UK-Sanctions-List.csv ~50 MB, sema-lmes.xml ~5 MB, SDN.CSV ~4 MB, New Zealand's workbook
 * ~21 MB (its Ships sheet beside a large other sheet); and OFAC's default
 * import, SDN.CSV with SDN_ADVANCED.XML. Every import runs in a child process of its own, on a
 * fresh SQLite data dir, and reports its own peak RSS (getrusage maxrss); a child that
 * opens the store and imports nothing gives the floor. Children run with the node options of
 * bin/mds.ts's shebang, as `mds` does (BENCH_NODE_DEFAULTS=1: node's defaults).
 */
import { spawnSync } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";

const ROOT = join(import.meta.dirname, "..");
const FIXTURES = join(ROOT, "test", "fixtures", "sanctions");
const MB = 1_048_576;

// ---- the child: one import, then its figures as one JSON line ----

async function child(list: string, files: string[]): Promise<void> {
  const { openServices } = await import("../src/compose/services.ts");
  const { parseConfig } = await import("../src/config.ts");
  const { importSanctions } = await import("../src/adapters/importers/sanctions-import.ts");
  const dataDir = mkdtempSync(join(tmpdir(), "mds-bench-sanctions-"));
  const core = await openServices(parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }, ROOT));
  try {
    const started = performance.now();
    let active = 0;
    if (list !== "none") active = (await importSanctions(core.services, list, files, { onWarning: () => {} })).active;
    const ms = performance.now() - started;
    console.log(JSON.stringify({ ms, peakRssMb: process.resourceUsage().maxRSS / 1024, active }));
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- synthetic publications ----

/** Writes head + body(k) for k = 0.. until the file reaches `bytes`, then tail. */
async function writeRepeated(path: string, head: string, body: (k: number) => string, tail: string, bytes: number): Promise<void> {
  const out = createWriteStream(path);
  let written = 0;
  const write = async (s: string) => {
    written += Buffer.byteLength(s);
    if (!out.write(s)) await once(out, "drain");
  };
  await write(head);
  for (let k = 0; written < bytes; k++) await write(body(k));
  await write(tail);
  out.end();
  await once(out, "finish");
}

const between = (s: string, open: string, close: string) => s.slice(s.indexOf(open) + open.length, s.indexOf(close));
const blocks = (s: string, re: RegExp) => [...s.matchAll(re)].map((m) => m[0]);
/** Fresh ids for copy k: every record-id attribute moved by k * 10^8. */
const shiftIds = (block: string, k: number, attrs = "ID|FixedRef|ProfileID|IdentityID|From|To") =>
  block.replace(new RegExp(`\\b(${attrs})="(\\d+)"`, "g"), (_, a: string, v: string) => `${a}="${Number(v) + k * 100_000_000}"`);

/** SDN_ADVANCED.XML: per copy the two vessels and their owner, and 20 other parties (8% vessels, as in the real file). */
async function advancedXml(path: string, bytes: number, others = 20): Promise<void> {
  const t = readFileSync(join(FIXTURES, "ofac", "sdn_advanced_structure_from_csv_rows.xml"), "utf8");
  const head = t.slice(0, t.indexOf("<IDRegDocuments>"));
  const docs = blocks(between(t, "<IDRegDocuments>", "</IDRegDocuments>"), /<IDRegDocument [\s\S]*?<\/IDRegDocument>/g);
  const parties = blocks(between(t, "<DistinctParties>", "</DistinctParties>"), /<DistinctParty [\s\S]*?<\/DistinctParty>/g);
  const rels = between(t, "<ProfileRelationships>", "</ProfileRelationships>");
  const entries = blocks(between(t, "<SanctionsEntries>", "</SanctionsEntries>"), /<SanctionsEntry [\s\S]*?<\/SanctionsEntry>/g);
  // The real file averages ~6.5 kB a party (names, addresses, features of people and companies).
  const padding = Array.from({ length: 25 }, (_, i) => `<Feature ID="${900 + i}" FeatureTypeID="8"><FeatureVersion ID="${900 + i}"><VersionDetail DetailTypeID="1432">Address line ${i} of a company that is not a vessel, padded to the size of a real party</VersionDetail></FeatureVersion></Feature>`).join("");
  const other = { doc: docs[3]!, party: parties[3]!.replace("</Profile>", `${padding}</Profile>`), entry: entries[2]! };
  // One copy = a unit of each section; written section by section, as the schema orders them.
  const copies = Math.ceil(bytes / (6_000 + others * 7_200));
  const n = others + 1;
  const unit = (k: number, pick: (j: number) => string, own: string) => shiftIds(own, k * n) + Array.from({ length: others }, (_, j) => shiftIds(pick(j), k * n + j + 1)).join("");
  const out = createWriteStream(path);
  const write = async (s: string) => {
    if (!out.write(s)) await once(out, "drain");
  };
  await write(head);
  const sections: [string, (k: number) => string][] = [
    ["IDRegDocuments", (k) => unit(k, () => other.doc, docs.join(""))],
    ["DistinctParties", (k) => unit(k, () => other.party, parties.join(""))],
    ["ProfileRelationships", (k) => shiftIds(rels, k * n)],
    ["SanctionsEntries", (k) => unit(k, () => other.entry, entries.join(""))],
  ];
  for (const [name, body] of sections) {
    await write(`<${name}>`);
    for (let k = 0; k < copies; k++) await write(body(k));
    await write(`</${name}>`);
  }
  await write("</Sanctions>\n");
  out.end();
  await once(out, "finish");
}

/** SDN_ENHANCED.XML: per copy the vessel, its owner and the company, and 20 other entities. */
async function enhancedXml(path: string, bytes: number, others = 20): Promise<void> {
  const t = readFileSync(join(FIXTURES, "ofac", "sdn_enhanced_structure_from_csv_rows.xml"), "utf8");
  const head = t.slice(0, t.indexOf("<entities>") + "<entities>".length);
  const entities = blocks(between(t, "<entities>", "</entities>"), /<entity [\s\S]*?<\/entity>/g);
  const shift = (b: string, k: number) => shiftIds(b, k, "id|entityId");
  const features = Array.from({ length: 25 }, (_, i) => `<feature id="${900 + i}"><type featureTypeId="8">Address</type><value>Address line ${i} of a company that is not a vessel, padded to a real entity's size</value></feature>`).join("");
  const other = entities[2]!.replace("</entity>", `<features>${features}</features></entity>`);
  const n = others + 1;
  await writeRepeated(path, head, (k) => shift(entities.join(""), k * n) + Array.from({ length: others }, (_, j) => shift(other, k * n + j + 1)).join(""), "</entities></sanctionsData>\n", bytes);
}

/** UK-Sanctions-List.xml: per copy the two ship designations and 18 non-ship ones (10% ships). */
async function ukXml(path: string, bytes: number, others = 18): Promise<void> {
  const t = readFileSync(join(FIXTURES, "uk", "uk_sanctions_list_xml_ship_fragments.xml"), "utf8");
  const head = t.slice(0, t.indexOf("<Designation>"));
  const ships = blocks(t, /<Designation>[\s\S]*?<\/Designation>/g);
  const person = ships[0]!.replace("<IndividualEntityShip>Ship</IndividualEntityShip>", "<IndividualEntityShip>Individual</IndividualEntityShip>");
  const id = (b: string, k: number) => b.replace(/<UniqueID>([^<]+)<\/UniqueID>/, (_, v: string) => `<UniqueID>${v}-${k}</UniqueID>`);
  const n = others + 2;
  await writeRepeated(path, head, (k) => ships.map((s) => id(s, k * n)).join("") + Array.from({ length: others }, (_, j) => id(person, k * n + j + 1)).join(""), "</Designations>\n", bytes);
}

/** sema-lmes.xml (2026 bilingual element names): the excerpt's records with fresh item numbers. */
async function canadaXml(path: string, bytes: number): Promise<void> {
  const t = readFileSync(join(FIXTURES, "canada", "sema-lmes_post-2026-08-25_bilingual_tags_excerpt.xml"), "utf8");
  const head = t.slice(0, t.indexOf("<record>"));
  const records = blocks(t, /<record>[\s\S]*?<\/record>/g).join("");
  await writeRepeated(path, head, (k) => records.replace(/<(Item[^>]*)>([^<]*)</g, (_, tag: string, v: string) => `<${tag}>${v}.${k}<`), "</data-set>\n", bytes);
}

/** SDN.CSV: the real vessel rows of 2024-05-03 with fresh ent_nums, 15 in 16 turned into entity rows (6% vessels, as in the real file). */
async function sdnCsv(path: string, bytes: number): Promise<void> {
  const rows = readFileSync(join(FIXTURES, "ofac", "sdn_csv_vessel_rows_2024-05-03.csv"), "utf8").replaceAll("\u001a", "").trimEnd().split("\r\n");
  const row = (r: string, i: number, k: number) => {
    const shifted = r.replace(/^(\d+)/, (v) => String(Number(v) + k * 1_000_000));
    return i % 16 === 0 ? shifted : shifted.replace(',"vessel",', ",-0- ,");
  };
  await writeRepeated(path, "", (k) => `${rows.map((r, i) => row(r, i, k)).join("\r\n")}\r\n`, "", bytes);
}

/**
 * UK-Sanctions-List.csv: the "Report Date:" line, the official header, then per copy the 29 Apr
 * 2026 ships (one row per name, as the official CSV has them) and `others` rows of individuals
 * per ship row, each with an address and a statement of reasons (about 10% ship rows).
 */
async function ukCsv(path: string, bytes: number, others = 9): Promise<void> {
  const header = readFileSync(join(FIXTURES, "uk", "uk_sanctions_list_csv_header.txt"), "utf8")
    .split(/\r?\n/)
    .find((l) => l.startsWith("Last Updated,"))!
    .split(",");
  const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  const ships = readFileSync(join(FIXTURES, "uk", "uk_sanctions_list_ships_derived_2026-04-29.csv"), "utf8").trim().split(/\r?\n/).slice(1);
  const row = (values: Record<string, string>) => header.map((h) => quote(values[h] ?? "")).join(",");
  const reasons = "Statement of reasons of a designation that is not a ship, long enough to weigh what the real ones weigh in the file. ".repeat(12);
  const body = (k: number) => {
    const lines: string[] = [];
    for (const [i, line] of ships.entries()) {
      const [uniqueId, unRef, designated, updated, primary, aliases, imo] = line.split(",");
      const id = `${uniqueId}-${k}`;
      const names: [string, string][] = [[primary!, "Primary name"], ...(aliases ? aliases.split("; ").map((a): [string, string] => [a, "Alias"]) : [])];
      for (const [name, type] of names) {
        const base = { "Last Updated": updated!, "Unique ID": id, "UN Reference Number": unRef!, "Name type": type, "Date Designated": designated! };
        lines.push(row({ ...base, "Name 6": name, "Designation Type": "Ship", "Regime Name": "The Russia (Sanctions) (EU Exit) Regulations 2019", "IMO number": imo! }));
        for (let j = 0; j < others; j++) {
          lines.push(
            row({ ...base, "Unique ID": `IND${i}-${j}-${k}`, "Name 6": `${name} person ${j}`, "Name 1": "Given", "Designation Type": "Individual", "Address Line 1": `${j} Some Street`, "Address Country": "Russia", "UK Statement of Reasons": reasons }),
          );
        }
      }
    }
    return `${lines.join("\r\n")}\r\n`;
  };
  await writeRepeated(path, `\uFEFFReport Date: 29-Apr-2026\r\n${header.join(",")}\r\n`, body, "", bytes);
}

/**
 * OFAC's default import (what `serve` fetches): SDN.CSV as the base and SDN_ADVANCED.XML for the
 * dates, in one directory; the advanced file is then read once, for the vessels' entries.
 */
async function ofacDefaultSet(dir: string, bytes: number, others?: number): Promise<void> {
  mkdirSync(dir);
  await sdnCsv(join(dir, "SDN.CSV"), bytes * 0.04);
  await advancedXml(join(dir, "SDN_ADVANCED.XML"), bytes * 0.96, others);
}

/**
 * Russia-Sanctions-Register.xlsx: the test workbook's four ships beside a "Trade Measures" sheet
 * grown to the size asked (the real register is about 21 MB, most of it that sheet), its
 * descriptions all distinct, so the shared-string table is large too. Built in memory (about
 * 2.6 GB for 44 MB) by the tests' workbook writer.
 */
async function nzWorkbook(path: string, bytes: number): Promise<void> {
  const { buildXlsx, NZ_SHIPS_ROWS } = await import("../test/helpers/sanctions-fixtures.ts");
  const rows = Math.round(bytes / 40); // about 40 compressed bytes a trade row
  const trade: (string | number)[][] = [["HS Code", "Description", "Measure", "Rate", "From", "Note"]];
  for (let i = 0; i < rows; i++) {
    trade.push([String(100000 + i), `Goods of heading ${i % 5000} described at some length for the register ${i}`, i % 3 === 0 ? "Import ban" : "Export ban", 35 + (i % 7), 44000 + (i % 900), `note ${i}`]);
  }
  const workbook = buildXlsx([
    { name: "Russia Sanctions Register", rows: [["Unique Identifier", "Name"], ["X1", "Someone"]] },
    { name: "Ships", rows: NZ_SHIPS_ROWS },
    { name: "Trade Measures", rows: trade },
  ]);
  writeFileSync(path, workbook);
}

/** Bytes of a file, or of the files of a directory. */
function sizeOfPath(path: string): number {
  const info = statSync(path);
  return info.isDirectory() ? readdirSync(path).reduce((n, f) => n + statSync(join(path, f)).size, 0) : info.size;
}

/** Writes one synthetic file and exits: `--write SDN_ADVANCED.XML path MB [others]`, to profile an import by hand. */
async function writeOnly(file: string, path: string, mb: number, others?: number): Promise<void> {
  const c = CASES.find((x) => x.file === file);
  if (!c) throw new Error(`no case ${file}; one of ${CASES.map((x) => x.file).join(", ")}`);
  await c.generate(path, mb * MB, others);
}

// ---- the parent: generate, run each import in a child, print the table ----

interface Case {
  list: string;
  file: string;
  mb: number;
  generate: (path: string, bytes: number, others?: number) => Promise<void>;
  /** Non-vessel records per copy in the file doubled by non-vessel records alone (same vessels); none: not run. */
  othersWhenPadded?: number;
  /** Also a file four times the size. */
  quadrupled?: boolean;
}

const CASES: Case[] = [
  { list: "ofac", file: "SDN_ADVANCED.XML", mb: 100, generate: advancedXml, othersWhenPadded: 41, quadrupled: true },
  { list: "ofac", file: "SDN.CSV + SDN_ADVANCED.XML", mb: 104, generate: ofacDefaultSet, othersWhenPadded: 41 },
  { list: "ofac", file: "SDN_ENHANCED.XML", mb: 100, generate: enhancedXml, othersWhenPadded: 41 },
  { list: "ofac", file: "SDN.CSV", mb: 4, generate: sdnCsv },
  { list: "uk", file: "UK-Sanctions-List.xml", mb: 30, generate: ukXml, othersWhenPadded: 38 },
  { list: "uk", file: "UK-Sanctions-List.csv", mb: 50, generate: ukCsv, othersWhenPadded: 19 },
  { list: "canada", file: "sema-lmes.xml", mb: 5, generate: canadaXml },
  { list: "new-zealand", file: "Russia-Sanctions-Register.xlsx", mb: 21, generate: nzWorkbook },
];

/**
 * The node options `mds` runs with, read from the shebang of bin/mds.ts, so each import runs
 * as `mds import` and `mds serve` do; BENCH_NODE_DEFAULTS=1 runs them with node's defaults.
 */
function mdsNodeOptions(): string[] {
  if (process.env.BENCH_NODE_DEFAULTS === "1") return [];
  const shebang = readFileSync(join(ROOT, "bin", "mds.ts"), "utf8").split("\n", 1)[0]!;
  return shebang.split(/\s+/).filter((word) => word.startsWith("--"));
}

function runChild(list: string, files: string[]): { ms: number; peakRssMb: number; active: number } {
  const r = spawnSync(process.execPath, [...mdsNodeOptions(), import.meta.filename, "--child", list, ...files], { encoding: "utf8", maxBuffer: 1 << 24 });
  const line = r.stdout.trim().split("\n").pop() ?? "";
  if (r.status !== 0 || !line.startsWith("{")) throw new Error(`${list} import failed (exit ${r.status}): ${r.stderr.trim().split("\n").slice(-3).join(" | ")}`);
  return JSON.parse(line) as { ms: number; peakRssMb: number; active: number };
}

const loadAverage = () => loadavg().map((l) => l.toFixed(1)).join(" ");

async function parent(scale: number, only: string | undefined): Promise<void> {
  const cases = CASES.filter((c) => only === undefined || c.file.toLowerCase().includes(only.toLowerCase()));
  const dir = mkdtempSync(join(tmpdir(), "mds-bench-sanctions-files-"));
  try {
    console.log(`load average at the start: ${loadAverage()}; node options: ${mdsNodeOptions().join(" ") || "node's defaults"}`);
    const floor = runChild("none", []);
    console.log(`floor (store opened, nothing imported): peak RSS ${floor.peakRssMb.toFixed(0)} MB\n`);
    console.log("| list | file | size | vessels | import time | peak RSS |");
    console.log("|---|---|---|---|---|---|");
    for (const c of cases) {
      const runs: [string, number, number | undefined][] = [
        ["", 1, undefined],
        [" (doubled)", 2, undefined],
        ...(c.othersWhenPadded ? [[" (doubled by non-vessel records, same vessels)", 2, c.othersWhenPadded] as [string, number, number]] : []),
        ...(c.quadrupled ? [[" (quadrupled)", 4, undefined] as [string, number, undefined]] : []),
      ];
      for (const [label, factor, others] of runs) {
        const path = join(dir, `${factor}x-${c.file.replace(/[^\w.-]+/g, "_")}`);
        await c.generate(path, c.mb * scale * factor * MB, others);
        const size = sizeOfPath(path) / MB;
        const r = runChild(c.list, [path]);
        rmSync(path, { recursive: true });
        console.log(`| ${c.list} | ${c.file}${label} | ${size.toFixed(1)} MB | ${r.active} | ${(r.ms / 1000).toFixed(1)} s | ${r.peakRssMb.toFixed(0)} MB |`);
      }
    }
    console.log(`\nload average at the end: ${loadAverage()}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--child") await child(process.argv[3]!, process.argv.slice(4));
else if (process.argv[2] === "--write") await writeOnly(process.argv[3]!, process.argv[4]!, Number(process.argv[5] ?? "100"), process.argv[6] === undefined ? undefined : Number(process.argv[6]));
else await parent(Number(process.argv[2] ?? "1"), process.argv[3]);
