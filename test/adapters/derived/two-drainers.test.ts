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
import { DerivedFacts } from "../../../src/adapters/derived/runtime.ts";
import { loadShore } from "../../../src/adapters/importers/shore.ts";
import { GateSet } from "../../../src/domain/derived/transit-detector.ts";

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

    it("derivation waits for ingest's backlog, but a flood that never lets up delays it and does not stop it", async () => {
      const p = await startProcess();
      const account = await t.service.services.accounts.createAccount({ name: "flooded", webPlan: "pro", apiPlan: null });
      const { station } = await t.service.services.stations.createStation(account.id, "busy mast");
      const mmsi = 244_300_003;
      const v = sailVoyage([{ sail: [4.1, 51.955], knots: 10 }, { stop: 4 }, { sail: [3.7, 52.05], knots: 12 }], { mmsi, stationId: station.id, start: t.clock.now() - 8 * 3_600_000, from: [3.7, 52.05] });
      await p.services.positions.writeBatch({ positions: v.fixes.map((f) => ({ ...f, cog: null, heading: null })), latest: [], identities: [], counters: [], heard: [] });
      let asked = 0;
      const flooded = new DerivedFacts({
        store: p.services.derived,
        gates: new GateSet([]),
        shore: loadShore(),
        minSilenceMs: 6 * 3_600_000,
        portsVersion: async () => 1,
        now: () => t.clock.now(),
        ingestBacklog: () => ++asked,
      });
      try {
        await flooded.poll();
      } finally {
        flooded.close();
      }
      assert.ok(asked > 1, "the backlog was asked again while it lasted");
      const queued = await p.services.derived.queued(1);
      assert.deepEqual(queued, [], "every queued fix derived all the same");
      const calls = await p.services.derived.vesselCalls([mmsi], { visible: [station.id], from: 0, to: t.clock.now() + 1, after: null, limit: 10 });
      assert.deepEqual(calls.map((c) => c.unlocode), ["NLEUR"]);
    });
  });
}
