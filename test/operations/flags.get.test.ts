import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { get, startTestService, type TestService } from "../helpers/service.ts";

describe("flag registry pages", () => {
  let t: TestService;
  let key: string;
  before(async () => {
    t = await startTestService();
    ({ key } = await t.key("scale"));
  });
  after(() => t.close());

  it("serves the Netherlands with its MMSI prefixes, without a key", async () => {
    const r = await get(t, "/api/v1/flags/nl");
    assert.equal(r.status, 200);
    assert.equal(r.body.type, "flag");
    assert.equal(r.body.apiVersion, "preview");
    assert.equal(r.body.iso2, "NL");
    assert.equal(r.body.data.country.iso3, "NLD");
    assert.deepEqual(r.body.data.mids.mids, [244, 245, 246]);
    assert.ok(r.body.sources.includes("iso3166") && r.body.sources.includes("itu_mid"));
    assert.match(r.body.data.ports.api, /\/api\/v1\/ports\?country=NL$/);
  });

  it("withholds the unverified flag-of-convenience reconstruction, naming its source", async () => {
    const r = await get(t, "/api/v1/flags/PA", key);
    assert.equal(r.status, 200);
    assert.equal(r.body.data.flagOfConvenience, null);
    assert.deepEqual(r.body.withheld, [{ section: "flagOfConvenience", sources: ["itf_foc"], reason: "source_not_licensed_for_api" }]);
    assert.ok(!r.body.sources.includes("itf_foc"));
  });

  it("a malformed code is 400 naming iso2; an unassigned one is 404", async () => {
    const bad = await get(t, "/api/v1/flags/NLD", key);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, "iso2");
    const unknown = await get(t, "/api/v1/flags/QQ", key);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, "not_found");
  });
});
