import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { loadBundledMaradFleet } from "../../src/adapters/importers/marad-fleet.ts";
import { DATASETS_DIR } from "../../src/main.ts";
import { get, startTestService, type TestService } from "../helpers/service.ts";
import { importFile, OFAC_2024_05_03 } from "../helpers/sanctions.ts";

describe("flag registry pages: ships under the flag", () => {
  let t: TestService;
  let key: string;
  before(async () => {
    t = await startTestService();
    ({ key } = await t.key("scale"));
  });
  after(() => t.close());

  it("counts the MARAD U.S.-flag fleet under US by ship type, with its source", async () => {
    const fleet = await loadBundledMaradFleet(DATASETS_DIR);
    const expected = new Map<string | null, number>();
    for (const r of fleet.records) expected.set(r.shipType, (expected.get(r.shipType) ?? 0) + 1);
    const r = await get(t, "/api/v1/flags/US", key);
    assert.equal(r.status, 200);
    const marad = r.body.data.vessels.find((v: any) => v.source === "marad");
    assert.equal(marad.total, fleet.records.length);
    assert.deepEqual(new Map(marad.byType.map((b: any) => [b.type, b.count])), expected);
    assert.ok(r.body.sources.includes("marad"));
    // No list loaded yet: nothing designated, and no ship counted under a flag MARAD does not cover.
    assert.deepEqual(r.body.data.sanctioned, []);
    assert.deepEqual((await get(t, "/api/v1/flags/IR", key)).body.data.vessels, []);
  });

  it("after an OFAC import, lists the ships under the flag OFAC designates, and counts them by type", async () => {
    await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
    const active = await t.service.services.sanctions.listActive("ofac", 0, 10_000);
    const iranian = active.filter((d) => d.record.flagIso2 === "IR");
    assert.ok(iranian.length > 10);
    const r = await get(t, "/api/v1/flags/ir", key);
    assert.equal(r.status, 200);
    const ofac = r.body.data.sanctioned.find((s: any) => s.list === "ofac");
    assert.equal(ofac.count, iranian.length);
    const artavil = ofac.vessels.find((v: any) => v.imo === 9187629);
    assert.equal(artavil.name, "ARTAVIL");
    assert.match(artavil.api, /\/api\/v1\/vessels\/9187629$/);
    const counted = r.body.data.vessels.find((v: any) => v.source === "ofac");
    assert.equal(counted.total, iranian.length);
    assert.equal(counted.byType.reduce((n: number, b: any) => n + b.count, 0), iranian.length);
    assert.ok(r.body.sources.includes("ofac"));
  });
});
