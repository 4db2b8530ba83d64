import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SqlCreditLedger } from "../../../../src/adapters/storage/accounts/credit-ledger.ts";
import { WriteBehindLedger } from "../../../../src/adapters/storage/accounts/write-behind-ledger.ts";
import { startTestService, type TestService } from "../../../helpers/service.ts";

describe("write-behind credits (the SQLite ledger)", () => {
  let t: TestService;
  before(async () => {
    t = await startTestService({ withData: false });
  });
  after(() => t.close());

  async function account() {
    const a = await t.service.services.accounts.createAccount({ name: "wb", webPlan: "sandbox", apiPlan: null });
    const k = await t.service.services.accounts.createKey(a.id);
    return { accountId: a.id, keyId: k.id };
  }

  it("never overdraws under concurrent charges, and the store learns every charge", async () => {
    const { accountId, keyId } = await account();
    const store = new SqlCreditLedger(t.service.store.db, t.service.store.dialect);
    await store.setUsed(accountId, "2026-11", 90);
    const ledger = new WriteBehindLedger(store, 50);
    const results = await Promise.all(Array.from({ length: 40 }, () => ledger.charge(accountId, keyId, "2026-11", 2, 150)));
    assert.equal(results.filter((r) => r.ok).length, 30);
    await ledger.refund(accountId, keyId, "2026-11", 2);
    await ledger.close();
    // A fresh ledger, as after a restart, reads the balance the first one wrote.
    const again = new WriteBehindLedger(new SqlCreditLedger(t.service.store.db, t.service.store.dialect));
    assert.deepEqual(await again.usage(accountId, keyId, "2026-11"), { used: 148, keyCalls: 29, keyCredits: 58 });
    assert.equal((await again.charge(accountId, keyId, "2026-11", 3, 150)).ok, false);
    assert.equal((await again.charge(accountId, keyId, "2026-11", 2, 150)).ok, true);
    await again.close();
  });

  it("writes behind without being asked, within its interval", async () => {
    const { accountId, keyId } = await account();
    const store = new SqlCreditLedger(t.service.store.db, t.service.store.dialect);
    const ledger = new WriteBehindLedger(store, 20);
    await ledger.charge(accountId, keyId, "2026-11", 5, 100);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await store.balance(accountId, "2026-11"), 5);
    await ledger.close();
  });
});
