import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { parseConfig } from "../../../../src/config.ts";
import { createService, PROJECT_ROOT, type Service } from "../../../../src/main.ts";
import { KEY_CACHE_TTL_MS } from "../../../../src/operations/authenticate.ts";
import { redisReachable, TEST_REDIS_URL } from "../../../helpers/redis.ts";
import { startTestService, TestClock, type TestService } from "../../../helpers/service.ts";

const REDIS_URL = TEST_REDIS_URL;

async function creditLimit(s: Service, key: string): Promise<number> {
  const res = await s.app.inject({ method: "GET", url: "/api/v1/usage", headers: { authorization: `Bearer ${key}` } });
  return (res.json() as { data: { credits: { limit: number } } }).data.credits.limit;
}

async function usageStatus(s: Service, key: string): Promise<{ status: number; code: string | undefined }> {
  const res = await s.app.inject({ method: "GET", url: "/api/v1/usage", headers: { authorization: `Bearer ${key}` } });
  return { status: res.statusCode, code: (res.json() as { error?: { code?: string } }).error?.code };
}

/** A second process of the same deployment: the same database, its own caches and clock. */
async function secondProcess(first: Service, env: Record<string, string> = {}): Promise<{ service: Service; clock: TestClock }> {
  const clock = new TestClock();
  const service = await createService(parseConfig({ LOG_LEVEL: "silent", DATA_DIR: first.config.dataDir, ...env }, PROJECT_ROOT), { clock });
  return { service, clock };
}

describe("key revocation without Redis", () => {
  let a: TestService;
  let b: { service: Service; clock: TestClock };
  before(async () => {
    a = await startTestService({ withData: false });
    b = await secondProcess(a.service);
  });
  after(async () => {
    await b.service.close();
    await a.close();
  });

  it("the revoking process refuses the key at once, with no time passing", async () => {
    const k = await a.key("pro");
    assert.equal((await usageStatus(a.service, k.key)).status, 200, "the key works and is now cached");
    assert.equal(await a.service.services.accounts.revokeKey(k.keyId), true);
    assert.deepEqual(await usageStatus(a.service, k.key), { status: 401, code: "api_key_revoked" });
  });

  it("an allowance changed in this process applies to its next call, with no time passing", async () => {
    const k = await a.key("pro", "deal here");
    const before = await creditLimit(a.service, k.key);
    assert.equal(await a.service.services.accounts.setDeal(k.accountId, { monthlyCredits: before + 7, extraMonthlyCredits: null, ratePerSecond: null }), true);
    assert.equal(await creditLimit(a.service, k.key), before + 7);
  });

  it("another process refuses it once it sees the SQLite file changed, which it checks every KEY_CACHE_TTL_MS", async () => {
    assert.ok(KEY_CACHE_TTL_MS <= 1_000);
    // The scale plan allows 200 calls a second: enough for every try below within one rate window.
    const k = await a.key("scale", "second");
    assert.equal((await usageStatus(b.service, k.key)).status, 200);
    await a.service.services.accounts.revokeKey(k.keyId);
    // b's clock stands still, so its cached entry never expires: only noticing the change can
    // refuse the key. The check runs on real time; wait for it (a bound far above its period,
    // not a timing claim).
    let seen = await usageStatus(b.service, k.key);
    for (let i = 0; i < 100 && seen.status === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await usageStatus(b.service, k.key);
    }
    assert.deepEqual(seen, { status: 401, code: "api_key_revoked" });
  });
});

describe("key revocation through Redis", () => {
  let a: { service: Service; clock: TestClock } | undefined;
  let b: { service: Service; clock: TestClock } | undefined;
  let first: TestService | undefined;
  let reachable = false;
  before(async () => {
    reachable = await redisReachable();
    if (!reachable) return;
    first = await startTestService({ withData: false, env: { REDIS_URL } });
    a = { service: first.service, clock: first.clock };
    b = await secondProcess(first.service, { REDIS_URL });
    await b.service.revocations.ready();
  });
  after(async () => {
    await b?.service.close();
    await first?.close();
  });

  it("another process refuses the key as soon as the announcement arrives, while its clock stands still", async (t) => {
    if (!reachable) return t.skip(`no Redis at ${REDIS_URL}`);
    const k = await first!.key("pro", "redis");
    assert.equal((await usageStatus(b!.service, k.key)).status, 200, "cached in the other process");
    await a!.service.services.accounts.revokeKey(k.keyId);
    assert.deepEqual(await usageStatus(a!.service, k.key), { status: 401, code: "api_key_revoked" }, "at once where it was revoked");
    // The other process's clock never moves, so its cache never expires: only the announcement can refuse the key.
    let last = await usageStatus(b!.service, k.key);
    for (let i = 0; i < 100 && last.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      last = await usageStatus(b!.service, k.key);
    }
    assert.deepEqual(last, { status: 401, code: "api_key_revoked" });
  });

  it("an allowance changed in one process reaches the other's next call, while its clock stands still", async (t) => {
    if (!reachable) return t.skip(`no Redis at ${REDIS_URL}`);
    const k = await first!.key("pro", "redis deal");
    const before = await creditLimit(b!.service, k.key);
    assert.equal(await a!.service.services.accounts.setDeal(k.accountId, { monthlyCredits: before + 11, extraMonthlyCredits: null, ratePerSecond: null }), true);
    // b remembers keys for a minute where changes are announced; only the announcement can change its answer.
    let limit = await creditLimit(b!.service, k.key);
    for (let i = 0; i < 100 && limit === before; i++) {
      await new Promise((r) => setTimeout(r, 20));
      limit = await creditLimit(b!.service, k.key);
    }
    assert.equal(limit, before + 11);
  });
});
