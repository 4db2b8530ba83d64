import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseInspectionsCsv } from "../../src/adapters/importers/inspections-file.ts";
import { OPERATOR_IMPORTS } from "../../src/cli/import-operator.ts";
import { get, startTestService, type TestService } from "../helpers/service.ts";
import { ownSource, writeSourcesFile } from "../helpers/sources-file.ts";
import { runCli } from "./run-cli.ts";

const dir = mkdtempSync(join(tmpdir(), "mds-inspections-"));

/** The shipped sources plus two of the operator's: one cleared for the API, one not. */
const sourcesFile = () => writeSourcesFile((sources) => sources.push(ownSource("psix_export", true), ownSource("private_notes", false)), dir);

const CSV = [
  "date,type,port,vessel_imo,authority,source",
  "2026-03-02,Port State Control Exam,USVDZ,9244661,USCG,USCG PSIX activity 7712301",
  '2025-08-19,"ISPS exam",Long Beach,9244661,USCG,USCG PSIX activity 7011002',
  "2026-01-05,PSC,USLGB,9175793,USCG,USCG PSIX activity 7500003",
].join("\n");

function write(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe("inspections: an operator's CSV, on vessel pages", () => {
  let t: TestService;
  let key: string;
  before(async () => {
    t = await startTestService({ env: { SOURCES_FILE: sourcesFile() } });
    ({ key } = await t.key("scale"));
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("none ship with the service: a vessel page's inspections are empty", async () => {
    const r = await get(t, "/api/v1/vessels/9244661", key);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data.inspections, []);
  });

  it("after an import, the ship's inspections are on its page, newest first, with their source", async () => {
    const line = await OPERATOR_IMPORTS.inspections!(t.service.services, write("psix.csv", CSV), "psix_export");
    assert.match(line, /3 inspections of 2 ships/);
    const r = await get(t, "/api/v1/vessels/9244661", key);
    assert.deepEqual(r.body.data.inspections, [
      { date: "2026-03-02", type: "Port State Control Exam", port: "USVDZ", authority: "USCG", origin: "USCG PSIX activity 7712301", sources: ["psix_export"] },
      { date: "2025-08-19", type: "ISPS exam", port: "Long Beach", authority: "USCG", origin: "USCG PSIX activity 7011002", sources: ["psix_export"] },
    ]);
    assert.ok(r.body.sources.includes("psix_export"));
    // A re-import replaces the source's rows.
    await OPERATOR_IMPORTS.inspections!(t.service.services, write("psix2.csv", CSV.split("\n").slice(0, 2).join("\n")), "psix_export");
    assert.equal((await get(t, "/api/v1/vessels/9244661", key)).body.data.inspections.length, 1);
  });

  it("rows of a source not cleared for the API are withheld and counted, naming the source", async () => {
    await OPERATOR_IMPORTS.inspections!(t.service.services, write("notes.csv", "date,type,port,vessel_imo,authority,source\n2026-02-01,PSC,NLRTM,9175793,Paris MoU,our notes\n"), "private_notes");
    const r = await get(t, "/api/v1/vessels/9175793", key);
    // The psix_export rows of this ship went with the re-import above; only the withheld one is left.
    assert.deepEqual(r.body.data.inspections, []);
    const w = r.body.withheld.find((e: any) => e.section === "inspections");
    assert.deepEqual(w, { section: "inspections", sources: ["private_notes"], rows: 1, reason: "source_not_licensed_for_api" });
  });

  it("refuses garbage, naming the row, the column and the rule", () => {
    const today = "2026-11-20";
    const header = "date,type,port,vessel_imo,authority,source\n";
    const cases: [string, RegExp][] = [
      ["", /the file is empty/],
      ["a,b,c\n1,2,3\n", /missing column\(s\) date/],
      [header, /no data rows/],
      [`${header}2026-02-30,PSC,NLRTM,9244661,USCG,x\n`, /row 1 \(line 2\), column date: "2026-02-30" is not a day/],
      [`${header}02/03/2026,PSC,NLRTM,9244661,USCG,x\n`, /column date/],
      [`${header}2027-01-01,PSC,NLRTM,9244661,USCG,x\n`, /column date: 2027-01-01 is after today/],
      [`${header}2026-01-01,PSC,NLRTM,9244662,USCG,x\n`, /column vessel_imo: "9244662" is not a ship IMO/],
      [`${header}2026-01-01,,NLRTM,9244661,USCG,x\n`, /column type: must not be empty/],
      [`${header}2026-01-01,PSC,NLRTM,9244661,USCG,x\n2026-01-01,PSC,${"p".repeat(101)},9244661,USCG,x\n`, /row 2 \(line 3\), column port: is 101 characters/],
      [`${header}2026-01-01,PSC,NLRTM,9244661\n`, /malformed CSV|fields/],
      ["\u0000\u0001binary", /binary data/],
    ];
    for (const [text, rule] of cases) assert.throws(() => parseInspectionsCsv(Buffer.from(text), today), rule, JSON.stringify(text.slice(0, 80)));
  });

  it("the command line refuses a bad file or an unknown source in one line", async () => {
    const env = { DATA_DIR: join(dir, "cli"), SOURCES_FILE: join(dir, "sources.json") };
    const good = write("good.csv", CSV);
    const unknown = await runCli(["import", "inspections", good, "--source", "nobody"], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^mds: import inspections: --source nobody is not in the sources file/);
    const bad = await runCli(["import", "inspections", write("bad.csv", "date,type,port,vessel_imo,authority,source\nyesterday,PSC,NLRTM,9244661,USCG,x\n"), "--source", "psix_export"], env);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr.trim().split("\n").length, 1);
    assert.match(bad.stderr, /inspections CSV: row 1 \(line 2\), column date/);
    const ok = await runCli(["import", "inspections", good, "--source", "psix_export"], env);
    assert.equal(ok.code, 0, ok.stderr);
  });
});
