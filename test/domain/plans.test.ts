import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { entitlements, PLAN_IDS, PLANS, planSlot } from "../../src/domain/plans.ts";

describe("plans", () => {
  it("every plan is in the table with sane numbers", () => {
    for (const id of PLAN_IDS) {
      const p = PLANS[id];
      assert.equal(p.id, id);
      assert.ok(p.monthlyCredits > 0 && p.ratePerSecond > 0, id);
    }
  });

  it("follows the spec's fixed rows: history, private feed, webhook endpoints", () => {
    assert.equal(PLANS.plus.historyDays, 365);
    assert.equal(PLANS.developer.historyDays, 30);
    assert.equal(PLANS.growth.historyDays, 730);
    assert.equal(PLANS.pro.historyDays, null);
    assert.equal(PLANS.scale.historyDays, null);
    assert.deepEqual(PLAN_IDS.filter((id) => PLANS[id].privateFeed), ["pro", "team"]);
    assert.equal(PLANS.pro.webhookEndpoints, 5);
    assert.equal(PLANS.developer.webhookEndpoints, 5);
    assert.equal(PLANS.growth.webhookEndpoints, 100);
    assert.equal(PLANS.scale.webhookEndpoints, 1000);
  });

  it("web and API plans sit in separate slots", () => {
    assert.equal(planSlot("pro"), "web");
    assert.equal(planSlot("sandbox"), "web");
    assert.equal(planSlot("growth"), "api");
  });

  it("an account with a web and an API plan gets the higher of each limit", () => {
    const e = entitlements("pro", "developer");
    assert.equal(e.webhookEndpoints, 5);
    assert.equal(e.privateFeed, true); // from pro
    assert.equal(e.historyDays, null); // pro's everything beats developer's 30 days
    assert.equal(e.monthlyCredits, Math.max(PLANS.pro.monthlyCredits, PLANS.developer.monthlyCredits));
    assert.equal(e.ratePerSecond, Math.max(PLANS.pro.ratePerSecond, PLANS.developer.ratePerSecond));
    assert.equal(e.tier, "developer");
    assert.deepEqual(e.plans, ["pro", "developer"]);

    const g = entitlements("plus", "growth");
    assert.equal(g.historyDays, 730);
    assert.equal(g.webhookEndpoints, 100);
    assert.equal(g.privateFeed, false);
    assert.equal(g.commercialScope, "product");
  });

  it("an account without plans is on the sandbox", () => {
    assert.equal(entitlements(null, null).tier, "sandbox");
  });
});
