import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { AUTHORIZE_MAX_PER_ADDRESS, AUTHORIZE_WINDOW_MS, REGISTER_MAX_PER_ADDRESS, REGISTER_WINDOW_MS } from "../../../src/domain/oauth/address-limits.ts";
import { redisReachable, TEST_REDIS_URL } from "../../helpers/redis.ts";
import { startTestService, type TestService, twoProcessesOnOneRedis } from "../../helpers/service.ts";

const CLIENT = { redirect_uris: ["http://127.0.0.1:6276/oauth/callback"], client_name: "Limited", token_endpoint_auth_method: "none" };

const register = (t: TestService, address: string, forwardedFor?: string) =>
  t.service.app.inject({ method: "POST", url: "/register", remoteAddress: address, payload: CLIENT, headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} });
const authorize = (t: TestService, address: string, method: "GET" | "POST" = "GET") =>
  t.service.app.inject({ method, url: "/authorize", remoteAddress: address, ...(method === "POST" ? { headers: { "content-type": "application/x-www-form-urlencoded" }, payload: "client_id=x" } : {}) });

describe("/register and /authorize are rate-limited per client address", () => {
  let t: TestService;
  before(async () => {
    t = await startTestService({ withData: false });
  });
  after(() => t.close());

  test(`/register: past ${REGISTER_MAX_PER_ADDRESS} an hour from one address, 429 too_many_requests in the RFC 7591 error shape, with Retry-After`, async () => {
    for (let i = 0; i < REGISTER_MAX_PER_ADDRESS; i++) assert.equal((await register(t, "198.51.100.7")).statusCode, 201);
    const refused = await register(t, "198.51.100.7");
    assert.equal(refused.statusCode, 429);
    const body = refused.json() as Record<string, unknown>;
    assert.equal(body.error, "too_many_requests");
    assert.match(String(body.error_description), /try again in 60 minutes/);
    assert.equal(refused.headers["retry-after"], String(REGISTER_WINDOW_MS / 1000));
    assert.equal(refused.headers["cache-control"], "no-store");
    // Another address is not held up; the first one registers again once its window has moved on.
    assert.equal((await register(t, "198.51.100.8")).statusCode, 201);
    t.clock.t += REGISTER_WINDOW_MS;
    assert.equal((await register(t, "198.51.100.7")).statusCode, 201);
  });

  test(`/authorize: past ${AUTHORIZE_MAX_PER_ADDRESS} requests (GET and POST) in 10 minutes from one address, a 429 page with Retry-After`, async () => {
    for (let i = 0; i < AUTHORIZE_MAX_PER_ADDRESS; i++) assert.notEqual((await authorize(t, "203.0.113.5", i % 2 === 0 ? "GET" : "POST")).statusCode, 429);
    for (const method of ["GET", "POST"] as const) {
      const refused = await authorize(t, "203.0.113.5", method);
      assert.equal(refused.statusCode, 429);
      assert.match(String(refused.headers["content-type"]), /text\/html/);
      assert.match(refused.body, /Too many connection requests/);
      assert.equal(refused.headers.location, undefined);
      assert.ok(Number(refused.headers["retry-after"]) > 0);
    }
    assert.notEqual((await authorize(t, "203.0.113.6")).statusCode, 429);
    t.clock.t += AUTHORIZE_WINDOW_MS;
    assert.notEqual((await authorize(t, "203.0.113.5")).statusCode, 429);
  });
});

describe("behind a trusted reverse proxy (TRUST_PROXY), the address counted is the one it forwards", () => {
  let t: TestService;
  before(async () => {
    t = await startTestService({ withData: false, env: { TRUST_PROXY: "127.0.0.1" } });
  });
  after(() => t.close());

  test("clients behind one proxy are counted apart; X-Forwarded-For from anyone else is ignored", async () => {
    for (let i = 0; i < REGISTER_MAX_PER_ADDRESS; i++) assert.equal((await register(t, "127.0.0.1", "198.51.100.20")).statusCode, 201);
    assert.equal((await register(t, "127.0.0.1", "198.51.100.20")).statusCode, 429);
    assert.equal((await register(t, "127.0.0.1", "198.51.100.21")).statusCode, 201, "another client behind the proxy is not held up");
    // A client that is not the proxy cannot pick the address it is counted under.
    for (let i = 0; i < REGISTER_MAX_PER_ADDRESS; i++) await register(t, "192.0.2.9", `203.0.113.${i}`);
    assert.equal((await register(t, "192.0.2.9", "203.0.113.250")).statusCode, 429);
  });
});

describe("the per-address limits are shared through Redis", async () => {
  const reachable = await redisReachable();
  let one: TestService;
  let two: TestService;
  let close: () => Promise<void>;
  before(async () => {
    if (!reachable) return;
    ({ one, two, close } = await twoProcessesOnOneRedis(TEST_REDIS_URL));
  });
  after(async () => {
    if (reachable) await close();
  });

  test("registrations from one address through two processes count together", { skip: !reachable && `no Redis at ${TEST_REDIS_URL}` }, async () => {
    for (let i = 0; i < REGISTER_MAX_PER_ADDRESS; i++) assert.equal((await register(i % 2 === 0 ? one : two, "192.0.2.44")).statusCode, 201);
    assert.equal((await register(one, "192.0.2.44")).statusCode, 429);
    assert.equal((await register(two, "192.0.2.44")).statusCode, 429);
  });
});
