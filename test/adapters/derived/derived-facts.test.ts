/**
 * Derived facts end to end: positions through the real ingest pipeline, port calls and
 * chokepoint transits out of the API (REST and the vessel page), privacy by station,
 * signed alert.port_call deliveries, and a recompute giving the live result.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { DerivedFix } from "../../../src/domain/derived/fix.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { sailVoyage } from "../../helpers/voyage.ts";
import { positionLine, staticLines, stationFor } from "../../helpers/ingest.ts";
import { HOOK_HOST, type Receiver, startReceiver, transportFor, verifyReceived } from "../../helpers/webhooks.ts";

const MIN = 60_000;
const SEA: [number, number] = [3.7, 52.05];
const MOUTH: [number, number] = [4.02, 51.985];
const BERTH: [number, number] = [4.483333, 51.9];

describe("derived facts", () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver("127.0.0.13");
  });
  after(() => receiver.close());

  for (const engine of ENGINES) {
    describe(engine, () => {
      let t: TestService;
      before(async () => {
        t = await startTestService({ engine, webhooks: { transport: transportFor("127.0.0.13") } });
      });
      after(() => t.close());
      const api = async (key: string, method: string, url: string, body?: unknown) => {
        const res = await t.service.app.inject({ method: method as "GET", url, headers: { authorization: `Bearer ${key}` }, ...(body !== undefined ? { payload: body as object } : {}) });
        return { status: res.statusCode, body: res.json() as Record<string, any> };
      };
      const lines = (fixes: readonly DerivedFix[]) => fixes.map((f) => positionLine({ mmsi: f.mmsi, lat: f.lat, lon: f.lon, sog: f.sog ?? 0, navStatus: f.navStatus ?? 15 }, Math.floor(f.time / 1000) * 1000));
      /** Lines through the real ingest pipeline as the station's, in batches as a station sends them; then derivation and delivery. */
      const ingest = async (stationId: number, all: string[]) => {
        const station = (await t.service.ingest.directory.byId(stationId))!;
        for (let at = 0; at < all.length; at += 200) {
          const r = t.service.ingest.pipeline.submit(station, all.slice(at, at + 200), { source: `test-${stationId}`, transport: "http" });
          await t.service.ingest.pipeline.flush();
          await r.stored;
        }
        await t.service.derived!.idle();
        await t.service.webhooks.worker.runDue();
      };
      const path = (p: string) => `/${engine}/derived/${p}`;
      const got = (p: string) => receiver.received.filter((r) => r.url === path(p));

      it("a three-hour stop at Rotterdam is one call, arrival and departure within 15 minutes; followers of the ship and of the port get signed alert.port_call", async () => {
        const a = await stationFor(t, "pro", "maas");
        const hook = await api(a.key, "POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}:8443${path("calls")}` });
        assert.equal(hook.status, 200);
        assert.equal((await api(a.key, "POST", "/api/v1/account/follows", { mmsi: "244100001" })).status, 200);
        const b = await stationFor(t, "pro", "other");
        const portHook = await api(b.key, "POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}:8443${path("port")}` });
        assert.equal((await api(b.key, "POST", "/api/v1/account/follows", { unlocode: "NLRTM" })).status, 200);

        const start = t.clock.now() - 11 * 3_600_000;
        const v = sailVoyage(
          [{ sail: MOUTH, knots: 14 }, { sail: [4.3, 51.905], knots: 10 }, { sail: BERTH, knots: 8 }, { stop: 3, port: "NLRTM" }, { sail: [4.3, 51.905], knots: 8 }, { sail: MOUTH, knots: 10 }, { sail: SEA, knots: 14 }],
          { mmsi: 244_100_001, stationId: a.id, start, from: SEA },
        );
        await ingest(a.id, [...staticLines({ mmsi: 244_100_001, imo: 9_074_729, shipname: "MAAS TRADER", shipType: 70 }), ...lines(v.fixes)]);

        const calls = await api(a.key, "GET", "/api/v1/vessels/mmsi-244100001/port-calls");
        assert.equal(calls.status, 200, JSON.stringify(calls.body));
        assert.equal(calls.body.data.length, 1, JSON.stringify(calls.body.data));
        const c = calls.body.data[0];
        const truth = v.stops[0]!;
        assert.equal(c.port.unlocode, "NLRTM");
        assert.equal(c.port.name, "Rotterdam");
        assert.deepEqual([c.vessel.mmsi, c.vessel.imo, c.vessel.name], [244_100_001, 9_074_729, "MAAS TRADER"]);
        assert.ok(Math.abs(Date.parse(c.arrival) - truth.from) <= 15 * MIN, `arrival ${c.arrival}`);
        assert.ok(Math.abs(Date.parse(c.departure) - truth.to) <= 15 * MIN, `departure ${c.departure}`);
        assert.ok(c.durationHours > 2.7 && c.durationHours < 3.3);
        assert.equal(c.method, "port_call.stop_in_area");
        assert.equal(c.confidence.level, 4);
        assert.deepEqual(c.sources, [`station:${a.id}`]);

        // The port's calls and the vessel page show the same call.
        const atPort = await api(a.key, "GET", "/api/v1/ports/nlrtm/calls");
        assert.deepEqual(atPort.body.data.map((x: any) => x.arrival), [c.arrival]);
        const page = await api(a.key, "GET", "/api/v1/vessels/mmsi-244100001");
        assert.deepEqual(page.body.data.portCalls, [{ unlocode: "NLRTM", arrival: c.arrival, departure: c.departure, source: `station:${a.id}` }]);
        const portPage = await api(a.key, "GET", "/api/v1/ports/NLRTM");
        assert.deepEqual(portPage.body.data.recentCalls, [{ vessel: { mmsi: 244_100_001 }, arrival: c.arrival, departure: c.departure, source: `station:${a.id}` }]);
        // Another account does not see the private station's call on the port page.
        assert.deepEqual((await api(b.key, "GET", "/api/v1/ports/NLRTM")).body.data.recentCalls, []);

        // The follower of the ship: arrival and departure, signed.
        const mine = got("calls").map((r) => verifyReceived(r, hook.body.data.secret, t.clock.now()) as Record<string, any>);
        assert.deepEqual(mine.map((b) => [b.type, b.data.alert.fact.event]), [["alert.port_call", "arrival"], ["alert.port_call", "departure"]]);
        const arrival = mine[0]!.data.alert;
        assert.equal(arrival.derived, true);
        assert.equal(arrival.subject.mmsi, 244_100_001);
        assert.equal(arrival.subject.unlocode, "NLRTM");
        assert.deepEqual(arrival.fact.port, { unlocode: "NLRTM", name: "Rotterdam" });
        assert.equal(arrival.fact.call.arrival, c.arrival);
        assert.match(arrival.text, /MAAS TRADER .* arrived at Rotterdam \(NLRTM\)/);
        // The port's follower is another account; account a's station is private, so nothing reaches it.
        assert.equal(got("port").length, 0);
        void portHook;

        // Shared, the same station's next call reaches the port's follower: an arrival only.
        await t.service.services.stations.updateStation(a.id, { shared: true, redistribution: true, commercial: true });
        t.service.ingest.directory.forget();
        const later = sailVoyage([{ sail: MOUTH, knots: 14 }, { sail: BERTH, knots: 9 }, { stop: 2 }], { mmsi: 244_100_002, stationId: a.id, start: t.clock.now() - 5 * 3_600_000, from: SEA });
        await ingest(a.id, lines(later.fixes));
        const theirs = got("port").map((r) => verifyReceived(r, portHook.body.data.secret, t.clock.now()) as Record<string, any>);
        assert.deepEqual(theirs.map((b) => [b.type, b.data.alert.fact.event, b.data.alert.subject.mmsi]), [["alert.port_call", "arrival", 244_100_002]]);
        await t.service.services.stations.updateStation(a.id, { shared: false });
        t.service.ingest.directory.forget();
      });

      it("two ships meeting 3 h at sea: the follower of one gets a signed alert.encounter naming the other; a zone of another account over a private station's meeting gets nothing, over a shared one both ships", async () => {
        const a = await stationFor(t, "pro", "north sea");
        const hook = await api(a.key, "POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}:8443${path("encounter")}` });
        assert.equal((await api(a.key, "POST", "/api/v1/account/follows", { mmsi: "244100031" })).status, 200);
        const b = await stationFor(t, "pro", "watcher");
        const zoneHook = await api(b.key, "POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}:8443${path("encounter-zone")}` });
        const box = { type: "Polygon", coordinates: [[[2.3, 55.4], [2.7, 55.4], [2.7, 55.6], [2.3, 55.6], [2.3, 55.4]]] };
        assert.equal((await api(b.key, "POST", "/api/v1/account/zones", { name: "Dogger", geometry: box })).status, 200);
        const meet = (mmsi: number, from: [number, number], to: [number, number], start: number) =>
          sailVoyage([{ sail: [2.5, 55.5], knots: 12 }, { stop: 3, navStatus: 0 }, { sail: to, knots: 12 }], { mmsi, stationId: a.id, start, from }).fixes;
        const start = t.clock.now() - 8 * 3_600_000;
        const both = (m1: number, m2: number, at: number) => [...meet(m1, [2.0, 55.5], [3.0, 55.5], at), ...meet(m2, [3.0, 55.5], [2.0, 55.5], at)].sort((x, y) => x.time - y.time);
        await ingest(a.id, lines(both(244_100_031, 244_100_032, start)));

        const mine = got("encounter").map((r) => verifyReceived(r, hook.body.data.secret, t.clock.now()) as Record<string, any>);
        assert.deepEqual(mine.map((m) => [m.type, m.data.alert.subject.mmsi, m.data.alert.fact.event.counterpartMmsi]), [["alert.encounter", 244_100_031, 244_100_032]]);
        const alert = mine[0]!.data.alert;
        assert.equal(alert.derived, true);
        assert.equal(alert.fact.method, "encounter.close_and_slow");
        assert.ok(alert.fact.event.details.hours >= 2.8, JSON.stringify(alert.fact.event));
        assert.match(alert.text, /met MMSI 244100032 at sea/);
        assert.equal(got("encounter-zone").length, 0, "another account's zone learns nothing of a private station's ships");

        // Shared, the same station's next meeting reaches the zone's owner: one alert per ship.
        await t.service.services.stations.updateStation(a.id, { shared: true, redistribution: true, commercial: true });
        t.service.ingest.directory.forget();
        await ingest(a.id, lines(both(244_100_033, 244_100_034, t.clock.now() - 7 * 3_600_000)));
        // (Entering the zone raises its own alert.zone_enter as well.)
        const theirs = got("encounter-zone")
          .map((r) => verifyReceived(r, zoneHook.body.data.secret, t.clock.now()) as Record<string, any>)
          .filter((m) => m.type === "alert.encounter");
        assert.deepEqual(theirs.map((m) => m.data.alert.subject.mmsi).sort(), [244_100_033, 244_100_034]);
        assert.ok(theirs.every((m) => m.data.alert.zone.name === "Dogger"));
        await t.service.services.stations.updateStation(a.id, { shared: false });
        t.service.ingest.directory.forget();
      });

      it("a ship silent 11 h while the station hears another beside it has an open AIS gap and its follower a signed alert.ais_gap at once; heard again, the gap closes under the same id with no second alert; back 1,230 km away, the open gap is withdrawn", async () => {
        const a = await stationFor(t, "pro", "dark");
        const hook = await api(a.key, "POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}:8443${path("gap")}` });
        assert.equal((await api(a.key, "POST", "/api/v1/account/follows", { mmsi: "244100041" })).status, 200);
        const now = t.clock.now();
        const gaps = async (mmsi: string) => (await api(a.key, "GET", `/api/v1/vessels/mmsi-${mmsi}/events?type=ais_gap`)).body.data as Record<string, any>[];
        const fix = (mmsi: number, time: number, lat: number, lon: number, sog: number): DerivedFix => ({ mmsi, time, stationId: a.id, lat, lon, sog, navStatus: sog > 0 ? 0 : 1 });
        // Two ships sail east at about 10 kn for an hour, then go dark; a third lies beside them, heard all along.
        const sailing = (mmsi: number, lat: number) => Array.from({ length: 12 }, (_, i) => fix(mmsi, now - 12 * 3_600_000 + i * 5 * MIN, lat, 2.0 + i * 0.025, 10));
        const lying = Array.from({ length: 72 }, (_, i) => fix(244_100_043, now - 12 * 3_600_000 + i * 10 * MIN, 56.52, 2.35, 0));
        await ingest(a.id, lines([...sailing(244_100_041, 56.5), ...sailing(244_100_042, 56.54), ...lying].sort((x, y) => x.time - y.time)));
        assert.deepEqual(await gaps("244100041"), [], "no gap before the sweep judges the silence");
        await t.service.derived!.sweepOpenGaps();
        await t.service.webhooks.worker.runDue();

        const open = await gaps("244100041");
        assert.equal(open.length, 1, JSON.stringify(open));
        assert.equal(open[0]!.end, null, "open while the ship is silent");
        assert.equal(open[0]!.start, new Date(now - 12 * 3_600_000 + 55 * MIN).toISOString());
        assert.equal((await gaps("244100042")).length, 1);
        const alerts = () => got("gap").map((r) => verifyReceived(r, hook.body.data.secret, t.clock.now()) as Record<string, any>).filter((m) => m.type === "alert.ais_gap");
        assert.deepEqual(alerts().map((m) => [m.data.alert.subject.mmsi, m.data.alert.fact.event.end]), [[244_100_041, null]]);
        assert.match(alerts()[0]!.data.alert.text, /has not been heard for over 11(\.\d)? h while ships near it were/);
        // A recompute at the same moment finds the same open gaps.
        const { recomputeDerived } = await import("../../../src/cli/derive.ts");
        await recomputeDerived(t.service, {});
        assert.deepEqual(await gaps("244100041"), open);

        // An hour later one is heard again close by, the other 1,230 km away (55 kn since: two ships on one MMSI, or a bad position, not a gap).
        t.clock.t += 3_600_000;
        await ingest(a.id, lines([fix(244_100_041, t.clock.now() - MIN, 56.5, 2.4, 10), fix(244_100_042, t.clock.now() - MIN, 67.6, 2.4, 10)]));
        const closed = await gaps("244100041");
        assert.equal(closed.length, 1);
        assert.equal(closed[0]!.id, open[0]!.id, "the closed gap replaces the open one");
        assert.equal(closed[0]!.end, new Date(t.clock.now() - MIN).toISOString());
        assert.ok(closed[0]!.details.impliedKnots > 0 && closed[0]!.details.impliedKnots < 2, JSON.stringify(closed[0]!.details));
        assert.deepEqual(await gaps("244100042"), [], "a silence that proves no gap withdraws the open one");
        await t.service.webhooks.worker.runDue();
        assert.equal(got("gap").length, 1, "closing the gap raises no second alert");
        t.clock.t -= 3_600_000;
      });

      it("waterways lists the 28 PortWatch chokepoints and the extra gates, each with method, version, confidence and inputs", async () => {
        const k = await t.key("developer");
        const r = await api(k.key, "GET", "/api/v1/waterways");
        assert.equal(r.status, 200, JSON.stringify(r.body));
        const portwatch = r.body.data.filter((w: any) => w.portwatch !== null);
        assert.equal(portwatch.length, 28);
        assert.deepEqual(portwatch.map((w: any) => w.id), Array.from({ length: 28 }, (_, i) => `chokepoint${i + 1}`));
        assert.equal(portwatch[8].name, "Dover Strait");
        assert.ok(r.body.data.some((w: any) => w.id === "kiel-canal" && w.portwatch === null));
        for (const w of r.body.data) {
          assert.equal(w.method, "chokepoint_transit.gate_crossing");
          assert.match(w.version, /^\d+\.\d+\.\d+$/);
          assert.ok(["high", "medium", "low", "none"].includes(w.confidence.level));
          assert.ok(Array.isArray(w.inputs.sources));
          assert.equal(w.gate.type, "LineString");
          assert.match(w.page, new RegExp(`/waterway/${w.id}-[a-z0-9-]+$`));
        }
        assert.equal(portwatch[8].page.split("/waterway/")[1], "chokepoint9-dover-strait");
        // PortWatch's names and points are its facts: named as a source, with the attribution its licence asks for.
        assert.ok(r.body.sources.includes("portwatch"), JSON.stringify(r.body.sources));
        assert.ok(r.body.attribution.some((a: string) => /IMF PortWatch/.test(a)), JSON.stringify(r.body.attribution));
        assert.ok(r.body.license.some((l: string) => /PortWatch/.test(l)), JSON.stringify(r.body.license));
        const series = await api(k.key, "GET", "/api/v1/waterways/chokepoint9/transits?days=1");
        assert.equal(series.body.name, "Dover Strait");
        assert.ok(series.body.sources.includes("portwatch") && series.body.attribution.some((a: string) => /IMF PortWatch/.test(a)));
        const kiel = await api(k.key, "GET", "/api/v1/waterways/kiel-canal/transits?days=1");
        assert.ok(!kiel.body.sources.includes("portwatch"), "an extra gate is the service's own, not PortWatch's");
      });

      it("a vessel from a shared station crossing the Dover gate is in every account's 24-hour count with its direction at once; a private station's is in its owner's only", async () => {
        const shared = await stationFor(t, "pro", "shared-dover");
        // Shared by its owner (`stations update --public`): any account may then see its data.
        await t.service.services.stations.updateStation(shared.id, { shared: true, redistribution: true, commercial: true });
        t.service.ingest.directory.forget();
        const privateOne = await stationFor(t, "pro", "private-dover");
        const other = await t.key("developer");
        const dover = async (key: string) => (await api(key, "GET", "/api/v1/waterways")).body.data.find((w: any) => w.id === "chokepoint9");
        const before24 = (await dover(other.key)).counts["24h"];

        const start = t.clock.now() - 2 * 3_600_000;
        const down = sailVoyage([{ sail: [1.2, 50.8], knots: 15 }], { mmsi: 235_200_001, stationId: shared.id, start, from: [2.0, 51.3] });
        await ingest(shared.id, [...staticLines({ mmsi: 235_200_001, shipname: "CHANNEL TANKER", shipType: 80 }), ...lines(down.fixes)]);
        const seen = (await dover(other.key)).counts["24h"];
        assert.equal(seen.total, before24.total + 1);
        assert.equal(seen.byDirection["southwest-bound"], before24.byDirection["southwest-bound"] + 1);
        assert.equal(seen.byCategory.tanker, before24.byCategory.tanker + 1);
        assert.ok((await dover(other.key)).inputs.sources.includes(`station:${shared.id}`));

        const up = sailVoyage([{ sail: [2.0, 51.3], knots: 15 }], { mmsi: 235_200_002, stationId: privateOne.id, start, from: [1.2, 50.8] });
        await ingest(privateOne.id, lines(up.fixes));
        const outsider = (await dover(other.key)).counts["24h"];
        assert.equal(outsider.total, seen.total, "another account never counts a private station's vessel");
        assert.ok(!(await dover(other.key)).inputs.sources.includes(`station:${privateOne.id}`));
        const owner = (await dover(privateOne.key)).counts["24h"];
        assert.equal(owner.total, seen.total + 1);
        assert.equal(owner.byDirection["northeast-bound"], seen.byDirection["northeast-bound"] + 1);

        // The daily series (the MCP tool's REST twin) has today's transit.
        const series = await api(other.key, "GET", "/api/v1/waterways/chokepoint9/transits?days=2");
        assert.equal(series.status, 200, JSON.stringify(series.body));
        assert.equal(series.body.data.series.length, 2);
        assert.ok(series.body.data.series.at(-1).total >= 1);
        assert.equal((await api(other.key, "GET", "/api/v1/waterways/chokepoint99/transits")).status, 404);
      });

      it("a commercial caller gets nothing computed from a shared station that withholds commercial use: no counts, no confidence, no crossings in inputs, each withheld naming it", async () => {
        const nc = await stationFor(t, "pro", "shared-noncommercial");
        await t.service.services.stations.updateStation(nc.id, { shared: true, redistribution: true, commercial: false });
        t.service.ingest.directory.forget();
        const start = t.clock.now() - 2 * 3_600_000;
        const down = sailVoyage([{ sail: [1.2, 50.8], knots: 15 }], { mmsi: 235_200_003, stationId: nc.id, start, from: [2.0, 51.3] });
        await ingest(nc.id, lines(down.fixes));
        const commercial = await t.key("developer");
        const r = await api(commercial.key, "GET", "/api/v1/waterways");
        const dover = r.body.data.find((w: any) => w.id === "chokepoint9");
        assert.ok(dover.inputs.sources.includes(`station:${nc.id}`), "the station is named as an input");
        assert.deepEqual([dover.counts, dover.confidence, dover.inputs.crossings, dover.inputs.unobserved], [null, null, null, null], JSON.stringify(dover));
        for (const section of ["counts", "confidence", "inputs"]) {
          assert.ok(
            r.body.withheld.some((w: any) => w.section === section && w.sources.includes(`station:${nc.id}`)),
            `${section} withheld naming the station: ${JSON.stringify(r.body.withheld)}`,
          );
        }
        const series = await api(commercial.key, "GET", "/api/v1/waterways/chokepoint9/transits?days=2");
        assert.deepEqual([series.body.data.series, series.body.data.confidence, series.body.data.inputs.crossings], [null, null, null]);
        // Its owner may use their own station's data commercially: everything is there.
        const own = (await api(nc.key, "GET", "/api/v1/waterways")).body.data.find((w: any) => w.id === "chokepoint9");
        assert.ok(own.counts !== null && own.confidence !== null && own.inputs.crossings >= 1, JSON.stringify(own));
      });

      it("another account never sees a private station's port calls", async () => {
        const a = await stationFor(t, "pro", "private-maas");
        const other = await t.key("scale");
        const v = sailVoyage([{ sail: MOUTH, knots: 14 }, { sail: BERTH, knots: 9 }, { stop: 4 }, { sail: SEA, knots: 14 }], { mmsi: 244_100_009, stationId: a.id, start: t.clock.now() - 9 * 3_600_000, from: SEA });
        await ingest(a.id, lines(v.fixes));
        assert.equal((await api(a.key, "GET", "/api/v1/port-calls?vessel=mmsi-244100009")).body.data.length, 1);
        assert.equal((await api(other.key, "GET", "/api/v1/port-calls?vessel=mmsi-244100009")).status, 404);
        const atPort = await api(other.key, "GET", "/api/v1/port-calls?port=NLRTM");
        assert.ok(!atPort.body.data.some((c: any) => c.vessel.mmsi === 244_100_009));
        assert.equal((await api(other.key, "GET", "/api/v1/port-calls?port=NLRTM&vessel=mmsi-244100009")).status, 400);
      });

      it("a recompute over history gives the calls and crossings live derivation gave", async () => {
        const read = async () => ({
          calls: (await t.service.store.db.selectFrom("port_calls").select(["id", "arrival", "departure", "confidence"]).orderBy("id").execute()).map((r) => [r.id, Number(r.arrival), r.departure === null ? null : Number(r.departure), r.confidence]),
          crossings: (await t.service.store.db.selectFrom("gate_crossings").select(["gate_id", "mmsi", "time", "direction", "observed"]).orderBy("gate_id").orderBy("time").execute()).map((r) => [r.gate_id, r.mmsi, Number(r.time), r.direction, r.observed]),
        });
        const live = await read();
        assert.ok(live.calls.length >= 3 && live.crossings.length >= 2);
        const { recomputeDerived } = await import("../../../src/cli/derive.ts");
        const r = await recomputeDerived(t.service, {});
        assert.ok(r.positions > 0);
        assert.deepEqual(await read(), live);
      });
    });
  }
});
