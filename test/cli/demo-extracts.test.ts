import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { loadDemoSanctionsExtracts } from "../../src/cli/demo.ts";
import { coverageStartLines, listCoverage } from "../../src/domain/sanctions/coverage.ts";
import { PROJECT_ROOT } from "../../src/main.ts";
import { ENGINES, get, startTestService, type TestService } from "../helpers/service.ts";
import { importFile, OFAC_2024_05_03 } from "../helpers/sanctions.ts";

const DAY = 86_400_000;

async function startLines(t: TestService): Promise<string[]> {
  const states = await t.service.services.sanctions.listStates();
  return coverageStartLines(states.map((s) => listCoverage(s, t.clock.now(), 8)));
}

for (const engine of ENGINES) {
  describe(`the demo's dated extracts (${engine})`, () => {
    let t: TestService;
    let key: string;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      ({ key } = await t.key("scale"));
    });
    after(() => t.close());

    it("a fresh store: the start output names every list as missing, one line each", async () => {
      const lines = await startLines(t);
      assert.deepEqual(
        lines.map((l) => l.split(" ").slice(0, 3).join(" ")),
        ["sanctions: ofac MISSING", "sanctions: uk MISSING", "sanctions: eu MISSING", "sanctions: canada MISSING", "sanctions: new-zealand MISSING"],
      );
    });

    it("ARTAVIL (9187629) and ENISEY (9079169) come back designated, with the extract's as-of date, marked as an extract", async () => {
      const loaded = await loadDemoSanctionsExtracts(t.service, PROJECT_ROOT);
      assert.deepEqual(
        loaded.map((r) => [r.list, r.asOf]),
        [
          ["ofac", "2024-05-03"],
          ["uk", "2026-08-20"],
          ["canada", "2026-09-03"],
        ],
      );
      const r = await get(t, "/api/v1/screen?ids=9187629,9079169,9074729", key);
      assert.equal(r.status, 200);
      const [artavil, enisey, unlisted] = r.body.data;
      assert.deepEqual([artavil.sanctioned, artavil.name, artavil.activeDesignations[0].recordId], [true, "ARTAVIL", "15036"]);
      assert.deepEqual([enisey.sanctioned, enisey.name, enisey.activeDesignations[0].recordId], [true, "ENISEY", "37063"]);
      // Not being on an extract clears nothing: false, with the certainty and the lists saying so.
      assert.deepEqual([unlisted.sanctioned, unlisted.certainty], [false, "incomplete"]);
      assert.ok(unlisted.listsChecked.extract.includes("ofac"));
      assert.deepEqual([artavil.certainty, r.body.allListsCheckedInFull], ["match", false]);
      const ofac = r.body.coverage.find((c: any) => c.list === "ofac");
      assert.deepEqual([ofac.status, ofac.kind, ofac.extract, ofac.asOf], ["extract", "extract", true, "2024-05-03"]);
      assert.match(r.body.coverageNote, /EXTRACT ONLY, not the full list: ofac \(as of 2024-05-03\)/);
      assert.match((await startLines(t)).join("\n"), /sanctions: ofac is a dated EXTRACT as of 2024-05-03/);
    });

    it("a second start loads nothing again, and a real import replaces the extract as a starting state, not as new listings", async () => {
      assert.deepEqual(await loadDemoSanctionsExtracts(t.service, PROJECT_ROOT), []);
      t.clock.t += DAY;
      const real = await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2026-11-21" });
      assert.equal(real.baseline, true);
      const r = await get(t, "/api/v1/screen?ids=9187629&lists=ofac", key);
      assert.deepEqual([r.body.coverage[0].status, r.body.coverage[0].extract, r.body.coverage[0].asOf], ["current", false, "2026-11-21"]);
      assert.equal(r.body.data[0].sanctioned, true);
      assert.deepEqual(await loadDemoSanctionsExtracts(t.service, PROJECT_ROOT), [], "a list loaded for real is never overwritten by an extract");
    });
  });
}
