import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { FixedWindowLimiter } from "../../../src/adapters/limits/fixed-window-limiter.ts";
import { InProcessAdmission } from "../../../src/adapters/limits/in-process-admission.ts";
import { SqlCreditLedger } from "../../../src/adapters/storage/accounts/credit-ledger.ts";
import { WriteBehindLedger } from "../../../src/adapters/storage/accounts/write-behind-ledger.ts";
import { PLANS } from "../../../src/domain/plans.ts";
import type { AdmissionDecision, AdmissionRequest } from "../../../src/interfaces/admission.ts";
import { billingPeriod } from "../../../src/operations/billing-period.ts";
import { get, startTestService, type TestService } from "../../helpers/service.ts";

const PERIOD = "2026-11";

describe("in-process admission (SQLite): rate window and charge decided at once, credits exact", () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(() => t.close());

  async function account() {
    const a = await t.service.services.accounts.createAccount({ name: "admission", webPlan: null, apiPlan: "scale" });
    const k = await t.service.services.accounts.createKey(a.id);
    return { accountId: a.id, keyId: k.id };
  }

  function admissionOver(store: SqlCreditLedger) {
    const ledger = new WriteBehindLedger(store, 50);
    return { ledger, admission: new InProcessAdmission(new FixedWindowLimiter(t.clock), ledger) };
  }

  it("grants concurrent calls at the limit exactly the balance left, those waiting for the balance's read and those decided at once alike", async () => {
    const { accountId, keyId } = await account();
    const store = new SqlCreditLedger(t.service.store.db, t.service.store.dialect);
    await store.setUsed(accountId, PERIOD, 90);
    const { ledger, admission } = admissionOver(store);
    const request: AdmissionRequest = { subject: `key:${keyId}`, perSecond: 1_000, charge: { accountId, keyId, period: PERIOD, cost: 2, limit: 150 } };
    // The balance is not in memory yet: these all wait for one read of it.
    const waiting = Array.from({ length: 10 }, () => admission.admit(request));
    assert.ok(waiting.every((d) => d instanceof Promise));
    const first = await Promise.all(waiting);
    // Held now: each of these is decided at once, with no promise to wait for.
    const atOnce = Array.from({ length: 30 }, () => admission.admit(request));
    assert.ok(atOnce.every((d) => !(d instanceof Promise)));
    const all = [...first, ...(atOnce as AdmissionDecision[])];
    const granted = all.filter((d) => d.charge?.ok === true);
    assert.equal(granted.length, 30);
    // Each granted call saw its own balance after its charge: 92, 94, ... 150, none twice.
    assert.deepEqual(
      granted.map((d) => d.charge!.used),
      Array.from({ length: 30 }, (_, i) => 92 + 2 * i),
    );
    assert.ok(all.filter((d) => d.charge?.ok === false).every((d) => d.charge!.used === 150));
    await ledger.close();
    // The store learnt exactly what was granted, per account and per key.
    assert.deepEqual(await store.usage(accountId, keyId, PERIOD), { used: 150, keyCalls: 30, keyCredits: 60 });
  });

  it("refuses a call over its rate before charging it", async () => {
    const { accountId, keyId } = await account();
    const store = new SqlCreditLedger(t.service.store.db, t.service.store.dialect);
    const { ledger, admission } = admissionOver(store);
    const request: AdmissionRequest = { subject: `key:${keyId}`, perSecond: 3, charge: { accountId, keyId, period: PERIOD, cost: 5, limit: 1_000 } };
    const decisions = await Promise.all(Array.from({ length: 5 }, () => admission.admit(request)));
    assert.deepEqual(
      decisions.map((d) => [d.rate.allowed, d.rate.remaining, d.charge?.ok ?? null]),
      [
        [true, 2, true],
        [true, 1, true],
        [true, 0, true],
        [false, 0, null],
        [false, 0, null],
      ],
    );
    await ledger.close();
    assert.equal(await store.balance(accountId, PERIOD), 15);
  });

  it("through REST on SQLite, concurrent paid calls at the limit get exactly the credits left, the others 402 and nothing charged", async () => {
    assert.ok(t.service.services.admission instanceof InProcessAdmission);
    const k = await t.key("scale");
    const period = billingPeriod(t.clock.now());
    const limit = PLANS.scale.monthlyCredits;
    await t.service.services.ledger.setUsed(k.accountId, period, limit - 5);
    const answers = await Promise.all(Array.from({ length: 12 }, () => get(t, "/api/v1/ports?limit=1", k.key)));
    const ok = answers.filter((r) => r.status === 200);
    assert.equal(ok.length, 5);
    assert.deepEqual(ok.map((r) => Number(r.headers["x-credits-remaining"])).sort((a, b) => b - a), [4, 3, 2, 1, 0]);
    const refused = answers.filter((r) => r.status !== 200);
    assert.ok(refused.every((r) => r.status === 402 && r.body.error.code === "credits_exhausted" && r.headers["x-credits-cost"] === "0"));
    assert.equal((await t.service.services.ledger.usage(k.accountId, k.keyId, period)).used, limit);
  });
});
