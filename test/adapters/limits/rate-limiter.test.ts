import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { FixedWindowLimiter } from "../../../src/adapters/limits/fixed-window-limiter.ts";
import { get, startTestService, TestClock, type TestService } from "../../helpers/service.ts";

describe("rate limiter windows follow the clock", () => {
  it("When a subject spends its budget, then it waits until the clock passes the window", async () => {
    const clock = new TestClock();
    const limiter = new FixedWindowLimiter(clock);
    assert.deepEqual(await limiter.consume("key_a", 2), { allowed: true, limit: 2, remaining: 1, resetMs: 1000 });
    clock.t += 400;
    assert.deepEqual(await limiter.consume("key_a", 2), { allowed: true, limit: 2, remaining: 0, resetMs: 600 });
    assert.deepEqual(await limiter.consume("key_a", 2), { allowed: false, limit: 2, remaining: 0, resetMs: 600 });
    // Another subject has its own budget.
    assert.equal((await limiter.consume("key_b", 2)).allowed, true);
    clock.t += 599;
    assert.equal((await limiter.consume("key_a", 2)).allowed, false);
    clock.t += 1;
    assert.deepEqual(await limiter.consume("key_a", 2), { allowed: true, limit: 2, remaining: 1, resetMs: 1000 });
    await limiter.close();
  });
});

describe("REST calls over budget", () => {
  let t: TestService;
  let key: string;
  before(async () => {
    t = await startTestService();
    ({ key } = await t.key("sandbox"));
  });
  after(() => t.close());

  it("When a sandbox key makes a third call in one second, then it is 429 until the service clock moves a second", async () => {
    assert.equal((await get(t, "/api/v1/flags/nl", key)).status, 200);
    assert.equal((await get(t, "/api/v1/flags/nl", key)).status, 200);
    const limited = await get(t, "/api/v1/flags/nl", key);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, "rate_limited");
    t.clock.t += 1000;
    assert.equal((await get(t, "/api/v1/flags/nl", key)).status, 200);
  });
});
