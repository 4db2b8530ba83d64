import { CallerRights } from "../../src/domain/rights/caller-rights.ts";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { loadBundledWrecks, type WreckRecord } from "../../src/adapters/importers/wrecks.ts";
import { DATASETS_DIR } from "../../src/main.ts";
import type { OperationContext } from "../../src/operations/operation.ts";
import { wrecksGet } from "../../src/operations/wrecks.get.ts";
import { ENGINES, get, startTestService, type TestService } from "../helpers/service.ts";

for (const engine of ENGINES) {
  describe(`wrecks over HTTP (${engine})`, () => {
    let t: TestService;
    let key: string;
    let bundled: WreckRecord[];
    before(async () => {
      t = await startTestService({ engine });
      ({ key } = await t.key("scale"));
      bundled = await loadBundledWrecks(DATASETS_DIR);
    });
    after(() => t.close());

    it("serves the ALGERIA (AWOIS 14296) with coordinates, depth, history and its source", async () => {
      const r = await get(t, "/api/v1/wrecks/14296", key);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.type, "wreck");
      assert.equal(r.body.apiVersion, "preview");
      assert.equal(r.body.id, "14296");
      assert.match(r.body.page, /\/wreck\/14296-algeria$/);
      assert.match(r.body.api, /\/api\/v1\/wrecks\/14296$/);
      assert.equal(r.body.data.identity.name, "ALGERIA");
      assert.deepEqual(r.body.data.coordinates, { lat: 41.520448, lon: -81.716076, source: "noaa_awois", positionQuality: "high" });
      assert.deepEqual(r.body.data.depth, { value: 32, unit: "feet", wireDragClearance: false, metres: 9.75 });
      assert.match(r.body.data.history, /schooner/);
      assert.deepEqual(r.body.sources, ["noaa_awois"]);
      assert.ok(r.body.license.some((l: string) => /public domain/i.test(l)));
      assert.deepEqual(r.body.withheld, []);
    });

    it("the page form {id}-{slug} and the legacy slug {slug}-{id} resolve to the same wreck", async () => {
      for (const form of ["14296-algeria", "algeria-14296", "ALGERIA-14296", "14296-old-name"]) {
        const r = await get(t, `/api/v1/wrecks/${form}`, key);
        assert.equal(r.status, 200, form);
        assert.equal(r.body.id, "14296", form);
      }
    });

    it("every bundled AWOIS record resolves by id and by its legacy slug", async () => {
      assert.equal(await t.service.services.wrecks.count(), bundled.length);
      // Straight through the operation (parse + run): 6,000 HTTP calls would only meet the rate limit.
      const rights = new CallerRights(t.service.services.sources, { commercialUse: false }, "api");
      const ctx = { services: t.service.services, principal: {} as OperationContext["principal"], now: 0, baseUrl: "http://x", use: "api" as const, rights };
      for (const w of bundled) {
        for (const form of [String(w.id), w.slug]) {
          const out = await wrecksGet.run(ctx, wrecksGet.input.parse({ id: form }));
          assert.equal(out.top?.["id"], String(w.id), form);
        }
      }
    });

    it("works without a key and is not charged; an unknown id is a 404 naming it", async () => {
      const r = await get(t, "/api/v1/wrecks/14296");
      assert.equal(r.status, 200);
      assert.equal(r.headers["x-credits-cost"], "0");
      const missing = await get(t, "/api/v1/wrecks/999999999", key);
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error.code, "not_found");
      assert.match(missing.body.error.message, /999999999/);
    });

    it("a malformed id is a 400 naming the parameter and the rule", async () => {
      for (const bad of ["algeria", "14296_algeria", "-14296", "x".repeat(130)]) {
        const r = await get(t, `/api/v1/wrecks/${bad}`, key);
        assert.equal(r.status, 400, bad);
        assert.equal(r.body.error.code, "invalid_parameter");
        assert.equal(r.body.error.param, "id");
        assert.match(r.body.error.rule, /wreck id/);
      }
    });
  });
}
