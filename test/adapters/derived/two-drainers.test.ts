/**
 * Two processes of one deployment (two ingest processes) drain the one queue of derived
 * facts, in turns. Each keeps vessels' detector states in memory between pages; a state the
 * other process has moved on since must not be used, or a call is split, doubled or lost.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { parseConfig } from "../../../src/config.ts";
import { openServices, PROJECT_ROOT, type ServiceCore } from "../../../src/main.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { sailVoyage } from "../../helpers/voyage.ts";

for (const engine of ENGINES) {
  describe(`derived facts drained in turns by two processes (${engine})`, () => {
    let t: TestService;
    const processes: ServiceCore[] = [];
    before(async () => {
      t = await startTestService({ engine, env: { DERIVED_FACTS: "off" } });
    });
    after(async () => {
      for (const p of processes) await p.close();
      await t.close();
    });

    async function startProcess(): Promise<ServiceCore> {
      const env: Record<string, string> = { DATA_DIR: t.service.config.dataDir, LOG_LEVEL: "silent", DERIVED_FACTS: "on" };
      if (t.service.config.databaseUrl) env.DATABASE_URL = t.service.config.databaseUrl;
      const p = await openServices(parseConfig(env, PROJECT_ROOT));
      await p.derived!.idle();
      processes.push(p);
      return p;
    }

    it("a stop at Rotterdam is one call with its arrival and departure, whichever process derived each part", async () => {
      const [a, b] = [await startProcess(), await startProcess()];
      const account = await t.service.services.accounts.createAccount({ name: "two drainers", webPlan: "pro", apiPlan: null });
      const { station } = await t.service.services.stations.createStation(account.id, "mast");
      const mmsi = 244_300_002;
      const v = sailVoyage([{ sail: [4.1, 51.955], knots: 10 }, { stop: 4 }, { sail: [3.7, 52.05], knots: 12 }], { mmsi, stationId: station.id, start: t.clock.now() - 8 * 3_600_000, from: [3.7, 52.05] });
      const fixes = v.fixes.map((f) => ({ ...f, cog: null, heading: null }));
      // Sailing in, alongside, sailing out: each third written and derived by the process whose turn it is.
      const third = Math.ceil(fixes.length / 3);
      const turns: ServiceCore[] = [a, b, a];
      for (let i = 0; i < 3; i++) {
        await a.services.positions.writeBatch({ positions: fixes.slice(i * third, (i + 1) * third), latest: [], identities: [], counters: [], heard: [] });
        await turns[i]!.derived!.poll();
      }
      const calls = await a.services.derived.vesselCalls([mmsi], { visible: [station.id], from: 0, to: t.clock.now() + 1, after: null, limit: 10 });
      assert.equal(calls.length, 1, `one call, not ${calls.length}`);
      assert.equal(calls[0]!.unlocode, "NLEUR");
      assert.notEqual(calls[0]!.departure, null, "the departure the first process derived from where the second left the ship");
    });
  });
}
