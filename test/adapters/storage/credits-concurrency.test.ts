import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { billingPeriod } from "../../../src/operations/billing-period.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";

for (const engine of ENGINES) {
  describe(`credits under concurrency (${engine})`, () => {
    let t: TestService;
    before(async () => {
      t = await startTestService({ engine });
    });
    after(() => t.close());

    it("200 parallel calls against a key with 50 credits left give exactly 50 successes", async () => {
      const k = await t.key("scale"); // 200 per second: the rate limit is not what stops them
      const period = billingPeriod(t.clock.now());
      const limit = 5_000_000;
      await t.service.services.ledger.setUsed(k.accountId, period, limit - 50);
      const results = await Promise.all(
        Array.from({ length: 200 }, () => t.service.app.inject({ method: "GET", url: "/api/v1/ports/NLRTM", headers: { authorization: `Bearer ${k.key}` } })),
      );
      const byStatus = new Map<number, number>();
      for (const r of results) byStatus.set(r.statusCode, (byStatus.get(r.statusCode) ?? 0) + 1);
      assert.equal(byStatus.get(200), 50, JSON.stringify([...byStatus]));
      assert.equal(byStatus.get(402), 150, JSON.stringify([...byStatus]));
      const usage = await t.service.services.ledger.usage(k.accountId, k.keyId, period);
      assert.equal(usage.used, limit);
      assert.equal(usage.keyCalls, 50);
    });
  });
}
