/**
 * Alerts: zone geometry and entry detection, `alert.zone_enter` through real ingest,
 * privacy of stations, `alert.sanctions` from real list imports, and the payload's content
 * rules (spec 6.2, docs/spec-excerpts.md) with the rights engine deciding redistribution.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { validatePolygon } from "../../../src/domain/alerts/geometry.ts";
import { ZoneIndex } from "../../../src/domain/alerts/zone-index.ts";
import { ZoneTracker } from "../../../src/domain/alerts/zone-tracker.ts";
import { PROJECT_ROOT } from "../../../src/main.ts";
import { ofacCsvBefore } from "../../helpers/sanctions-fixtures.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { positionLine, staticLines, stationFor } from "../../helpers/ingest.ts";
import { importBytes } from "../../helpers/sanctions.ts";
import { HOOK_HOST, type Receiver, startReceiver, transportFor, verifyReceived } from "../../helpers/webhooks.ts";

const square = (x0: number, y0: number, x1: number, y1: number) => ({
  type: "Polygon",
  coordinates: [
    [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
      [x0, y0],
    ],
  ],
});
const HARBOUR = square(24.9, 60.1, 25.0, 60.2);

describe("zone geometry", () => {
  it("accepts a closed ring, with holes inside it; repeated vertices are dropped", () => {
    const r = validatePolygon({
      type: "Polygon",
      coordinates: [HARBOUR.coordinates[0], [[24.95, 60.15], [24.96, 60.15], [24.96, 60.16], [24.95, 60.16], [24.95, 60.15]]],
    });
    assert.ok(r.ok);
    assert.deepEqual(r.bbox, { minLon: 24.9, minLat: 60.1, maxLon: 25.0, maxLat: 60.2 });
    const dup = validatePolygon({ type: "Polygon", coordinates: [[[0, 0], [1, 0], [1, 0], [1, 1], [0, 1], [0, 0]]] });
    assert.ok(dup.ok && dup.polygon.coordinates[0]!.length === 5);
  });

  const bad: [string, unknown, RegExp][] = [
    ["not an object", "POLYGON((0 0))", /GeoJSON object/],
    ["a point", { type: "Point", coordinates: [0, 0] }, /Polygon/],
    ["open ring", { type: "Polygon", coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] }, /closed/],
    ["too few positions", { type: "Polygon", coordinates: [[[0, 0], [1, 0], [0, 0]]] }, /at least 4/],
    ["bow tie", { type: "Polygon", coordinates: [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]] }, /intersects itself/],
    ["spike folding back", { type: "Polygon", coordinates: [[[0, 0], [2, 0], [1, 0], [1, 1], [0, 0]]] }, /intersects itself|no area/],
    ["collinear", { type: "Polygon", coordinates: [[[0, 0], [1, 0], [2, 0], [0, 0]]] }, /no area|intersects/],
    ["longitude out of range", square(179, 0, 181, 1), /longitude 181/],
    ["latitude out of range", square(0, 89.5, 1, 90.5), /latitude 90.5/],
    ["NaN", { type: "Polygon", coordinates: [[[0, 0], [Number.NaN, 0], [1, 1], [0, 0]]] }, /finite/],
    ["strings", { type: "Polygon", coordinates: [[["0", "0"], [1, 0], [1, 1], ["0", "0"]]] }, /finite/],
    ["too large", square(0, 0, 40, 10), /at most 30 degrees/],
    ["antimeridian wrap", square(-179.5, 0, 179.5, 1), /at most 30 degrees/],
    ["too small", square(0, 0, 0.00001, 0.00001), /at least/],
    ["hole outside", { type: "Polygon", coordinates: [square(0, 0, 1, 1).coordinates[0], square(2, 2, 3, 3).coordinates[0]] }, /inside the outer ring/],
    ["hole crossing", { type: "Polygon", coordinates: [square(0, 0, 1, 1).coordinates[0], [[0.5, 0.5], [1.5, 0.5], [0.5, 0.7], [0.5, 0.5]]] }, /inside the outer ring|crosses/],
    ["too many positions", { type: "Polygon", coordinates: [Array.from({ length: 1001 }, (_, i) => [Math.cos(i), Math.sin(i)])] }, /at most 1000/],
    ["deep nesting", { type: "Polygon", coordinates: [[[[0, 0]]]] }, /\[lon, lat\]/],
  ];
  for (const [name, input, message] of bad) {
    it(`refuses ${name}`, () => {
      const r = validatePolygon(input);
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.message, message);
    });
  }
});

describe("zone index and entry detection", () => {
  it("the grid finds exactly the zones containing a point, also with holes and many zones", () => {
    const index = new ZoneIndex();
    for (let i = 0; i < 2_000; i++) {
      const x = (i % 50) * 0.4;
      const y = 50 + Math.floor(i / 50) * 0.2;
      const g = validatePolygon(square(x, y, x + 0.3, y + 0.15));
      assert.ok(g.ok);
      index.add({ id: i + 1, accountId: `acc_${i % 3}`, name: `z${i}`, polygon: g.polygon, bbox: g.bbox });
    }
    assert.deepEqual(index.containing(0.1, 50.05).map((z) => z.id), [1]);
    assert.deepEqual(index.containing(0.35, 50.05), []);
    const holed = validatePolygon({ type: "Polygon", coordinates: [square(30, 10, 31, 11).coordinates[0], square(30.4, 10.4, 30.6, 10.6).coordinates[0]] });
    assert.ok(holed.ok);
    index.add({ id: 9_999, accountId: "acc_x", name: "ring", polygon: holed.polygon, bbox: holed.bbox });
    assert.deepEqual(index.containing(30.2, 10.2).map((z) => z.id), [9_999]);
    assert.deepEqual(index.containing(30.5, 10.5), []);
    index.remove(1);
    assert.deepEqual(index.containing(0.1, 50.05), []);
  });

  it("fires once after two fixes inside, following a known position outside; a vessel on the boundary never fires", () => {
    const t = new ZoneTracker();
    const seq = (mmsi: number, insides: boolean[]) => insides.flatMap((inside, i) => t.observe(mmsi, 1000 + i, inside ? [7] : [], 0).map(() => i));
    assert.deepEqual(seq(1, [false, false, true, true, true, true]), [3]);
    assert.deepEqual(seq(2, [false, true, false, true, false, true, false, true]), [], "flapping on the boundary");
    assert.deepEqual(seq(3, [true, true, true]), [], "first seen inside: no previous position outside");
    assert.deepEqual(seq(4, [false, true, true, false, true, true, false, false, true, true]), [2, 9], "a one-fix excursion out is not a new entry");
    // Older and duplicate fixes are ignored.
    t.observe(5, 10, [], 0);
    t.observe(5, 20, [7], 0);
    assert.deepEqual(t.observe(5, 15, [7], 0), []);
    assert.deepEqual(t.observe(5, 20, [7], 0), []);
    assert.deepEqual(t.observe(5, 30, [7], 0), [7]);
  });
});

describe("alerts end to end", () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver("127.0.0.10");
  });
  after(() => receiver.close());

  for (const engine of ENGINES) {
    describe(engine, () => {
      let t: TestService;
      before(async () => {
        t = await startTestService({ engine, withData: false, webhooks: { transport: transportFor("127.0.0.10") } });
      });
      after(() => t.close());
      const api = async (key: string, method: string, url: string, body?: unknown) => {
        const res = await t.service.app.inject({ method: method as "GET", url, headers: { authorization: `Bearer ${key}` }, ...(body !== undefined ? { payload: body as object } : {}) });
        return { status: res.statusCode, body: res.json() as Record<string, any> };
      };
      /** Lines through the real ingest pipeline as the station's, then zone evaluation and delivery. */
      const ingest = async (stationId: number, lines: string[]) => {
        const station = (await t.service.ingest.directory.byId(stationId))!;
        const r = t.service.ingest.pipeline.submit(station, lines, { source: `test-${stationId}`, transport: "http" });
        await t.service.ingest.pipeline.flush();
        await r.stored;
        await t.service.alerts.zones!.idle();
        await t.service.webhooks.worker.runDue();
      };
      /** Fixes 10 s apart, ending shortly before `t0` (tag-block times, whole seconds); steps a ship can sail (under 60 kn). */
      const track = (mmsi: number, lons: number[], t0: number) => lons.map((lon, i) => positionLine({ mmsi, lat: 60.15, lon }, (Math.floor(t0 / 1000) - 60 + i * 10) * 1000));
      const path = (p: string) => `/${engine}/alerts/${p}`;
      const got = (p: string) => receiver.received.filter((r) => r.url === path(p));

      it("a vessel entering a zone, heard by the owner's station, raises one signed alert.zone_enter with the payload of spec 6.2", async () => {
        const a = await stationFor(t, "pro", "roof");
        const hook = await api(a.key, "POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}:8443${path("zone")}` });
        const zone = await api(a.key, "POST", "/api/v1/account/zones", { name: "Helsinki harbour", geometry: HARBOUR });
        assert.equal(zone.status, 200);
        await t.service.alerts.zones!.idle();
        const now = t.clock.now();
        await ingest(a.id, [...staticLines({ mmsi: 230123456, imo: 9176187, shipname: "BALTIC STAR" }), ...track(230123456, [24.86, 24.88, 24.91, 24.92, 24.93], now)]);
        // A ship lying on the boundary, its fixes scattering across it.
        await ingest(a.id, track(230999999, [24.899, 24.901, 24.899, 24.901, 24.899, 24.901], now));
        assert.equal(got("zone").length, 1);
        const rec = got("zone")[0]!;
        const body = verifyReceived(rec, hook.body.data.secret, t.clock.now()) as Record<string, any>;
        assert.equal(rec.headers["service-event-type"], "alert.zone_enter");
        assert.equal(body.type, "alert.zone_enter");
        assert.match(body.id, /^evt_\d+$/);
        assert.equal(body.id, rec.headers["service-event-id"]);
        assert.match(body.api_version, /^\d{4}-\d{2}-\d{2}$/);
        const alert = body.data.alert;
        assert.deepEqual(Object.keys(alert).sort(), ["derived", "fact", "follow_id", "id", "links", "occurred_at", "saved_search", "sources", "subject", "text", "type", "watchlist", "withheld", "zone"].sort());
        assert.equal(alert.type, "zone_enter");
        assert.equal(alert.derived, true);
        assert.equal(typeof alert.id, "number");
        assert.equal(alert.occurred_at, new Date((Math.floor(now / 1000) - 60 + 30) * 1000).toISOString(), "the second fix inside");
        assert.deepEqual(alert.subject, { kind: "vessel", ref: "9176187", imo: 9176187, mmsi: 230123456, unlocode: null, name: "BALTIC STAR", url: `${alert.subject.url.split("/api/")[0]}/api/v1/vessels/9176187` });
        assert.deepEqual(alert.zone, { id: zone.body.data.id, name: "Helsinki harbour" });
        assert.deepEqual(Object.keys(alert.links).sort(), ["entity", "saved_search", "zone"]);
        assert.match(alert.links.zone, new RegExp(`/api/v1/account/zones/${zone.body.data.id}$`));
        assert.equal(alert.fact.t, "zone_enter");
        assert.equal(alert.fact.zone, "Helsinki harbour");
        assert.deepEqual([alert.fact.position.lat, alert.fact.position.lon, alert.fact.position.source], [60.15, 24.92, `station:${a.id}`]);
        assert.match(alert.text, /BALTIC STAR \(IMO 9176187\) entered your zone Helsinki harbour/);
        assert.deepEqual(alert.withheld, []);
        assert.deepEqual(alert.sources.map((s: { id: string }) => s.id), [`station:${a.id}`]);
        // More fixes inside raise nothing more.
        await ingest(a.id, track(230123456, [24.94, 24.95], now + 60_000));
        assert.equal(got("zone").length, 1);
      });

      it("another account's private station never raises a zone alert; a shared one does", async () => {
        const a = await stationFor(t, "pro", "roof");
        await api(a.key, "POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}:8443${path("privacy")}` });
        await api(a.key, "POST", "/api/v1/account/zones", { name: "Mine", geometry: HARBOUR });
        const b = await stationFor(t, "pro", "neighbour");
        await t.service.alerts.zones!.idle();
        const now = t.clock.now() + 600_000;
        t.clock.t = now;
        await ingest(b.id, track(230555555, [24.86, 24.88, 24.91, 24.92, 24.93], now));
        assert.equal(got("privacy").length, 0);
        await t.service.services.stations.updateStation(b.id, { shared: true, redistribution: true, commercial: true });
        t.service.ingest.directory.forget();
        const c = await stationFor(t, "pro", "shared-one");
        await t.service.services.stations.updateStation(c.id, { shared: true, redistribution: true, commercial: true });
        await ingest(c.id, track(230666666, [24.86, 24.88, 24.91, 24.92, 24.93], now));
        assert.equal(got("privacy").length, 1);
        assert.match(got("privacy")[0]!.raw.toString(), /230666666/);
      });

      it("zones made through another process reach the index on refresh", async () => {
        const a = await t.key("pro");
        const g = validatePolygon(HARBOUR);
        assert.ok(g.ok);
        const before = t.service.alerts.zones!.zones;
        const z = await t.service.services.alerts.addZone(a.accountId, { name: "elsewhere", geometry: g.polygon, bbox: g.bbox }, 10, t.clock.now());
        assert.ok(z.ok);
        await t.service.alerts.zones!.refresh();
        assert.equal(t.service.alerts.zones!.zones, before + 1);
        await t.service.services.alerts.deleteZone(a.accountId, z.value.id);
        await t.service.alerts.zones!.refresh();
        assert.equal(t.service.alerts.zones!.zones, before);
      });

      it("a followed vessel newly listed raises alert.sanctions for each follower; a list's first import (baseline) raises nothing", async () => {
        const a = await t.key("pro");
        const hook = await api(a.key, "POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}:8443${path("sanctions")}` });
        await api(a.key, "POST", "/api/v1/account/follows", { imo: "9396854" }); // MARLIN, listed 2021-11-23
        await api(a.key, "POST", "/api/v1/account/follows", { imo: 8770261 }); // AKADEMIK CHERSKIY, already on the first import
        const c = await t.key("pro");
        await api(c.key, "POST", "/api/v1/account/follows", { imo: 9396854 });
        await importBytes(t, "ofac", "sdn.csv", ofacCsvBefore("2021-11-12").csv, { asOf: "2021-11-12" });
        assert.equal(await t.service.alerts.sanctions!.poll(), 0, "baseline events raise nothing");
        await importBytes(t, "ofac", "sdn.csv", ofacCsvBefore("2021-11-23").csv, { asOf: "2021-11-23" });
        assert.equal(await t.service.alerts.sanctions!.poll(), 2, "one alert per following account");
        assert.equal(await t.service.alerts.sanctions!.poll(), 0, "the cursor moved");
        await t.service.webhooks.worker.runDue();
        assert.equal(got("sanctions").length, 1);
        const rec = got("sanctions")[0]!;
        const body = verifyReceived(rec, hook.body.data.secret, t.clock.now()) as Record<string, any>;
        assert.equal(body.type, "alert.sanctions");
        const alert = body.data.alert;
        assert.equal(alert.derived, false);
        assert.deepEqual([alert.subject.imo, alert.subject.name, alert.subject.ref], [9396854, "MARLIN", "9396854"]);
        assert.match(alert.follow_id, /^follow_\d+$/);
        // The list the vessel is on, its family (the rights' source), and what the listing imposes, with its legal basis.
        assert.deepEqual(alert.fact, {
          t: "sanctions",
          action: "listed",
          list: "ofac_sdn",
          family: "ofac",
          program: "PEESA-EO14039",
          measures: [{ type: "asset_freeze", text: "Block (programme PEESA-EO14039)", legalBasis: { instrument: "Executive Order 14039", provision: null, url: null } }],
          sourceId: "ofac",
        });
        assert.match(alert.text, /MARLIN \(IMO 9396854\) was listed on the OFAC/);
        assert.deepEqual(alert.sources.map((s: { id: string }) => s.id), ["ofac"]);
        assert.deepEqual(alert.withheld, []);
        assert.deepEqual(alert.links, { entity: alert.subject.url, zone: null, saved_search: null });
      });
    });
  }
});

