import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { RedisAdmission } from "../../../../src/adapters/storage/redis/admission.ts";
import { SqlCreditLedger } from "../../../../src/adapters/storage/accounts/credit-ledger.ts";
import { RedisCreditLedger } from "../../../../src/adapters/storage/redis/credit-ledger.ts";
import { AppError } from "../../../../src/domain/errors.ts";
import type { AdmissionRequest } from "../../../../src/interfaces/admission.ts";
import { dropRedisKeys, redisReachable, TEST_REDIS_URL } from "../../../helpers/redis.ts";
import { startTestService, type TestService } from "../../../helpers/service.ts";

const REDIS_URL = TEST_REDIS_URL;
const PERIOD = "2026-11";

describe("rate limits and credits admitted together in Redis (several processes)", async () => {
  const reachable = await redisReachable();
  const skip = !reachable && `no Redis at ${REDIS_URL}`;
  let t: TestService;
  // One prefix per run: runs sharing a Redis never see each other's windows and balances.
  const prefix = `mds-test-${randomUUID()}`;
  const closing: { close(): Promise<void> }[] = [];
  before(async () => {
    t = await startTestService({ withData: false });
  });
  after(async () => {
    for (const c of closing) await c.close();
    await dropRedisKeys(prefix);
    await t.close();
  });

  const store = () => new SqlCreditLedger(t.service.store.db, t.service.store.dialect);
  /** One API process's admission: its own connections to the one Redis. */
  function process(redisUrl = REDIS_URL): { admission: RedisAdmission; ledger: RedisCreditLedger } {
    const ledger = new RedisCreditLedger({ redisUrl, store: store(), prefix, flushMs: 50 });
    const admission = new RedisAdmission({ redisUrl, ledger, ratePrefix: `${prefix}:rl` });
    closing.push(admission, ledger);
    return { admission, ledger };
  }
  async function account() {
    const a = await t.service.services.accounts.createAccount({ name: "admission", webPlan: null, apiPlan: "scale" });
    const k = await t.service.services.accounts.createKey(a.id);
    return { accountId: a.id, keyId: k.id };
  }
  const paid = (who: { accountId: string; keyId: string }, perSecond: number, limit: number, cost = 1): AdmissionRequest => ({
    subject: `key:${who.keyId}`,
    perSecond,
    charge: { ...who, period: PERIOD, cost, limit },
  });

  it("200 concurrent paid calls through three processes on 50 credits: exactly 50 are charged, and the store learns 50", { skip }, async () => {
    const who = await account();
    const three = [process(), process(), process()];
    const decisions = await Promise.all(Array.from({ length: 200 }, (_, i) => three[i % 3]!.admission.admit(paid(who, 10_000, 50))));
    assert.ok(decisions.every((d) => d.rate.allowed));
    assert.equal(decisions.filter((d) => d.charge?.ok === true).length, 50);
    assert.ok(decisions.filter((d) => d.charge?.ok === false).every((d) => d.charge!.used === 50));
    // Any process may hold a batch it took on its own timer; each one's flush waits for its own.
    for (const p of three) await p.ledger.flush();
    assert.equal(await store().balance(who.accountId, PERIOD), 50);
  });

  it("a key's rate holds across processes, and a call the rate limit refuses is not charged", { skip }, async () => {
    const who = await account();
    const two = [process(), process()];
    const decisions = await Promise.all(Array.from({ length: 30 }, (_, i) => two[i % 2]!.admission.admit(paid(who, 5, 1_000))));
    const allowed = decisions.filter((d) => d.rate.allowed);
    assert.equal(allowed.length, 5, "five calls in the second, whichever process took them");
    assert.ok(allowed.every((d) => d.charge?.ok === true));
    const refused = decisions.filter((d) => !d.rate.allowed);
    assert.ok(refused.every((d) => d.charge === null && d.rate.remaining === 0 && d.rate.resetMs > 0 && d.rate.resetMs <= 1_000));
    assert.equal((await two[0]!.ledger.usage(who.accountId, who.keyId, PERIOD)).used, 5, "only the admitted calls were charged");
  });

  it("a balance not yet in Redis starts from the store's figure", { skip }, async () => {
    const who = await account();
    await store().setUsed(who.accountId, PERIOD, 98);
    const { admission } = process();
    const [first, second] = await Promise.all([admission.admit(paid(who, 100, 100, 2)), admission.admit(paid(who, 100, 100, 2))]);
    assert.deepEqual(
      [first!.charge, second!.charge].map((c) => c?.ok).sort(),
      [false, true],
      "98 of 100 used: one call of 2 credits passes, the other is refused",
    );
  });

  it("a free call spends only its rate budget", { skip }, async () => {
    const { admission, ledger } = process();
    const who = await account();
    const d = await admission.admit({ subject: `key:${who.keyId}`, perSecond: 3, charge: null });
    assert.deepEqual({ allowed: d.rate.allowed, remaining: d.rate.remaining, charge: d.charge }, { allowed: true, remaining: 2, charge: null });
    assert.equal((await ledger.usage(who.accountId, who.keyId, PERIOD)).used, 0);
  });

  it("Redis unreachable: admission fails as service_unavailable (a 503, not charged), not as an internal error", async () => {
    const ledger = new RedisCreditLedger({ redisUrl: "redis://127.0.0.1:1", store: store(), prefix, flushMs: 3_600_000 });
    const admission = new RedisAdmission({ redisUrl: "redis://127.0.0.1:1", ledger, ratePrefix: `${prefix}:rl` });
    try {
      await assert.rejects(admission.admit(paid({ accountId: "acc_x", keyId: "key_x" }, 10, 10)), (e: unknown) => e instanceof AppError && e.code === "service_unavailable");
    } finally {
      await admission.close();
      await ledger.close();
    }
  });
});
