/**
 * Fixes ingest acknowledged but the process never derived (it stopped first) are derived
 * by the next process on the same store: the queue is written with the positions.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { parseConfig } from "../../../src/config.ts";
import { openServices, PROJECT_ROOT } from "../../../src/main.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { sailVoyage } from "../../helpers/voyage.ts";

for (const engine of ENGINES) {
  describe(`derived facts across a stop (${engine})`, () => {
    let t: TestService;
    before(async () => {
      t = await startTestService({ engine, env: { DERIVED_FACTS: "off" } });
    });
    after(() => t.close());

    it("positions written while nothing derived them are derived by the next start, once", async () => {
      const account = await t.service.services.accounts.createAccount({ name: "harbour", webPlan: "pro", apiPlan: null });
      const { station } = await t.service.services.stations.createStation(account.id, "mast");
      const v = sailVoyage([{ sail: [4.1, 51.955], knots: 10 }, { stop: 4 }, { sail: [3.7, 52.05], knots: 12 }], { mmsi: 244_300_001, stationId: station.id, start: t.clock.now() - 8 * 3_600_000, from: [3.7, 52.05] });
      const fixes = v.fixes.map((f) => ({ ...f, cog: null, heading: null }));
      // A process whose derivation never ran: the queue is written, nothing drains it.
      const writer = await openServices(parseConfig({ ...envOf(t), DERIVED_FACTS: "on" }, PROJECT_ROOT));
      // Its start-up drain (of an empty queue) ends first; then it derives nothing more.
      await writer.derived!.idle();
      writer.derived!.onPositions = () => {};
      writer.derived!.poll = () => Promise.resolve();
      await writer.services.positions.writeBatch({ positions: fixes, latest: [], identities: [], counters: [], heard: [] });
      await writer.close();
      assert.equal(await count(t, "port_calls"), 0);
      assert.equal(await count(t, "derived_feed"), fixes.length);

      // The next start drains the queue from the saved state.
      const next = await openServices(parseConfig({ ...envOf(t), DERIVED_FACTS: "on" }, PROJECT_ROOT));
      await next.derived!.idle();
      await next.derived!.poll();
      assert.equal(await count(t, "derived_feed"), 0);
      const calls = await next.services.derived.vesselCalls([244_300_001], { visible: [station.id], from: 0, to: t.clock.now() + 1, after: null, limit: 10 });
      assert.equal(calls.length, 1);
      assert.equal(calls[0]!.unlocode, "NLEUR");
      await next.close();
      // A third start finds nothing queued and writes nothing twice.
      const third = await openServices(parseConfig({ ...envOf(t), DERIVED_FACTS: "on" }, PROJECT_ROOT));
      await third.derived!.idle();
      assert.equal(await count(t, "port_calls"), 1);
      await third.close();
    });
  });
}

function envOf(t: TestService): Record<string, string> {
  const env: Record<string, string> = { DATA_DIR: t.service.config.dataDir, LOG_LEVEL: "silent" };
  if (t.service.config.databaseUrl) env.DATABASE_URL = t.service.config.databaseUrl;
  return env;
}

async function count(t: TestService, table: "port_calls" | "derived_feed"): Promise<number> {
  const r = await t.service.store.db.selectFrom(table).select((eb) => eb.fn.countAll().as("n")).executeTakeFirst();
  return Number(r?.n ?? 0);
}