describe("payload content rules (spec 6.2) with sources that forbid redistribution", () => {
  let t: TestService;
  before(async () => {
    const file = JSON.parse(readFileSync(join(PROJECT_ROOT, "config/sources.json"), "utf8")) as { sources: { id: string; permissions: Record<string, boolean> }[] };
    for (const s of file.sources) {
      if (s.id === "station") s.permissions.redistribution = false;
      if (s.id === "ofac") s.permissions.commercial = false;
    }
    const path = join(mkdtempSync(join(tmpdir(), "mds-sources-")), "sources.json");
    writeFileSync(path, JSON.stringify(file));
    t = await startTestService({ withData: false, env: { SOURCES_FILE: path }, webhooks: { transport: transportFor("127.0.0.10") } });
  });
  after(() => t.close());
  const bodies = async (accountId: string) =>
    (await t.service.store.db.selectFrom("webhook_events").select("body").where("account_id", "=", accountId).orderBy("id").execute()).map((r) => JSON.parse(r.body) as Record<string, any>);

  it("a zone entry is still sent with the zone; the vessel the station named and the raw position are withheld naming its source", async () => {
    const a = await stationFor(t, "pro", "roof");
    const g = validatePolygon(HARBOUR);
    assert.ok(g.ok);
    await t.service.services.alerts.addZone(a.accountId, { name: "Z", geometry: g.polygon, bbox: g.bbox }, 10, t.clock.now());
    await t.service.alerts.zones!.accountChanged(a.accountId);
    const station = (await t.service.ingest.directory.byId(a.id))!;
    const s = Math.floor(t.clock.now() / 1000) - 60;
    t.service.ingest.pipeline.submit(station, [24.86, 24.88, 24.91, 24.92].map((lon, i) => positionLine({ mmsi: 230777777, lat: 60.15, lon }, (s + i * 10) * 1000)), { source: "x", transport: "http" });
    await t.service.ingest.pipeline.flush();
    await t.service.alerts.zones!.idle();
    const [body] = await bodies(a.accountId);
    const alert = body!.data.alert;
    assert.deepEqual(alert.fact, { t: "zone_enter", zoneId: alert.zone.id, zone: "Z" });
    assert.equal(alert.text, null);
    assert.deepEqual(alert.withheld, [
      { fields: ["fact.position"], sources: [`station:${a.id}`], reason: "source_rights" },
      { fields: ["subject", "text"], sources: [`station:${a.id}`], reason: "source_rights" },
    ]);
    assert.equal(alert.subject.mmsi, null);
    assert.doesNotMatch(JSON.stringify(body), /230777777/);
  });

  it("a sanctions listing from a source without commercial use: fact and text null for a commercial plan, sent to a non-commercial one", async () => {
    const pro = await t.key("pro");
    const plus = await t.key("plus");
    for (const k of [pro, plus]) await t.service.services.alerts.addFollow(k.accountId, { kind: "vessel", imo: 9396854, mmsi: null, unlocode: null }, 10, t.clock.now());
    await importBytes(t, "ofac", "sdn.csv", ofacCsvBefore("2021-11-12").csv, { asOf: "2021-11-12" });
    await importBytes(t, "ofac", "sdn.csv", ofacCsvBefore("2021-11-23").csv, { asOf: "2021-11-23" });
    await t.service.alerts.sanctions!.poll();
    const [p] = await bodies(pro.accountId);
    assert.equal(p!.data.alert.fact, null);
    assert.equal(p!.data.alert.text, null);
    assert.deepEqual(p!.data.alert.withheld, [{ fields: ["fact", "text"], sources: ["ofac"], reason: "source_rights" }]);
    assert.deepEqual(p!.data.alert.sources, []);
    // Identifiers, type and time are always sent.
    assert.deepEqual([p!.data.alert.subject.imo, p!.data.alert.subject.name, p!.data.alert.type], [9396854, "MARLIN", "sanctions"]);
    const [q] = await bodies(plus.accountId);
    assert.equal(q!.data.alert.fact.action, "listed");
    assert.deepEqual(q!.data.alert.withheld, []);
  });
});
