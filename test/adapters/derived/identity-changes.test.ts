/**
 * Identity changes recorded as ingest stores static reports (docs/vessel-events.md): a
 * changed name, call sign, type or IMO of one MMSI, an IMO newly claimed by a second MMSI
 * (an identity conflict), and nothing for a report that repeats or first fills a field.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { recomputeDerived } from "../../../src/cli/derive.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { positionLine, staticLines, stationFor, type TestStation } from "../../helpers/ingest.ts";
import { imoOf } from "../../helpers/vessels.ts";

for (const engine of ENGINES) {
  describe(`identity changes at ingest (${engine})`, () => {
    let t: TestService;
    let st: TestStation;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      st = await stationFor(t, "pro", "identity");
    });
    after(() => t.close());

    async function send(lines: string[]): Promise<void> {
      const station = (await t.service.ingest.directory.byId(st.id))!;
      const r = t.service.ingest.pipeline.submit(station, lines, { source: "test", transport: "http" });
      await t.service.ingest.pipeline.flush();
      await r.stored;
      t.clock.t += 60_000;
    }
    const changes = async (mmsi: number) =>
      (await t.service.store.db.selectFrom("vessel_events").selectAll().where("type", "=", "identity_change").where("mmsi", "=", mmsi).orderBy("start").execute()).map((r) => ({ ...r, ...JSON.parse(r.detail) }));

    it("a renamed ship: one change naming the old and new name, where it was; repeats and first-heard fields are no change", async () => {
      const imo = imoOf(931_001);
      await send([positionLine({ mmsi: 244_500_001, lat: 55.5, lon: 2.5 })]);
      await send(staticLines({ mmsi: 244_500_001, imo, shipname: "NORTHERN STAR" }));
      await send(staticLines({ mmsi: 244_500_001, imo, shipname: "NORTHERN STAR", callsign: "PABC" }));
      assert.deepEqual(await changes(244_500_001), [], "the same name again, and a call sign first heard");
      await send(staticLines({ mmsi: 244_500_001, imo, shipname: "SOUTHERN STAR", callsign: "PABC" }));
      const rows = await changes(244_500_001);
      assert.equal(rows.length, 1, JSON.stringify(rows));
      assert.deepEqual(rows[0]!.details, { field: "name", old: "NORTHERN STAR", new: "SOUTHERN STAR" });
      assert.deepEqual([rows[0]!.lat, rows[0]!.lon, rows[0]!.station_id], [55.5, 2.5, st.id]);
      await send(staticLines({ mmsi: 244_500_001, imo, shipname: "SOUTHERN STAR", callsign: "PABC" }));
      assert.equal((await changes(244_500_001)).length, 1);
    });

    it("a second MMSI claiming the same IMO within the hour: an identity conflict naming the first; after a day, a change of MMSI with both MIDs", async () => {
      const imo = imoOf(931_002);
      await send(staticLines({ mmsi: 244_500_011, imo, shipname: "TWIN" }));
      await send(staticLines({ mmsi: 636_500_012, imo, shipname: "TWIN" }));
      const conflict = await changes(636_500_012);
      assert.equal(conflict.length, 1, JSON.stringify(conflict));
      assert.deepEqual(conflict[0]!.details, { field: "imo", kind: "conflict", imo, otherMmsi: 244_500_011 });
      assert.equal(conflict[0]!.counterpart_mmsi, 244_500_011);
      t.clock.t += 86_400_000;
      await send(staticLines({ mmsi: 538_500_013, imo, shipname: "TWIN" }));
      const moved = (await changes(538_500_013)).map((r) => r.details);
      assert.deepEqual(moved.sort((a, b) => a.old - b.old), [
        { field: "mmsi", kind: "change", imo, old: 244_500_011, new: 538_500_013, oldMid: 244, newMid: 538 },
        { field: "mmsi", kind: "change", imo, old: 636_500_012, new: 538_500_013, oldMid: 636, newMid: 538 },
      ]);
    });

    it("the follower of a renamed ship gets alert.identity_change with the old and new name; another account's follow of the same ship, on a private station, gets nothing", async () => {
      const b = await t.key("pro", "other follower");
      for (const key of [st.key, b.key]) {
        const r = await t.service.app.inject({ method: "POST", url: "/api/v1/account/follows", headers: { authorization: `Bearer ${key}` }, payload: { mmsi: "244500021" } });
        assert.equal(r.statusCode, 200, r.body);
      }
      await send(staticLines({ mmsi: 244_500_021, imo: imoOf(931_003), shipname: "OLD NAME" }));
      await send(staticLines({ mmsi: 244_500_021, imo: imoOf(931_003), shipname: "NEW NAME" }));
      await t.service.derived!.idle();
      await t.service.derived!.poll();
      const alerts = await t.service.store.db.selectFrom("alerts").selectAll().where("type", "=", "identity_change").execute();
      assert.deepEqual(alerts.map((a) => a.account_id), [st.accountId], "the station's owner only: the other account cannot see this private station");
      const events = await t.service.store.db.selectFrom("webhook_events").selectAll().where("type", "=", "alert.identity_change").execute();
      assert.equal(events.length, 1);
      const body = JSON.parse(events[0]!.body);
      assert.match(body.data.alert.text, /changed its broadcast name from "OLD NAME" to "NEW NAME"/);
      assert.deepEqual(body.data.alert.fact.event.details, { field: "name", old: "OLD NAME", new: "NEW NAME" });
      assert.equal(Number((await t.service.store.db.selectFrom("identity_event_feed").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n), 0, "the queue is drained");
    });

    it("a recompute keeps them: they come from reports no recompute reads again", async () => {
      const before = await t.service.store.db.selectFrom("vessel_events").select("id").where("type", "=", "identity_change").execute();
      assert.ok(before.length >= 4);
      await recomputeDerived(t.service, {});
      const after = await t.service.store.db.selectFrom("vessel_events").select("id").where("type", "=", "identity_change").execute();
      assert.deepEqual(after.map((r) => r.id).sort(), before.map((r) => r.id).sort());
    });
  });
}
