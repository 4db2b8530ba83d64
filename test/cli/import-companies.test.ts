import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { parseCompaniesFile } from "../../src/adapters/importers/companies-file.ts";
import { parseConfig } from "../../src/config.ts";
import { createService, PROJECT_ROOT } from "../../src/main.ts";
import { runCli } from "./run-cli.ts";
import { ownSource, writeSourcesFile } from "../helpers/sources-file.ts";

const dir = mkdtempSync(join(tmpdir(), "mds-companies-import-"));
const dataDir = join(dir, "data");

/** The shipped sources file plus the operator's own registry, cleared for the API. */
const sourcesFile = () => writeSourcesFile((sources) => sources.push(ownSource("acme_registry", true)), dir);
const env = () => ({ DATA_DIR: dataDir, SOURCES_FILE: sourcesFile() });

/** A GLEIF-style record: Alaska Tanker Co LLC with an LEI (check digits valid) operating ALASKAN EXPLORER. */
const GOOD = {
  companies: [{ id: "ATC", name: "Alaska Tanker Company, LLC", lei: "5493001KJTIIGC8Y1R12", country: "US" }],
  fleet: [{ company: "ATC", imo: 9244661, vesselName: "ALASKAN EXPLORER", role: "operator", evidence: "ISM manager per ACME survey 2026-10" }],
};

function write(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe("mds import companies <file> --source <id>", () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("imports companies and fleet links under a source of the sources file, and a re-import replaces them", async () => {
    const file = write("good.json", JSON.stringify(GOOD));
    const r = await runCli(["import", "companies", file, "--source", "acme_registry"], env());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /1 companies, 1 fleet links/);
    const again = await runCli(["import", "companies", file, "--source", "acme_registry"], env());
    assert.equal(again.code, 0, again.stderr);

    const s = await createService(parseConfig({ LOG_LEVEL: "silent", ...env() }, PROJECT_ROOT));
    try {
      const records = await s.services.companies.resolve({ kind: "lei", value: "5493001KJTIIGC8Y1R12" });
      assert.equal(records.length, 1);
      assert.equal(records[0]!.entityId, "acme_registry-id-atc");
      assert.deepEqual(records[0]!.fleet, [{ imo: 9244661, mmsi: null, vesselName: "ALASKAN EXPLORER", role: "operator", evidence: "ISM manager per ACME survey 2026-10" }]);
      const byId = await s.services.companies.resolve({ kind: "record", value: "acme_registry-id-atc" });
      assert.equal(byId.length, 1);
    } finally {
      await s.close();
    }
  });

  it("refuses a source the sources file lacks, a built-in one, or none, in one line", async () => {
    const file = write("good2.json", JSON.stringify(GOOD));
    for (const [args, rule] of [
      [["--source", "nobody"], /not in the sources file/],
      [["--source", "ofac"], /built by the service/],
      [[], /--source <id> is required/],
      [["--source", "Bad Id"], /use 1 to 40 of a-z/],
    ] as const) {
      const r = await runCli(["import", "companies", file, ...args], env());
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, rule);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    }
  });

  it("refuses garbage, naming the row, the field and the rule; nothing is written", async () => {
    const cases: [unknown, RegExp][] = [
      ["not json at all", /not JSON/],
      [[], /the document/],
      [{ companies: [] }, /companies: must list at least one company/],
      [{ companies: [{ id: "A", name: "X", lei: "5493001KJTIIGC8Y1R13" }] }, /companies\[0\]\.lei: must be an ISO 17442 LEI/],
      [{ companies: [{ id: "A", name: "X", companyImo: "12" }] }, /companies\[0\]\.companyImo/],
      [{ companies: [{ id: "A", name: "--" }] }, /companies\[0\]\.name: must hold a letter or digit/],
      [{ companies: [{ id: "A", name: "X" }, { id: "A", name: "Y" }] }, /listed twice/],
      [{ companies: [{ id: "A", name: "X" }, { id: "a", name: "Y" }] }, /same entity id/],
      [{ companies: [{ id: "A", name: "X" }], fleet: [{ company: "B", imo: 9244661, role: "operator", evidence: "e" }] }, /fleet\[0\]\.company: "B" is not the id/],
      [{ companies: [{ id: "A", name: "X" }], fleet: [{ company: "A", imo: 9244662, role: "operator", evidence: "e" }] }, /fleet\[0\]\.imo: must be a ship IMO number/],
      [{ companies: [{ id: "A", name: "X" }], fleet: [{ company: "A", imo: 9244661, role: "owner", evidence: "e" }] }, /fleet\[0\]\.role: must be one of registered_owner/],
      [{ companies: [{ id: "A", name: "X" }], fleet: [{ company: "A", role: "operator", evidence: "e" }] }, /fleet\[0\]\.imo: needs the ship's imo or mmsi/],
      [{ companies: [{ id: "A", name: "X" }], fleet: [{ company: "A", imo: 9244661, role: "operator" }] }, /fleet\[0\]\.evidence/],
      [{ companies: [{ id: "A", name: "X", extra: 1 }] }, /companies\[0\]/],
    ];
    for (const [doc, rule] of cases) {
      assert.throws(() => parseCompaniesFile(Buffer.from(typeof doc === "string" ? doc : JSON.stringify(doc)), "acme_registry"), rule, JSON.stringify(doc));
    }
    const before = await runCli(["import", "companies", write("good3.json", JSON.stringify(GOOD)), "--source", "acme_registry"], env());
    assert.equal(before.code, 0);
    const bad = await runCli(["import", "companies", write("bad.json", JSON.stringify({ companies: [{ id: "B", name: "Other" }], fleet: [{ company: "B", imo: 1, role: "operator", evidence: "e" }] })), "--source", "acme_registry"], env());
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^mds: companies file: fleet\[0\]\.imo/);
    const s = await createService(parseConfig({ LOG_LEVEL: "silent", ...env() }, PROJECT_ROOT));
    try {
      assert.equal((await s.services.companies.counts())["acme_registry"], 1, "the refused file left the earlier rows as they were");
    } finally {
      await s.close();
    }
  });
});
