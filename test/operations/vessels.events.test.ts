/**
 * Behaviour events served: a vessel's list (port calls among them), an area's list, and the
 * summary on the vessel answer, on both engines. Events are written by DerivedStore.commit
 * as live derivation writes them; paging, type and window filters, plan history, bad input
 * (400 naming the parameter, not charged), private stations and denied sources.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ENGINES, get } from "../helpers/service.ts";
import { commitEvents, portCall, vesselEvent } from "../helpers/events.ts";
import { DAY, HOUR, identity, startVesselService, station, used, type VesselTestService, writeTrack } from "../helpers/vessels.ts";

const SHIP = 244_300_001;
const OTHER = 244_300_002;
const OTHER_IMO = 9_074_729;
const iso = (t: number) => new Date(t).toISOString();

for (const engine of ENGINES) {
  describe(`vessel events (${engine})`, () => {
    let t: VesselTestService;
    let now: number;
    let scale: { key: string; keyId: string; accountId: string };
    let privateOwner: { key: string; id: number };
    let geocoded: { unlocode: string; lat: number; lon: number };
    const api = async (url: string, key = scale.key) => {
      const r = await get(t, url, key);
      return { status: r.status, body: r.body };
    };

    before(async () => {
      // Station 1 shared and cleared; station 2 shared but not cleared for the API; station 3 private.
      t = await startVesselService(engine, { deniedSources: ["station:2"] });
      now = t.clock.now();
      const s1 = await station(t, "pro", true);
      const s2 = await station(t, "pro", true);
      const s3 = await station(t, "pro", false);
      assert.deepEqual([s1.id, s2.id, s3.id], [1, 2, 3], "the sources file names station 2");
      privateOwner = { key: s3.key, id: s3.id };
      scale = await t.key("scale");
      await identity(t, { stationId: 1, mmsi: SHIP, name: "EVENT TESTER" });
      await identity(t, { stationId: 1, mmsi: OTHER, imo: OTHER_IMO, name: "MEETING PARTNER" });
      await writeTrack(t, 1, SHIP, now - 2 * HOUR, now, 30 * 60_000);
      const ports = await t.service.services.ports.list({ country: "US", limit: 100_000 });
      const g = ports.find((p) => p.coordSource === "geoapify" && p.lat !== null)!;
      geocoded = { unlocode: g.unlocode, lat: g.lat!, lon: g.lon! };
      await commitEvents(
        t,
        [
          vesselEvent({ type: "ais_gap", stationId: 1, mmsi: SHIP, start: now - 40 * DAY, details: { distanceKm: 120, impliedKnots: 5.4 } }),
          vesselEvent({ type: "loitering", stationId: 1, mmsi: SHIP, start: now - 5 * DAY, details: { medianKnots: 0.8 } }),
          vesselEvent({ type: "encounter", stationId: 1, mmsi: SHIP, start: now - 2 * DAY, counterpartMmsi: OTHER, details: { medianKnots: 1.1, minDistanceM: 180 } }),
          vesselEvent({ type: "encounter", stationId: 1, mmsi: OTHER, start: now - 2 * DAY, counterpartMmsi: SHIP, details: { medianKnots: 1.1, minDistanceM: 180 } }),
          vesselEvent({ type: "identity_change", stationId: 1, mmsi: SHIP, start: now - HOUR, end: now - HOUR, lat: 60.1, lon: 24.9, details: { field: "name", old: "EVENT TEST", new: "EVENT TESTER" } }),
          // A station the caller may see but not be shown: counted, never listed.
          vesselEvent({ type: "ais_gap", stationId: 2, mmsi: SHIP, start: now - 10 * HOUR, end: null }),
          // A private station: its owner's only, not even counted for anyone else.
          vesselEvent({ type: "loitering", stationId: 3, mmsi: SHIP, start: now - 6 * HOUR }),
        ],
        [
          portCall({ stationId: 1, mmsi: SHIP, unlocode: "NLRTM", arrival: now - 3 * DAY }),
          portCall({ stationId: 1, mmsi: SHIP, unlocode: geocoded.unlocode, arrival: now - 4 * DAY }),
        ],
      );
    });
    after(() => t.close());

    it("a vessel's events, oldest first, port calls among them, each with its station; the other station's counted in `withheld`", async () => {
      const r = await api(`/api/v1/vessels/mmsi-${SHIP}/events?from=${iso(now - 60 * DAY)}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.type, "vessel_events");
      assert.deepEqual(
        r.body.data.map((e: any) => [e.type, e.start]),
        [
          ["ais_gap", iso(now - 40 * DAY)],
          ["port_call", iso(now - 4 * DAY)],
          ["port_call", iso(now - 3 * DAY)],
          ["loitering", iso(now - 5 * DAY)],
          ["encounter", iso(now - 2 * DAY)],
          ["identity_change", iso(now - HOUR)],
        ].sort((a, b) => a[1]!.localeCompare(b[1]!)),
      );
      assert.deepEqual(r.body.withheld.filter((w: any) => w.section === "events"), [{ section: "events", sources: ["station:2"], rows: 1, reason: "source_not_licensed_for_api" }]);
      assert.ok(r.body.sources.includes("station:1") && !r.body.sources.includes("station:2") && !r.body.sources.includes("station:3"));
      const encounter = r.body.data.find((e: any) => e.type === "encounter");
      assert.deepEqual(encounter.counterpart, { mmsi: OTHER, imo: OTHER_IMO, name: "MEETING PARTNER" });
      assert.deepEqual(encounter.vessel, { imo: null, mmsi: SHIP, name: "EVENT TESTER" });
      assert.deepEqual(encounter.position, { lat: 59.5, lon: 20.5, source: "station:1" });
      assert.deepEqual([encounter.method, encounter.version, encounter.confidence], ["encounter.test", "1.0.0", 0.9]);
      assert.deepEqual(encounter.inputs, { positions: 40, maxGapMinutes: 6, sources: ["station:1"] });
      assert.deepEqual(encounter.details, { medianKnots: 1.1, minDistanceM: 180 });
      assert.equal(encounter.end, iso(now - 2 * DAY + 3 * HOUR));
      assert.ok(!("counterpart" in r.body.data.find((e: any) => e.type === "loitering")));
      const rotterdam = r.body.data.find((e: any) => e.type === "port_call" && e.details.unlocode === "NLRTM");
      assert.equal(rotterdam.end, iso(now - 3 * DAY + 5 * HOUR));
      assert.equal(rotterdam.method, "port_call.stop_in_area");
      assert.deepEqual([rotterdam.confidence, rotterdam.details.confidenceLevel, rotterdam.details.portName, rotterdam.details.durationHours], [1, 4, "Rotterdam", 5]);
      assert.ok(rotterdam.position && typeof rotterdam.position.lat === "number", JSON.stringify(rotterdam.position));
    });

    it("a port call at a port whose coordinates are geocoded keeps its row, its position withheld naming the geocoder", async () => {
      const r = await api(`/api/v1/vessels/mmsi-${SHIP}/events?type=port_call`);
      const call = r.body.data.find((e: any) => e.details.unlocode === geocoded.unlocode);
      assert.equal(call.position, null);
      assert.ok(r.body.withheld.some((w: any) => w.section === "events.position" && w.sources.includes("geoapify")), JSON.stringify(r.body.withheld));
    });

    it("pages by cursor through port calls and events alike, each row once, 1 credit a page", async () => {
      const all = (await api(`/api/v1/vessels/mmsi-${SHIP}/events?from=${iso(now - 60 * DAY)}`)).body.data.map((e: any) => `${e.type}@${e.start}`);
      const seen: string[] = [];
      let withheld = 0;
      let url: string | null = `/api/v1/vessels/mmsi-${SHIP}/events?from=${iso(now - 60 * DAY)}&limit=2`;
      let pages = 0;
      const before = await used(t, scale);
      while (url) {
        const r = await api(url);
        assert.equal(r.status, 200, JSON.stringify(r.body));
        seen.push(...r.body.data.map((e: any) => `${e.type}@${e.start}`));
        withheld += r.body.withheld.filter((w: any) => w.section === "events").reduce((n: number, w: any) => n + w.rows, 0);
        url = r.body.next ? new URL(r.body.next).pathname + new URL(r.body.next).search : null;
        pages++;
      }
      assert.deepEqual(seen, all);
      assert.equal(withheld, 1, "the withheld event is counted on the page it falls in");
      assert.equal(pages, 4, "seven rows read, two a page: the withheld one takes its place in a page");
      assert.equal((await used(t, scale)) - before, pages);
    });

    it("filters by type, and by window within the plan's history", async () => {
      const r = await api(`/api/v1/vessels/mmsi-${SHIP}/events?type=encounter,ais_gap&from=${iso(now - 60 * DAY)}`);
      assert.deepEqual(r.body.data.map((e: any) => e.type), ["ais_gap", "encounter"]);
      const calls = await api(`/api/v1/vessels/mmsi-${SHIP}/events?type=port_call`);
      assert.deepEqual(calls.body.data.map((e: any) => e.type), ["port_call", "port_call"]);
      assert.deepEqual(calls.body.withheld.filter((w: any) => w.section === "events"), [], "no event of another type is counted");
      // Default: the last 30 days.
      const recent = await api(`/api/v1/vessels/mmsi-${SHIP}/events`);
      assert.ok(!recent.body.data.some((e: any) => e.type === "ais_gap"));
      const window = await api(`/api/v1/vessels/mmsi-${SHIP}/events?from=${iso(now - 3 * DAY)}&to=${iso(now - DAY)}`);
      assert.deepEqual(window.body.data.map((e: any) => e.type), ["port_call", "encounter"]);

      // A sandbox key sees the last 24 hours only; older windows are refused, naming `from`.
      const sandbox = await t.key("sandbox");
      const day = await api(`/api/v1/vessels/mmsi-${SHIP}/events`, sandbox.key);
      assert.deepEqual(day.body.data.map((e: any) => e.type), ["identity_change"]);
      const older = await api(`/api/v1/vessels/mmsi-${SHIP}/events?from=${iso(now - 5 * DAY)}`, sandbox.key);
      assert.equal(older.status, 403, JSON.stringify(older.body));
      assert.deepEqual([older.body.error.code, older.body.error.param], ["plan_lacks_feature", "from"]);
      // Developer: 30 days of history; 40 days back is refused.
      const developer = await t.key("developer");
      assert.equal((await api(`/api/v1/vessels/mmsi-${SHIP}/events?from=${iso(now - 29 * DAY)}`, developer.key)).status, 200);
      assert.equal((await api(`/api/v1/vessels/mmsi-${SHIP}/events?from=${iso(now - 40 * DAY)}`, developer.key)).body.error.code, "plan_lacks_feature");
    });

    it("bad input is a 400 naming the parameter and its rule, and costs nothing", async () => {
      const before = await used(t, scale);
      const cases: [string, string, RegExp][] = [
        [`/api/v1/vessels/mmsi-${SHIP}/events?type=meeting`, "type", /port_call, encounter, loitering, ais_gap, identity_change/],
        [`/api/v1/vessels/mmsi-${SHIP}/events?type=,`, "type", /at least one type/],
        [`/api/v1/vessels/mmsi-${SHIP}/events?from=${iso(now - DAY)}&to=${iso(now - 2 * DAY)}`, "from", /before `to`/],
        [`/api/v1/vessels/mmsi-${SHIP}/events?limit=101`, "limit", /1 to 100/],
        [`/api/v1/vessels/mmsi-${SHIP}/events?cursor=nonsense`, "cursor", /cursor/],
        [`/api/v1/events?bbox=garbage`, "bbox", /minLon,minLat,maxLon,maxLat/],
        [`/api/v1/events?bbox=20,59,19,60`, "bbox", /minimum below its maximum/],
        [`/api/v1/events?bbox=19,59,21,95`, "bbox", /latitudes -90..90/],
        [`/api/v1/events?bbox=19,59,21`, "bbox", /four numbers/],
        [`/api/v1/events?bbox=1e2,59,21,60`, "bbox", /decimal degrees/],
        [`/api/v1/events`, "bbox", /./],
        [`/api/v1/events?bbox=19,59,21,60&type=port_calls`, "type", /comma list/],
        [`/api/v1/events?bbox=19,59,21,60&from=${iso(now)}&to=${iso(now - HOUR)}`, "from", /before/],
      ];
      for (const [url, param, rule] of cases) {
        const r = await api(url);
        assert.equal(r.status, 400, `${url}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.error.code, "invalid_parameter", url);
        assert.equal(r.body.error.param, param, url);
        assert.match(JSON.stringify(r.body.error), rule, url);
      }
      assert.equal((await api(`/api/v1/vessels/mmsi-244399999/events`)).status, 404);
      assert.equal(await used(t, scale), before, "no bad call was charged");
    });

    it("a private station's events reach its owner and no other account, not even as a count", async () => {
      const owner = await api(`/api/v1/vessels/mmsi-${SHIP}/events?type=loitering`, privateOwner.key);
      assert.deepEqual(owner.body.data.map((e: any) => [e.type, e.sources]), [["loitering", ["station:1"]], ["loitering", [`station:${privateOwner.id}`]]]);
      const other = await api(`/api/v1/vessels/mmsi-${SHIP}/events?type=loitering`);
      assert.deepEqual(other.body.data.map((e: any) => e.sources), [["station:1"]]);
      assert.deepEqual(other.body.withheld, []);
      assert.ok(!JSON.stringify(other.body).includes(`station:${privateOwner.id}`));
      const area = await api(`/api/v1/events?bbox=19,59,22,61&type=loitering`);
      assert.ok(!area.body.data.some((e: any) => e.sources.includes(`station:${privateOwner.id}`)));
      const page = await api(`/api/v1/vessels/mmsi-${SHIP}`);
      assert.ok(!page.body.data.events.latest.some((e: any) => e.sources.includes(`station:${privateOwner.id}`)));
      const ownerPage = await api(`/api/v1/vessels/mmsi-${SHIP}`, privateOwner.key);
      assert.equal(ownerPage.body.data.events.count, page.body.data.events.count + 1);
    });

    it("an area's events: both ships of an encounter, port calls at ports inside the box, a geocoded port's call withheld whole", async () => {
      const r = await api(`/api/v1/events?bbox=19,59,22,61&from=${iso(now - 60 * DAY)}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(
        r.body.data.filter((e: any) => e.type === "encounter").map((e: any) => [e.vessel.mmsi, e.counterpart.mmsi]).sort(),
        [[SHIP, OTHER], [OTHER, SHIP]],
      );
      assert.ok(!r.body.data.some((e: any) => e.type === "identity_change"), "its position (24.9 E) is outside the box");
      assert.deepEqual(r.body.withheld, [{ section: "events", sources: ["station:2"], rows: 1, reason: "source_not_licensed_for_api" }]);
      const nl = await api(`/api/v1/events?bbox=3.5,51.5,5,52.5&type=port_call`);
      assert.deepEqual(nl.body.data.map((e: any) => [e.vessel.name, e.details.unlocode]), [["EVENT TESTER", "NLRTM"]]);
      assert.deepEqual(nl.body.withheld, []);
      const box = `${geocoded.lon - 0.1},${geocoded.lat - 0.1},${geocoded.lon + 0.1},${geocoded.lat + 0.1}`;
      const there = await api(`/api/v1/events?bbox=${box}&type=port_call`);
      assert.deepEqual(there.body.data, [], "that the port lies in the box is the geocoder's fact");
      assert.deepEqual(there.body.withheld, [{ section: "events", sources: ["geoapify"], rows: 1, reason: "source_not_licensed_for_api" }]);
      // Paged like the vessel's list.
      const first = await api(`/api/v1/events?bbox=19,59,22,61&from=${iso(now - 60 * DAY)}&limit=1`);
      assert.equal(first.body.data.length, 1);
      const second = await api(new URL(first.body.next).pathname + new URL(first.body.next).search);
      assert.notDeepEqual(second.body.data[0], first.body.data[0]);
    });

    it("the vessel answer counts the events over the plan's history and shows the latest five, newest first", async () => {
      const r = await api(`/api/v1/vessels/mmsi-${SHIP}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const ev = r.body.data.events;
      assert.equal(ev.count, 6, "4 events and 2 port calls of station 1");
      assert.deepEqual(
        ev.latest.map((e: any) => e.type),
        ["identity_change", "encounter", "port_call", "port_call", "loitering"],
      );
      assert.ok(r.body.withheld.some((w: any) => w.section === "events" && w.sources.join() === "station:2" && w.rows === 1), JSON.stringify(r.body.withheld));
      // 30 days of history: the gap 40 days ago is not counted.
      const developer = await t.key("developer");
      assert.equal((await api(`/api/v1/vessels/mmsi-${SHIP}`, developer.key)).body.data.events.count, 5);
      const sandbox = await t.key("sandbox");
      const day = (await api(`/api/v1/vessels/mmsi-${SHIP}`, sandbox.key)).body.data.events;
      assert.deepEqual([day.count, day.latest.map((e: any) => e.type)], [1, ["identity_change"]]);
    });
  });
}
