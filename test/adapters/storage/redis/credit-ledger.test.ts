import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import { SqlCreditLedger } from "../../../../src/adapters/storage/accounts/credit-ledger.ts";
import { RedisCreditLedger } from "../../../../src/adapters/storage/redis/credit-ledger.ts";
import { AppError } from "../../../../src/domain/errors.ts";
import { dropRedisKeys, redisReachable, TEST_REDIS_URL } from "../../../helpers/redis.ts";
import { startTestService, type TestService } from "../../../helpers/service.ts";

const REDIS_URL = TEST_REDIS_URL;

describe("credits in Redis, written behind to the store (several processes)", async () => {
  const reachable = await redisReachable();
  let t: TestService;
  // One prefix per run: runs sharing a Redis never see each other's balances.
  const prefix = `mds-test-${randomUUID()}`;
  const ledgers: RedisCreditLedger[] = [];
  before(async () => {
    t = await startTestService({ withData: false });
  });
  after(async () => {
    for (const l of ledgers) await l.close();
    await dropRedisKeys(prefix);
    await t.close();
  });

  const store = () => new SqlCreditLedger(t.service.store.db, t.service.store.dialect);
  const ledger = (flushMs = 50, ownPrefix = prefix) => {
    const l = new RedisCreditLedger({ redisUrl: REDIS_URL, store: store(), prefix: ownPrefix, flushMs });
    ledgers.push(l);
    return l;
  };
  async function account() {
    const a = await t.service.services.accounts.createAccount({ name: "redis", webPlan: "sandbox", apiPlan: null });
    const k = await t.service.services.accounts.createKey(a.id);
    return { accountId: a.id, keyId: k.id };
  }

  it("200 concurrent charges through three processes on 50 credits: exactly 50 pass, and the store learns all 50", { skip: !reachable && `no Redis at ${REDIS_URL}` }, async () => {
    const { accountId, keyId } = await account();
    const three = [ledger(), ledger(), ledger()];
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => three[i % 3]!.charge(accountId, keyId, "2026-11", 1, 50)));
    assert.equal(results.filter((r) => r.ok).length, 50);
    assert.ok(results.filter((r) => !r.ok).every((r) => r.used === 50));
    await three[0]!.flush();
    assert.equal(await store().balance(accountId, "2026-11"), 50);
  });

  it("a balance starts from the store's figure, and a refund gives the credits back", { skip: !reachable && `no Redis at ${REDIS_URL}` }, async () => {
    const { accountId, keyId } = await account();
    await store().setUsed(accountId, "2026-11", 95);
    const l = ledger();
    assert.deepEqual(await l.charge(accountId, keyId, "2026-11", 3, 100), { ok: true, used: 98 });
    assert.deepEqual(await l.charge(accountId, keyId, "2026-11", 3, 100), { ok: false, used: 98 });
    await l.refund(accountId, keyId, "2026-11", 3);
    assert.equal((await l.usage(accountId, keyId, "2026-11")).used, 95);
    assert.equal(await store().balance(accountId, "2026-11"), 95);
  });

  it("a process killed before writing behind loses no charge: another process writes its increments", { skip: !reachable && `no Redis at ${REDIS_URL}` }, async () => {
    const { accountId, keyId } = await account();
    // A deployment of its own, whose first process never writes behind on its own: it stands for one killed right after charging.
    const deployment = `${prefix}-killed`;
    const killed = ledger(3_600_000, deployment);
    for (let i = 0; i < 7; i++) assert.ok((await killed.charge(accountId, keyId, "2026-11", 2, 100)).ok);
    assert.equal(await store().balance(accountId, "2026-11"), 0);
    await ledger(3_600_000, deployment).flush();
    assert.equal(await store().balance(accountId, "2026-11"), 14);
  });

  /**
   * A process whose store stops at a point of the write, as a kill -9 there would: `before`
   * the batch reaches the database, or `after` it did but before the batch left Redis. The
   * stop is released (as a failure) when the test ends, so the process can be closed.
   */
  function killedDuringWrite(deployment: string, at: "before" | "after") {
    const s = store();
    const apply = s.applyBatch.bind(s);
    let release: (e: Error) => void = () => undefined;
    const stopped = new Promise<boolean>((_, reject) => (release = reject));
    s.applyBatch = async (token, increments) => {
      if (at === "after") await apply(token, increments);
      return stopped;
    };
    const l = new RedisCreditLedger({ redisUrl: REDIS_URL, store: s, prefix: deployment, flushMs: 3_600_000 });
    return { ledger: l, release: () => release(new Error("killed")) };
  }

  for (const at of ["before", "after"] as const) {
    it(`a process killed ${at} writing a batch it took: another process writes it, once`, { skip: !reachable && `no Redis at ${REDIS_URL}` }, async () => {
      const { accountId, keyId } = await account();
      const deployment = `${prefix}-killed-${at}`;
      const killed = killedDuringWrite(deployment, at);
      try {
        for (let i = 0; i < 5; i++) assert.ok((await killed.ledger.charge(accountId, keyId, "2026-11", 3, 100)).ok);
        void killed.ledger.flush().catch(() => undefined);
        await new Promise((r) => setTimeout(r, 100));
        assert.equal(await store().balance(accountId, "2026-11"), at === "before" ? 0 : 15, "the taker stopped where it was killed");
        const other = ledger(3_600_000, deployment);
        await other.flush();
        assert.equal(await store().balance(accountId, "2026-11"), at === "before" ? 0 : 15, "a batch taken moments ago is its taker's to write");
        const soon = new RedisCreditLedger({ redisUrl: REDIS_URL, store: store(), prefix: deployment, flushMs: 3_600_000, reclaimAfterMs: 50 });
        ledgers.push(soon);
        await soon.flush();
        assert.equal(await store().balance(accountId, "2026-11"), 15, "taken over once it is stale, and applied once");
        await soon.flush();
        assert.equal(await store().balance(accountId, "2026-11"), 15);
      } finally {
        killed.release();
        await killed.ledger.close();
      }
    });
  }

  it("Redis losing its data: the balance is rebuilt from the store, with nothing written behind lost", { skip: !reachable && `no Redis at ${REDIS_URL}` }, async () => {
    const { accountId, keyId } = await account();
    const l = ledger();
    for (let i = 0; i < 10; i++) await l.charge(accountId, keyId, "2026-11", 1, 12);
    await l.flush();
    const r = new Redis(REDIS_URL);
    await r.del(...(await r.keys(`${prefix}:credits:${accountId}:*`)));
    r.disconnect();
    const results = await Promise.all(Array.from({ length: 5 }, () => l.charge(accountId, keyId, "2026-11", 1, 12)));
    assert.equal(results.filter((x) => x.ok).length, 2, "rebuilt at 10 of 12: two more pass");
  });

  it("Redis unreachable: a charge fails as service_unavailable (a 503, not charged), not as an internal error", async () => {
    const l = new RedisCreditLedger({ redisUrl: "redis://127.0.0.1:1", store: store(), prefix, flushMs: 3_600_000 });
    try {
      await assert.rejects(l.charge("acc_x", "key_x", "2026-11", 1, 10), (e: unknown) => e instanceof AppError && e.code === "service_unavailable");
    } finally {
      await l.close();
    }
  });
});
