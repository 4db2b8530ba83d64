import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { redisReachable, TEST_REDIS_URL } from "../../helpers/redis.ts";
import { type TestService, twoProcessesOnOneRedis } from "../../helpers/service.ts";
import { Browser, makeUser, PASSWORD } from "./helpers.ts";

// Two API processes of one deployment: one Redis and one REDIS_PREFIX (each its own store here; failures for an unknown e-mail count all the same).
describe("the sign-in throttle is shared through Redis", async () => {
  const reachable = await redisReachable();
  let one: TestService;
  let two: TestService;
  let close: () => Promise<void>;
  before(async () => {
    if (!reachable) return;
    ({ one, two, close } = await twoProcessesOnOneRedis(TEST_REDIS_URL));
    two.clock.t = one.clock.t;
    await makeUser(two, "dee@example.org");
  });
  after(async () => {
    if (reachable) await close();
  });

  test("ten failures for an e-mail in one process lock its sign-in in another", { skip: !reachable && `no Redis at ${TEST_REDIS_URL}` }, async () => {
    for (let i = 0; i < 10; i++) assert.equal((await new Browser(one).signIn("dee@example.org", `guess ${i}`)).statusCode, 401);
    const locked = await new Browser(two).signIn("dee@example.org", PASSWORD);
    assert.equal(locked.statusCode, 429);
    assert.match(locked.body, /Too many failed sign-ins/);
    // The window ages out the same way everywhere.
    two.clock.t += 15 * 60_000 + 1;
    assert.equal((await new Browser(two).signIn("dee@example.org", PASSWORD)).statusCode, 303);
  });
});
