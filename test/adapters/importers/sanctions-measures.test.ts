import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { ENGINES, get, startTestService, type TestService } from "../../helpers/service.ts";
import { EU_AMENDMENT, importBytes } from "../../helpers/sanctions.ts";

/**
 * Two rows of one annex entry under different measures, in the layout of the EU amendment
 * tables: AVAX, as Implementing Reg. 2026/1941 designates it twice. The IMO and the
 * wording are illustrative (the samples hold no row of that act); the shape is what matters.
 */
const HEADER = readFileSync(EU_AMENDMENT, "utf8").split(/\r?\n/, 1)[0]!;
const AVAX_ROWS = [
  `32014R0833,32026R1941,700,EU-RUS,XLII,Transportation restrictions,20.10.2026,"Article 3s(2), point (b): high-risk shipping practices.",Vessel,AVAX,,,9074729,,,`,
  `32014R0833,32026R1941,700,EU-RUS,XLII,Prohibition of port access and of services,22.10.2026,"Article 3s(1): access to ports and locks in the Union.",Vessel,AVAX,,,9074729,,,`,
];

for (const engine of ENGINES) {
  describe(`every measure kept (${engine})`, () => {
    let t: TestService;
    let key: string;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      ({ key } = await t.key("scale"));
    });
    after(() => t.close());

    it("AVAX, designated twice under one annex entry with different measures, keeps both", async () => {
      const warnings: string[] = [];
      const r = await importBytes(t, "eu", "32026R1941.csv", [HEADER, ...AVAX_ROWS].join("\n"), { asOf: "2026-10-22", onWarning: (m) => warnings.push(m) });
      assert.equal(r.active, 1);
      const list = await get(t, "/api/v1/sanctions/eu", key);
      const [avax] = list.body.data;
      assert.equal(avax.name, "AVAX");
      assert.deepEqual(avax.measures, ["Transportation restrictions", "Prohibition of port access and of services"]);
      assert.equal(avax.listedAt, "2026-10-20", "listed from its earliest measure");
      const stored = (await t.service.services.sanctions.listActive("eu", 0, 10))[0]!.record;
      assert.match(stored.reason!, /Transportation restrictions: .*\| Prohibition of port access and of services: /);
      assert.deepEqual(warnings, []);
    });

    it("a column the reader does not understand is reported and its values kept, never dropped silently", async () => {
      const warnings: string[] = [];
      const rows = [`${HEADER},vesselClass`, ...AVAX_ROWS.map((row) => `${row},Aframax`)];
      await importBytes(t, "eu", "32026R1941-extended.csv", rows.join("\n"), { asOf: "2026-10-23", onWarning: (m) => warnings.push(m) });
      assert.deepEqual(warnings, ["32026R1941-extended.csv: 1 column(s) not understood (vesselClass); their values, in 2 vessel row(s), are kept in remarks"]);
      const stored = (await t.service.services.sanctions.listActive("eu", 0, 10))[0]!.record;
      assert.match(stored.remarks!, /vesselClass: Aframax/);
    });
  });
}
