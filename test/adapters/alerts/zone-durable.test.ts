/**
 * Zone alerts survive a crash and a restart (issue 18, item 7). Ingest acknowledges a fix
 * once its batch is committed; the zone evaluation runs after that. A process that stops
 * in between must not lose the entry, and a restarted process must remember which vessel
 * is inside which zone: no second entry for a vessel already inside, and an entry for one
 * whose last position before the restart was outside.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { validatePolygon } from "../../../src/domain/alerts/geometry.ts";
import { ZoneTracker } from "../../../src/domain/alerts/zone-tracker.ts";
import { createService, type Service } from "../../../src/main.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { positionLine, stationFor } from "../../helpers/ingest.ts";

const HARBOUR = {
  type: "Polygon",
  coordinates: [
    [
      [24.9, 60.1],
      [25.0, 60.1],
      [25.0, 60.2],
      [24.9, 60.2],
      [24.9, 60.1],
    ],
  ],
};
// Either side of the zone edge at 24.9 E, 0.6 nm apart: a step a ship can sail in the 10 s between fixes.
const OUT = 24.89;
const IN = 24.91;

describe("zone tracker state, saved and restored", () => {
  it("hands out new and moved vessels once, and a restored tracker continues the hysteresis where the saved one stopped", () => {
    const a = new ZoneTracker();
    a.observe(1, 1000, [], 0); // seen outside
    a.observe(2, 1000, [7], 0); // first seen inside
    a.observe(2, 1010, [7], 0); // still inside: nothing new to save
    const first = a.changes();
    assert.deepEqual(first.save.map((v) => [v.mmsi, v.zones]).sort(), [
      [1, null],
      [2, [[7, "inside"]]],
    ]);
    assert.deepEqual(a.changes(), { save: [], forget: [] }, "handed out once");

    const b = new ZoneTracker();
    for (const v of first.save) b.restore(v);
    assert.deepEqual(b.observe(1, 1020, [7], 0), [], "one fix inside is not yet an entry");
    assert.deepEqual(b.observe(1, 1030, [7], 0), [7], "the vessel saved as outside enters");
    assert.deepEqual(b.observe(2, 1020, [], 0), []);
    assert.deepEqual(b.observe(2, 1030, [7], 0), [], "a one-fix excursion of a vessel saved as inside is no entry");
    assert.equal(b.prune(1), 2);
    assert.deepEqual(b.changes().forget.sort(), [1, 2], "forgotten vessels are handed out to be deleted");
  });
});

for (const engine of ENGINES) {
  describe(`durable zone alerts (${engine})`, () => {
    const opened: Service[] = [];
    const tests: TestService[] = [];
    after(async () => {
      for (const s of opened) await s.close();
      for (const t of tests) await t.close();
    });

    /** A service with one account, its station and a zone; fixes are stamped from `start` on, 10 s apart. */
    const setup = async () => {
      const t = await startTestService({ engine, withData: false });
      tests.push(t);
      const a = await stationFor(t, "pro", "roof");
      const g = validatePolygon(HARBOUR);
      assert.ok(g.ok);
      await t.service.services.alerts.addZone(a.accountId, { name: "Harbour", geometry: g.polygon, bbox: g.bbox }, 10, t.clock.now());
      await t.service.alerts.zones!.accountChanged(a.accountId);
      let at = Math.floor(t.clock.now() / 1000) - 300;
      /** Submits fixes of vessels through the real pipeline, waits until they are acknowledged (committed). */
      const ingest = async (service: Service, fixes: [mmsi: number, lon: number][]) => {
        const station = (await service.ingest.directory.byId(a.id))!;
        const lines = fixes.map(([mmsi, lon]) => positionLine({ mmsi, lat: 60.15, lon }, (at += 10) * 1000));
        const r = service.ingest.pipeline.submit(station, lines, { source: "test", transport: "http" });
        await service.ingest.pipeline.flush();
        await r.stored;
      };
      /** The same store opened by a new process, as after a restart; it evaluates what is queued. */
      const reopen = async () => {
        const s = await createService(t.service.config, { clock: t.clock });
        opened.push(s);
        await s.alerts.zones!.idle();
        return s;
      };
      const entries = async (mmsi: number) => {
        const rows = await t.service.store.db.selectFrom("alerts").select("detail").where("account_id", "=", a.accountId).where("type", "=", "zone_enter").execute();
        return rows.filter((r) => (JSON.parse(r.detail) as { mmsi: number }).mmsi === mmsi).length;
      };
      return { t, ingest, reopen, entries };
    };

    it("a crash between the ingest acknowledgement and the zone evaluation still raises the entry, exactly once", async () => {
      const { t, ingest, reopen, entries } = await setup();
      // The process "dies" right after the batch is committed: its evaluator never sees it.
      t.service.ingest.pipeline.onPositions = null;
      await ingest(t.service, [
        [230100001, OUT],
        [230100001, OUT],
        [230100001, IN],
        [230100001, IN],
      ]);
      await t.service.alerts.zones!.idle();
      assert.equal(await entries(230100001), 0, "nothing was evaluated before the crash");

      const restarted = await reopen();
      assert.equal(await entries(230100001), 1, "the restarted process raises the entry from the queued fixes");
      // A further restart finds nothing left to evaluate, and the vessel is still inside.
      const again = await reopen();
      await ingest(again, [[230100001, IN]]);
      await again.alerts.zones!.idle();
      await restarted.alerts.zones!.poll();
      assert.equal(await entries(230100001), 1, "exactly once");
    });

    it("two ingest processes hearing the same vessel raise its entry once", async () => {
      const { t, ingest, reopen, entries } = await setup();
      const a = t.service;
      const b = await reopen();
      // Both processes hear the vessel outside: each holds it outside in its trackers.
      await ingest(a, [[230300001, OUT]]);
      await a.alerts.zones!.idle();
      await ingest(b, [[230300001, OUT]]);
      await b.alerts.zones!.idle();
      // A hears it enter; then B, whose trackers still hold it outside, hears it inside.
      await ingest(a, [
        [230300001, IN],
        [230300001, IN],
      ]);
      await a.alerts.zones!.idle();
      assert.equal(await entries(230300001), 1);
      await ingest(b, [
        [230300001, IN],
        [230300001, IN],
      ]);
      await b.alerts.zones!.idle();
      await a.alerts.zones!.poll();
      assert.equal(await entries(230300001), 1, "the second process evaluates on the first one's state, not its own stale copy");
    });

    it("which vessel is inside which zone survives a restart", async () => {
      const { t, ingest, reopen, entries } = await setup();
      // Before the restart: 230200001 enters (one alert); 230200002 is heard outside.
      await ingest(t.service, [
        [230200001, OUT],
        [230200001, IN],
        [230200001, IN],
        [230200002, OUT],
      ]);
      await t.service.alerts.zones!.idle();
      assert.equal(await entries(230200001), 1);
      t.service.ingest.pipeline.onPositions = null;

      const restarted = await reopen();
      // After it: 230200001 makes a one-fix excursion out and back, which is no new entry for a
      // vessel known to be inside; 230200002, known to be outside, enters.
      await ingest(restarted, [
        [230200001, OUT],
        [230200001, IN],
        [230200001, IN],
        [230200002, IN],
        [230200002, IN],
      ]);
      await restarted.alerts.zones!.idle();
      assert.equal(await entries(230200001), 1, "no second entry for a vessel inside before the restart");
      assert.equal(await entries(230200002), 1, "an entry for a vessel outside before the restart");
    });
  });
}
