import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ENGINES, get, startTestService, type TestService } from "../../../helpers/service.ts";
import { aishubMock, aisstreamMock, captureLines, digitrafficLocations, NO_MOSQUITTO, startMosquitto, tcpReplay, until } from "./replay.ts";

/** Short thresholds so a silent feed is noticed in a test's time. */
const FAST = { statusMs: 50, reconcileMs: 100, tuning: { silentAfterMs: 400, minReconnectMs: 100, maxReconnectMs: 400, pollIntervalMs: 100 } };

async function metricsText(t: TestService): Promise<string> {
  const res = await t.service.app.inject({ method: "GET", url: "/metrics" });
  return res.body;
}

/** Anonymous calls share one rate-limit window, which a frozen test clock never resets: each read moves the clock on a second. */
async function anon(t: TestService, url: string) {
  t.clock.t += 1_000;
  return get(t, url);
}

function metricValue(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function sourceRow(t: TestService, id: string) {
  const r = await anon(t, "/api/v1/sources");
  assert.equal(r.status, 200);
  return (r.body.data as { id: string; license: string; feeds: Record<string, any>[] }[]).find((s) => s.id === id)!;
}

async function addFeed(t: TestService, name: string, kind: "kystverket" | "digitraffic" | "aisstream" | "aishub", url: string, key: string | null = null) {
  const feed = await t.service.services.feeds.add({ name, kind, url, key });
  await t.service.feeds.reconcile();
  return feed;
}

async function stored(t: TestService, stationId: number, atLeast: number): Promise<number> {
  return until(`${atLeast} positions of station ${stationId}`, async () => {
    await t.service.ingest.pipeline.flush();
    const n = await t.service.services.positions.countPositions(stationId);
    return n >= atLeast ? n : null;
  });
}

for (const engine of ENGINES) describe(`public feeds through local replays (${engine})`, () => {
  let t: TestService;
  before(async () => {
    t = await startTestService({ engine, withData: false, feeds: FAST });
    await t.service.feeds.start();
  });
  after(() => t.close());

  it("a replayed Kystverket capture through the TCP connector: positions under the feed's station, NLOD in attribution and license, for anonymous callers", async () => {
    const lines = captureLines();
    const server = await tcpReplay(() => lines);
    try {
      const feed = await addFeed(t, "norway", "kystverket", `tcp://127.0.0.1:${server.port}`);
      const n = await stored(t, feed.stationId, 100);
      assert.ok(n >= 100, `stored ${n}`);
      const [fix] = await t.service.services.positions.latest([feed.stationId], 0);
      const page = await anon(t, `/api/v1/vessels/mmsi-${String(fix!.mmsi).padStart(9, "0")}`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.equal(page.body.data.lastPosition.source, `station:${feed.stationId}`);
      assert.equal(page.body.data.lastPosition.sourceName, "Norwegian Coastal Administration open AIS (AIS Norge, open tier)");
      assert.ok(page.body.data.lastPosition.ageSeconds >= 0);
      // The station as the fact names it, then the feed that governs it.
      assert.deepEqual(page.body.sources.slice(page.body.sources.indexOf(`station:${feed.stationId}`), page.body.sources.indexOf(`station:${feed.stationId}`) + 2), [`station:${feed.stationId}`, "kystverket-open"]);
      assert.ok(page.body.license.some((l: string) => l.includes("NLOD")), JSON.stringify(page.body.license));
      assert.ok(page.body.attribution.some((a: string) => a.includes("Norwegian Coastal Administration")));
      // One connection at a time, as Kystverket serves one per address (the replay then falls
      // silent, so a slow run may see the silent connection recycled: a second, not a parallel one).
      assert.equal(server.mostAtOnce, 1);
      await t.service.feeds.writeStatuses();
      const source = await sourceRow(t, "kystverket-open");
      const state = source.feeds.find((f) => f.name === "norway")!;
      assert.ok(state.lastMessageAt !== null);
      assert.ok(state.ratePerSecond > 0);
    } finally {
      await t.service.services.feeds.remove("norway");
      await t.service.feeds.reconcile();
      await server.close();
    }
  });

  it("Digitraffic JSON through a local Mosquitto over WebSocket: positions with the Digitraffic source and CC BY 4.0; garbage counted and dropped", { skip: NO_MOSQUITTO }, async () => {
    const broker = await startMosquitto();
    try {
      const feed = await addFeed(t, "finland", "digitraffic", broker.wsUrl);
      await until("the connector to subscribe", async () => t.service.feeds.connector("finland")?.status().state === "connected");
      const messages = digitrafficLocations(t.clock.now() - 5_000, 200);
      for (const m of messages) await broker.publisher.publishAsync(m.topic, m.payload);
      for (const [topic, payload] of [
        ["vessels-v2/230000001/location", "{not json"],
        ["vessels-v2/230000001/location", "[1,2,3]"],
        ["vessels-v2/abc/location", "{}"],
        ["vessels-v2/230000001/location", JSON.stringify({ time: 1, lat: "x" })],
      ] as const) {
        await broker.publisher.publishAsync(topic, payload);
      }
      const n = await stored(t, feed.stationId, messages.length);
      assert.equal(n, messages.length);
      const page = await anon(t, `/api/v1/vessels/mmsi-${messages[0]!.mmsi}`);
      assert.equal(page.status, 200);
      assert.equal(page.body.data.lastPosition.source, `station:${feed.stationId}`);
      assert.ok(page.body.license.includes("Creative Commons Attribution 4.0 International (CC BY 4.0)"));
      assert.ok(page.body.attribution.some((a: string) => a.startsWith("Source: Fintraffic / digitraffic.fi")));
      const text = await until("rejected counters", async () => {
        const m = await metricsText(t);
        return /mds_feed_rejected_total\{feed="finland",reason="not_json"\} 1/.test(m) ? m : null;
      });
      assert.match(text, /mds_feed_rejected_total\{feed="finland",reason="not_an_object"\} 1/);
      assert.match(text, /mds_feed_rejected_total\{feed="finland",reason="unknown_topic"\} 1/);
      assert.match(text, /mds_feed_rejected_total\{feed="finland",reason="no_position"\} 1/);
      assert.equal(t.service.feeds.connector("finland")?.status().state, "connected");
    } finally {
      await t.service.services.feeds.remove("finland");
      await t.service.feeds.reconcile();
      await broker.close();
    }
  });

  it("aisstream.io through a local WebSocket: the key and lat-first world box are sent first; positions and statics stored; garbage dropped", async () => {
    const frames = [
      JSON.stringify({
        MessageType: "PositionReport",
        MetaData: { MMSI: 244700923, time_utc: "2026-11-20 11:59:57.548559821 +0000 UTC" },
        Message: { PositionReport: { UserID: 244700923, Valid: true, NavigationalStatus: 0, Sog: 2.2, Cog: 140.5, TrueHeading: 511, Latitude: 52.827936, Longitude: 5.218913 } },
      }),
      JSON.stringify({
        MessageType: "ShipStaticData",
        MetaData: { MMSI: 244700923 },
        Message: { ShipStaticData: { UserID: 244700923, Valid: true, ImoNumber: 9543756, Name: "FIXTURE ONE@@@", CallSign: "PA1234", Type: 70, Dimension: { A: 100, B: 20, C: 5, D: 5 }, Eta: { Month: 11, Day: 21, Hour: 8, Minute: 0 }, MaximumStaticDraught: 5.5, Destination: "ROTTERDAM" } },
      }),
      "not json at all",
      JSON.stringify({ MessageType: "PositionReport", Message: {} }),
      JSON.stringify({ MessageType: "Interrogation", MetaData: { MMSI: 244700923 }, Message: { Interrogation: { UserID: 244700923, Valid: true } } }),
    ];
    const mock = await aisstreamMock("test-key-0123", () => frames);
    try {
      const feed = await addFeed(t, "stream", "aisstream", mock.url, "test-key-0123");
      await stored(t, feed.stationId, 1);
      assert.deepEqual(mock.subscriptions[0], {
        APIKey: "test-key-0123",
        BoundingBoxes: [[[-90, -180], [90, 180]]],
        FilterMessageTypes: ["PositionReport", "StandardClassBPositionReport", "ExtendedClassBPositionReport", "ShipStaticData", "StaticDataReport"],
      });
      const [identity] = await until("the static report", async () => {
        await t.service.ingest.pipeline.flush();
        const ids = await t.service.services.positions.identities([feed.stationId], [244700923]);
        return ids.length > 0 ? ids : null;
      });
      assert.equal(identity!.imo, 9543756);
      assert.equal(identity!.name, "FIXTURE ONE");
      assert.equal(identity!.eta, "11-21T08:00Z");
      // The mock sends its frames on every subscription (a silent connection is recycled), so at least once each.
      const m = await metricsText(t);
      for (const reason of ["not_json", "not_an_envelope", "ignored_type"]) assert.ok(metricValue(m, `mds_feed_rejected_total{feed="stream",reason="${reason}"}`) >= 1, reason);
      // aisstream.io publishes no terms: the position is served, but not for redistribution (the envelope still names it).
      const page = await anon(t, "/api/v1/vessels/mmsi-244700923");
      assert.equal(page.status, 200);
      assert.ok(page.body.sources.includes("aisstream"));
    } finally {
      await t.service.services.feeds.remove("stream");
      await t.service.feeds.reconcile();
      await mock.close();
    }
  });

  it("a wrong aisstream key: the feed's own error is kept as the last error, and it retries with backoff", async () => {
    const mock = await aisstreamMock("the-right-key", () => []);
    try {
      await addFeed(t, "wrongkey", "aisstream", mock.url, "a-wrong-key");
      const status = await until("the error", async () => {
        const s = t.service.feeds.connector("wrongkey")?.status();
        return s && mock.subscriptions.length >= 2 && s.lastError !== null ? s : null;
      });
      assert.ok(status.lastError !== null);
    } finally {
      await t.service.services.feeds.remove("wrongkey");
      await t.service.feeds.reconcile();
      await mock.close();
    }
  });

  it("AISHub members' JSON snapshot, polled with the username: positions in degrees, bad records counted", async () => {
    const body = JSON.stringify([
      { ERROR: false, USERNAME: "AH_MEMBER", FORMAT: "AIS", RECORDS: 3 },
      [
        { MMSI: 257000001, TIME: "1795003200", LONGITUDE: 6150000, LATITUDE: 35700000, COG: 1234, SOG: 65, HEADING: 87, NAVSTAT: 0, IMO: 9543756, NAME: "NORDIC ONE", CALLSIGN: "LF1234", TYPE: 70, A: 160, B: 33, C: 20, D: 12, DRAUGHT: 68, DEST: "OSLO", ETA: 733376 },
        { MMSI: "garbage", LONGITUDE: 1, LATITUDE: 1 },
        "not a record",
      ],
    ]);
    const mock = await aishubMock(() => body);
    try {
      const feed = await addFeed(t, "hub", "aishub", mock.url, "AH_MEMBER");
      await stored(t, feed.stationId, 1);
      assert.equal(mock.queries[0]!.get("username"), "AH_MEMBER");
      assert.equal(mock.queries[0]!.get("output"), "json");
      const [fix] = await t.service.services.positions.latest([feed.stationId], 0);
      assert.equal(fix!.mmsi, 257000001);
      assert.equal(fix!.lat, 59.5);
      assert.equal(fix!.lon, 10.25);
      assert.equal(fix!.sog, 6.5);
      const m = await metricsText(t);
      assert.match(m, /mds_feed_rejected_total\{feed="hub",reason="bad_mmsi"\} \d+/);
      assert.match(m, /mds_feed_rejected_total\{feed="hub",reason="not_an_object"\} \d+/);
    } finally {
      await t.service.services.feeds.remove("hub");
      await t.service.feeds.reconcile();
      await mock.close();
    }
  });

  it("a feed that connects and goes silent raises the alarm in the status operation and on /metrics, and recovers when data flows", async () => {
    let send: string[] = [];
    const server = await tcpReplay(() => send);
    try {
      await addFeed(t, "quiet", "kystverket", `tcp://127.0.0.1:${server.port}`);
      await until("the silence alarm", async () => t.service.feeds.connector("quiet")?.status().alarm === "silent");
      await t.service.feeds.writeStatuses();
      const state = (await sourceRow(t, "kystverket-open")).feeds.find((f) => f.name === "quiet")!;
      assert.equal(state.alarm, "silent");
      assert.ok(state.alarmSince !== null);
      assert.match(await metricsText(t), /mds_feed_alarm\{feed="quiet",alarm="silent"\} 1/);
      // It reconnects while silent, and the next data clears the alarm.
      send = captureLines().slice(0, 20);
      await until("the alarm to clear", async () => t.service.feeds.connector("quiet")?.status().alarm === null);
      assert.match(await metricsText(t), /mds_feed_alarm\{feed="quiet",alarm="silent"\} 0/);
      assert.ok(server.connections >= 2);
    } finally {
      await t.service.services.feeds.remove("quiet");
      await t.service.feeds.reconcile();
      await server.close();
    }
  });

  it("a feed whose address refuses connections is `down` with its error; garbage lines from a TCP feed are counted, never stored", async () => {
    const server = await tcpReplay(() => ["\u0000\u0001garbage", "!AIVDM,1,1,,A,13noH:00000H@P@RSPEakGK@0D33,0*00", "x".repeat(5_000), "$GPGGA,whatever"]);
    const closedPort = server.port;
    try {
      const feed = await addFeed(t, "junk", "kystverket", `tcp://127.0.0.1:${closedPort}`);
      // Every connection gets the 4 lines again (the feed is recycled once it falls silent), so counts only grow.
      await until("garbage counted", async () => {
        const m = await metricsText(t);
        return metricValue(m, 'mds_feed_rejected_total{feed="junk",reason="line_too_long"}') >= 1 && metricValue(m, 'mds_feed_messages_total{feed="junk"}') >= 4;
      });
      await t.service.ingest.pipeline.flush();
      assert.equal(await t.service.services.positions.countPositions(feed.stationId), 0);
      await server.close();
      await until("the down alarm", async () => t.service.feeds.connector("junk")?.status().alarm === "down");
      assert.match(t.service.feeds.connector("junk")!.status().lastError ?? "", /ECONNREFUSED|closed/);
    } finally {
      await t.service.services.feeds.remove("junk");
      await t.service.feeds.reconcile();
    }
  });

  it("a feed removed while a reconcile that read the list before the removal is running stops at the next reconcile the caller awaits", async () => {
    const port = await tcpReplay(() => []);
    await port.close();
    await addFeed(t, "race", "kystverket", `tcp://127.0.0.1:${port.port}`);
    assert.ok(t.service.feeds.names().includes("race"));
    const store = t.service.services.feeds;
    const list = store.list.bind(store);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // The next read of the list is taken now (with the feed) and handed back only once released: a reconcile in flight.
    store.list = async () => {
      const feeds = await list();
      store.list = list;
      await gate;
      return feeds;
    };
    try {
      const stale = t.service.feeds.reconcile();
      await store.remove("race");
      const mine = t.service.feeds.reconcile();
      release();
      await stale;
      await mine;
      assert.ok(!t.service.feeds.names().includes("race"), "the reconcile the remover awaited read the list after the removal");
    } finally {
      store.list = list;
      release();
    }
  });

  it("a removed feed stops; `GET /api/v1/sources` lists every source with licence and permissions, free and without a key", async () => {
    assert.deepEqual(t.service.feeds.names(), []);
    const r = await anon(t, "/api/v1/sources");
    assert.equal(r.status, 200);
    const ids = (r.body.data as { id: string }[]).map((s) => s.id);
    for (const id of ["kystverket-open", "digitraffic-marine", "aisstream", "aishub", "station"]) assert.ok(ids.includes(id), id);
    const aishub = (r.body.data as { id: string; permissions: Record<string, boolean> }[]).find((s) => s.id === "aishub")!;
    assert.deepEqual(aishub.permissions, { api: true, redistribution: false, commercial: false });
  });
});
