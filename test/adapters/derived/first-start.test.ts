/**
 * A first start: `serve` begins draining the derivation queue before it has imported the
 * bundled ports. Fixes that arrive meanwhile must wait for the ports, not be judged "at sea"
 * and lost; and port areas imported later (here, or by another process) are used at once.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { DerivedFix } from "../../../src/domain/derived/fix.ts";
import { importDataset } from "../../../src/adapters/importers/datasets.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { sailVoyage } from "../../helpers/voyage.ts";
import { positionLine, stationFor } from "../../helpers/ingest.ts";

const SEA: [number, number] = [3.7, 52.05];
const MOUTH: [number, number] = [4.02, 51.985];
const BERTH: [number, number] = [4.483333, 51.9];

for (const engine of ENGINES) {
  describe(`derivation on a first start, before the ports are imported (${engine})`, () => {
    let t: TestService;
    before(async () => {
      // An empty store: no dataset imported yet, as on a newcomer's first `npm start`.
      t = await startTestService({ engine, withData: false });
    });
    after(() => t.close());

    it("a 3-hour stop at NLRTM sent before the ports are in becomes a port call once they are, with no restart", async () => {
      const a = await stationFor(t, "pro", "first start");
      const v = sailVoyage([{ sail: MOUTH, knots: 14 }, { sail: BERTH, knots: 9 }, { stop: 3, port: "NLRTM" }, { sail: MOUTH, knots: 10 }, { sail: SEA, knots: 14 }], {
        mmsi: 244_100_077,
        stationId: a.id,
        start: t.clock.now() - 8 * 3_600_000,
        from: SEA,
      });
      const lines = v.fixes.map((f: DerivedFix) => positionLine({ mmsi: f.mmsi, lat: f.lat, lon: f.lon, sog: f.sog ?? 0, navStatus: f.navStatus ?? 15 }, Math.floor(f.time / 1000) * 1000));
      const station = (await t.service.ingest.directory.byId(a.id))!;
      // One POST's worth, as the newcomer sends it.
      const r = t.service.ingest.pipeline.submit(station, lines, { source: "test", transport: "http" });
      await t.service.ingest.pipeline.flush();
      await r.stored;
      const queued = async () => Number((await t.service.store.db.selectFrom("derived_feed").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
      const stored = await queued();
      assert.ok(stored > 300, `${stored} fixes queued`);
      await t.service.derived!.poll();
      assert.equal(await queued(), stored, "no fix is consumed while the port areas are not loaded");
      const calls = async () => (await t.service.app.inject({ method: "GET", url: "/api/v1/vessels/mmsi-244100077/port-calls", headers: { authorization: `Bearer ${a.key}` } })).json();
      const early = await calls();
      assert.ok(!(early.data?.length > 0), `no call yet: ${JSON.stringify(early)}`);

      // `serve` imports the bundled ports after the drain started; the runtime sees the new version at its next look.
      await importDataset(t.service, "ports", undefined, { progress: false });
      // The retry is a timer (1 s); wait for its effect in the store, not for a fixed time, then ask once.
      const derivedCalls = async () => Number((await t.service.store.db.selectFrom("port_calls").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
      for (let i = 0; i < 200 && (await derivedCalls()) === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await t.service.derived!.idle();
      }
      const answer = await calls();
      assert.equal(answer.data?.length, 1, JSON.stringify(answer));
      assert.equal(answer.data[0].port.unlocode, "NLRTM");
      assert.equal(await queued(), 0);
    });
  });
}
