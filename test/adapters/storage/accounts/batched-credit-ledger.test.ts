import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { BatchedCreditLedger } from "../../../../src/adapters/storage/accounts/batched-credit-ledger.ts";
import { SqlCreditLedger } from "../../../../src/adapters/storage/accounts/credit-ledger.ts";
import { openStore, type Store } from "../../../../src/adapters/storage/database.ts";
import type { Database } from "../../../../src/adapters/storage/schema.ts";
import { asAppError } from "../../../../src/operations/call.ts";
import { startTestService, type TestService } from "../../../helpers/service.ts";

const PERIOD = "2026-11";

/**
 * PostgreSQL without Redis: several API processes charge one balance through the database,
 * each sending its calls in batches. Each "process" here is a store of its own (its own pools
 * to the one database) with its own batched ledger, as `mds serve` opens them.
 */
describe("batched credit ledger on PostgreSQL (several processes, no Redis)", () => {
  const skip = !process.env.DATABASE_URL && "no DATABASE_URL";
  let t: TestService;
  const stores: Store[] = [];
  const ledgers: BatchedCreditLedger[] = [];
  before(async () => {
    if (skip) return;
    t = await startTestService({ engine: "postgres", withData: false });
  });
  after(async () => {
    for (const l of ledgers) await l.close();
    for (const s of stores) await s.close();
    await t?.close();
  });

  async function apiProcess(url = t.service.config.databaseUrl!): Promise<BatchedCreditLedger> {
    const store = await openStore({ engine: "postgres", url });
    stores.push(store);
    const ledger = new BatchedCreditLedger(store.counters, new SqlCreditLedger(store.counters, store.dialect));
    ledgers.push(ledger);
    return ledger;
  }
  async function account() {
    const a = await t.service.services.accounts.createAccount({ name: "batched", webPlan: null, apiPlan: "scale" });
    const k = await t.service.services.accounts.createKey(a.id);
    return { accountId: a.id, keyId: k.id };
  }
  const used = async (accountId: string) => (await t.service.services.ledger.usage(accountId, "none", PERIOD)).used;

  it("300 concurrent calls through three processes on 50 credits left: exactly 50 are charged, and the database holds the allowance", { skip }, async () => {
    const who = await account();
    const limit = 1_000;
    await t.service.services.ledger.setUsed(who.accountId, PERIOD, limit - 50);
    const three = [await apiProcess(), await apiProcess(), await apiProcess()];
    // Spread over several event-loop turns, so each process sends several statements that meet at the row.
    const results = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        if (i % 7 === 0) await new Promise((r) => setImmediate(r));
        return three[i % 3]!.charge(who.accountId, who.keyId, PERIOD, 1, limit);
      }),
    );
    assert.equal(results.filter((r) => r.ok).length, 50);
    assert.ok(results.filter((r) => !r.ok).every((r) => r.used === limit), "a refused call sees the exhausted balance");
    assert.equal(await used(who.accountId), limit);
    for (const l of three) await l.flush();
    assert.equal((await t.service.services.ledger.usage(who.accountId, who.keyId, PERIOD)).keyCalls, 50, "the key's tally counts the charged calls only");
  });

  it("calls of different prices on one balance: no process overdraws it, and the database holds exactly what was granted", { skip }, async () => {
    const who = await account();
    const limit = 500;
    const two = [await apiProcess(), await apiProcess()];
    const costs = Array.from({ length: 400 }, (_, i) => 1 + ((i * 7) % 5));
    const results = await Promise.all(costs.map((cost, i) => two[i % 2]!.charge(who.accountId, who.keyId, PERIOD, cost, limit)));
    const granted = results.reduce((sum, r, i) => sum + (r.ok ? costs[i]! : 0), 0);
    assert.ok(granted <= limit, `${granted} granted on ${limit}`);
    assert.equal(await used(who.accountId), granted);
    // Nothing left that the cheapest refused call would have fitted into when the last call was decided.
    assert.ok(limit - granted < Math.min(...costs.filter((_, i) => !results[i]!.ok)));
  });

  it("within one statement each call is decided alone and in order: a dear call refused does not stop a cheaper one after it", { skip }, async () => {
    const who = await account();
    const [one] = [await apiProcess()];
    await t.service.services.ledger.setUsed(who.accountId, PERIOD, 95);
    // The same turn: one statement.
    const [a, b, c] = await Promise.all([3, 3, 1].map((cost) => one!.charge(who.accountId, who.keyId, PERIOD, cost, 100)));
    assert.deepEqual(
      [a, b, c].map((r) => r!.ok),
      [true, false, true],
    );
    assert.deepEqual(
      [a, b, c].map((r) => r!.used),
      [98, 98, 99],
    );
    assert.equal(await used(who.accountId), 99);
  });

  it("a month that has no row yet, first charged by two processes at once, is created once and charged exactly", { skip }, async () => {
    const who = await account();
    const two = [await apiProcess(), await apiProcess()];
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => two[i % 2]!.charge(who.accountId, who.keyId, PERIOD, 1, 25)));
    assert.equal(results.filter((r) => r.ok).length, 25);
    assert.equal(await used(who.accountId), 25);
  });

  it("several accounts in one statement each keep their own balance, and a refund gives credits back", { skip }, async () => {
    const [x, y] = [await account(), await account()];
    const two = [await apiProcess(), await apiProcess()];
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const who = i % 2 === 0 ? x : y;
        return two[(i >> 1) % 2]!.charge(who.accountId, who.keyId, PERIOD, 1, who === x ? 10 : 20);
      }),
    );
    assert.equal(results.filter((r, i) => r.ok && i % 2 === 0).length, 10);
    assert.equal(results.filter((r, i) => r.ok && i % 2 === 1).length, 20);
    await two[0]!.refund(x.accountId, x.keyId, PERIOD, 4);
    assert.equal(await used(x.accountId), 6);
    const again = await Promise.all(Array.from({ length: 6 }, () => two[1]!.charge(x.accountId, x.keyId, PERIOD, 1, 10)));
    assert.equal(again.filter((r) => r.ok).length, 4, "the refunded credits, no more");
  });

  it("when the database does not answer, the calls fail as service_unavailable and nothing is charged", { skip }, async () => {
    const who = await account();
    const unreachable = new URL(t.service.config.databaseUrl!);
    unreachable.port = "1";
    // A process whose database went away: its pool finds nothing listening.
    const pool = new pg.Pool({ connectionString: unreachable.toString(), max: 1 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const ledger = new BatchedCreditLedger(db, new SqlCreditLedger(db, t.service.store.dialect));
    const outcomes = await Promise.allSettled([1, 2, 3].map(() => ledger.charge(who.accountId, who.keyId, PERIOD, 1, 100)));
    await db.destroy();
    assert.ok(outcomes.every((o) => o.status === "rejected" && asAppError(o.reason).code === "service_unavailable"));
    assert.equal(await used(who.accountId), 0);
  });
});
