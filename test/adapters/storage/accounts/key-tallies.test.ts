/**
 * Each key's tally of calls and credits is written behind (once a second), and `usage()`
 * writes what is pending before it reads, so a caller sees its own calls at once: even when a
 * timed write of the tallies is already on its way to the database as it asks.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SqlCreditLedger } from "../../../../src/adapters/storage/accounts/credit-ledger.ts";
import { openStore, type Store } from "../../../../src/adapters/storage/database.ts";
import { storeLocation } from "../../../../src/main.ts";
import { ENGINES, startTestService, type TestService } from "../../../helpers/service.ts";

const PERIOD = "2026-11";

for (const engine of ENGINES) {
  describe(`key tallies read back at once (${engine})`, () => {
    let t: TestService;
    let store: Store;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      // A second store on the same database, as another process opens it.
      store = await openStore(storeLocation(t.service.config));
    });
    after(async () => {
      await store.close();
      await t.close();
    });

    it("usage() while a write of the tallies is under way counts the calls that write carries", async () => {
      const ledger = new SqlCreditLedger(store.counters, store.dialect);
      for (let round = 0; round < 20; round++) {
        const keyId = `key_tally_${round}`;
        for (let i = 0; i < 5; i++) ledger.tally(keyId, PERIOD, 1, 2);
        // The timed write takes the pending tallies and is waiting on the database when usage() asks.
        const inFlight = ledger.flush();
        const u = await ledger.usage("acct_none", keyId, PERIOD);
        await inFlight;
        assert.deepEqual([u.keyCalls, u.keyCredits], [5, 10], `round ${round}`);
      }
    });
  });
}
