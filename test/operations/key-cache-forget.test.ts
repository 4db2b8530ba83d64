import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { newSecret } from "../../src/domain/secrets.ts";
import type { AccountStore, KeyPrincipalRecord } from "../../src/interfaces/accounts.ts";
import { ANNOUNCED_KEY_CACHE_TTL_MS, KeyAuthenticator } from "../../src/operations/authenticate.ts";
import { TestClock } from "../helpers/service.ts";

/**
 * A lookup under way when a change is announced may have read the row before the change. Kept
 * for the announced cache's minute, it would serve a revoked key that long; it must answer
 * its own call only. The store here answers when the test lets it, so the order is exact.
 */
describe("the key cache and a change announced during a lookup", () => {
  const record = (revoked: boolean): KeyPrincipalRecord => ({ keyId: "key_1", accountId: "acc_1", revoked, webPlan: null, apiPlan: "scale", deal: { monthlyCredits: null, extraMonthlyCredits: null, ratePerSecond: null } });

  function heldStore() {
    const pending: ((r: KeyPrincipalRecord) => void)[] = [];
    let lookups = 0;
    const store = {
      findKeyByHash: () => {
        lookups++;
        return new Promise<KeyPrincipalRecord>((resolve) => pending.push(resolve));
      },
      recordKeyUse: async () => {},
    } as unknown as AccountStore;
    return { store, pending, lookups: () => lookups };
  }

  async function settle(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
  }

  it("a lookup that read the key before its revocation was announced is not cached", async () => {
    const { store, pending, lookups } = heldStore();
    const auth = new KeyAuthenticator(store, new TestClock(), undefined, ANNOUNCED_KEY_CACHE_TTL_MS);
    const key = newSecret("mds_sk");
    const first = auth.authenticate(`Bearer ${key}`, true, "203.0.113.9");
    await settle();
    // The row was read as it stood; the revocation commits and is announced before the answer is back.
    auth.forget({ keyId: "key_1" });
    pending.shift()!(record(false));
    assert.equal((await first).kind, "key", "the call under way is answered from what it read");
    const second = auth.authenticate(`Bearer ${key}`, true, "203.0.113.9");
    await settle();
    assert.equal(lookups(), 2, "looked up again, not served from the cache");
    pending.shift()!(record(true));
    await assert.rejects(second, { code: "api_key_revoked" });
  });

  it("a lookup with nothing announced meanwhile is cached", async () => {
    const { store, pending, lookups } = heldStore();
    const auth = new KeyAuthenticator(store, new TestClock(), undefined, ANNOUNCED_KEY_CACHE_TTL_MS);
    const key = newSecret("mds_sk");
    const first = auth.authenticate(`Bearer ${key}`, true, "203.0.113.9");
    await settle();
    pending.shift()!(record(false));
    await first;
    assert.equal((await auth.authenticate(`Bearer ${key}`, true, "203.0.113.9")).kind, "key");
    assert.equal(lookups(), 1);
  });
});
