// Public feed connectors end to end, side by side in one run: each connector takes a real
// capture (or real positions) from a local replay of its feed into storage, and then single
// reports, one at a time, from arrival to their position in the store and on the vessel page.
//
//   npx node bench/feeds.ts [--messages 20000] [--samples 100]
//
// Throughput: the replay sends `--messages` reports as fast as it can; positions/s = rows
// stored / time from the first byte sent to the last row committed (the pipeline's flush
// included). Inputs: Kystverket, the real capture (test/fixtures/feeds) repeated with each
// repetition's tag-block time moved on, so no fix repeats a stored key; Digitraffic, location
// JSON built from the real Baltic snapshot (shared/data), published to a local Mosquitto and
// read over its WebSocket listener; aisstream.io, PositionReport envelopes with the same
// positions from a local WebSocket server; AISHub, one snapshot of as many records answering
// one poll. Latency: `--samples` reports, each of a new MMSI, sent one at a time; the time
// until the fix is in the store, and until GET /api/v1/vessels/mmsi-<n> answers 200 with it.
// SQLite (the default store). The service is the real one, in this process.

import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocketServer, type WebSocket } from "ws";
import { nmeaChecksum } from "../src/domain/ais/encode.ts";
import { encodePositionA, toSentences } from "../src/domain/ais/encode.ts";
import { parseConfig } from "../src/config.ts";
import { createService, PROJECT_ROOT, type Service } from "../src/main.ts";
import { aishubMock, captureLines, digitrafficLocations, startMosquitto } from "../test/adapters/ingest/feeds/replay.ts";
import { percentile } from "./percentile.ts";

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const MESSAGES = arg("messages", 20_000);
const SAMPLES = arg("samples", 100);

/** The capture with every tag-block time moved on by `shiftS` seconds (the tag block's checksum redone). */
function shifted(lines: string[], shiftS: number): string[] {
  return lines.map((l) =>
    l.replace(/^\\(s:[^,*]*,c:)(\d+)\*[0-9A-F]{2}\\/, (_m, head: string, c: string) => {
      const body = `${head}${Number(c) + shiftS}`;
      return `\\${body}*${nmeaChecksum(body)}\\`;
    }),
  );
}

async function messagesOf(s: Service, feed: string): Promise<number> {
  const m = await s.feeds.metrics.messages.get();
  return m.values.find((v) => v.labels.feed === feed)?.value ?? 0;
}

/** Waits until the connector has taken `sent` messages and everything they carried is committed. */
async function drained(s: Service, feed: string, sent: number): Promise<number> {
  for (;;) {
    if ((await messagesOf(s, feed)) >= sent) {
      await s.ingest.pipeline.flush();
      return performance.now();
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

async function addFeed(s: Service, name: string, kind: "kystverket" | "digitraffic" | "aisstream" | "aishub", url: string, key: string | null = null) {
  const feed = await s.services.feeds.add({ name, kind, url, key });
  await s.feeds.reconcile();
  for (let i = 0; i < 2_000 && s.feeds.connector(name)?.status().state !== "connected"; i++) await new Promise((r) => setTimeout(r, 5));
  return feed;
}

/** A TCP feed server that keeps its one client and writes what it is given. */
async function tcpFeed() {
  let client: Socket | null = null;
  let onClient: (() => void) | null = null;
  const server = createServer((s) => {
    client = s;
    s.on("error", () => {});
    onClient?.();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as { port: number }).port,
    connected: () => new Promise<void>((r) => (client ? r() : (onClient = r))),
    send: (text: string) => new Promise<void>((r) => (client!.write(text) ? r() : client!.once("drain", () => r()))),
    close: () => new Promise<void>((r) => {
      client?.destroy();
      server.close(() => r());
    }),
  };
}

/** An aisstream-like server that keeps its one subscriber and sends what it is given. */
async function wsFeed() {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/v0/stream" });
  await new Promise((r) => wss.once("listening", r));
  let client: WebSocket | null = null;
  let onClient: (() => void) | null = null;
  wss.on("connection", (ws) => ws.once("message", () => {
    client = ws;
    onClient?.();
  }));
  return {
    url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}/v0/stream`,
    subscribed: () => new Promise<void>((r) => (client ? r() : (onClient = r))),
    send: (frames: string[]) => {
      for (const f of frames) client!.send(f);
    },
    close: () => new Promise<void>((r) => {
      for (const c of wss.clients) c.terminate();
      wss.close(() => r());
    }),
  };
}

function aisstreamEnvelope(mmsi: number, lat: number, lon: number, time: number): string {
  const t = new Date(time).toISOString().replace("T", " ").replace("Z", "000000 +0000 UTC");
  return JSON.stringify({ MessageType: "PositionReport", MetaData: { MMSI: mmsi, time_utc: t }, Message: { PositionReport: { UserID: mmsi, Valid: true, NavigationalStatus: 0, Sog: 10, Cog: 90, TrueHeading: 90, Latitude: lat, Longitude: lon } } });
}

/** Positions from the Baltic snapshot, repeated with the time moved on by one second per round, until `n`. */
function positions(n: number, base: number): { mmsi: number; lat: number; lon: number; time: number }[] {
  const snapshot = digitrafficLocations(base, 100_000).map((m) => ({ mmsi: m.mmsi, ...(JSON.parse(m.payload) as { lat: number; lon: number }) }));
  const out: { mmsi: number; lat: number; lon: number; time: number }[] = [];
  for (let round = 0; out.length < n; round++) for (const p of snapshot) if (out.length < n) out.push({ mmsi: p.mmsi, lat: p.lat, lon: p.lon, time: base + round * 1_000 });
  return out;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "mds-bench-feeds-"));
  const s = await createService(parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }, PROJECT_ROOT), {
    feeds: { statusMs: 60_000, reconcileMs: 600_000, tuning: { silentAfterMs: 600_000, pollIntervalMs: 600_000 } },
  });
  await s.feeds.start();
  const account = await s.services.accounts.createAccount({ name: "bench", webPlan: null, apiPlan: "scale" });
  const { key } = await s.services.accounts.createKey(account.id);
  const rows: { connector: string; messages: number; stored: number; seconds: number }[] = [];
  const base = Date.now() - 6 * 3_600_000;

  // --- throughput ---
  {
    const capture = captureLines();
    const lines: string[] = [];
    for (let k = 0; lines.length < MESSAGES; k++) for (const l of shifted(capture, k * 10)) if (lines.length < MESSAGES) lines.push(l);
    const server = await tcpFeed();
    const feed = await addFeed(s, "bench-kystverket", "kystverket", `tcp://127.0.0.1:${server.port}`);
    await server.connected();
    const t0 = performance.now();
    for (let at = 0; at < lines.length; at += 1_000) await server.send(`${lines.slice(at, at + 1_000).join("\r\n")}\r\n`);
    const t1 = await drained(s, "bench-kystverket", lines.length);
    rows.push({ connector: "kystverket (TCP, NMEA)", messages: lines.length, stored: await s.services.positions.countPositions(feed.stationId), seconds: (t1 - t0) / 1000 });
    await server.close();
  }
  {
    const broker = await startMosquitto();
    const feed = await addFeed(s, "bench-digitraffic", "digitraffic", broker.wsUrl);
    const ps = positions(MESSAGES, base);
    const t0 = performance.now();
    for (const p of ps) {
      const payload = JSON.stringify({ time: Math.floor(p.time / 1000), sog: 10, cog: 90, navStat: 0, rot: 0, posAcc: true, raim: false, heading: 90, lon: p.lon, lat: p.lat });
      broker.publisher.publish(`vessels-v2/${p.mmsi}/location`, payload);
    }
    const t1 = await drained(s, "bench-digitraffic", ps.length);
    rows.push({ connector: "digitraffic (MQTT over WebSocket, JSON)", messages: ps.length, stored: await s.services.positions.countPositions(feed.stationId), seconds: (t1 - t0) / 1000 });
    await s.services.feeds.remove("bench-digitraffic");
    await s.feeds.reconcile();
    await broker.close();
  }
  {
    const server = await wsFeed();
    const feed = await addFeed(s, "bench-aisstream", "aisstream", server.url, "bench-key");
    await server.subscribed();
    const frames = positions(MESSAGES, base + 7_200_000).map((p) => aisstreamEnvelope(p.mmsi, p.lat, p.lon, p.time));
    const t0 = performance.now();
    server.send(frames);
    const t1 = await drained(s, "bench-aisstream", frames.length);
    rows.push({ connector: "aisstream (WebSocket, JSON)", messages: frames.length, stored: await s.services.positions.countPositions(feed.stationId), seconds: (t1 - t0) / 1000 });
    await server.close();
  }
  {
    const ps = positions(MESSAGES, base + 14_400_000);
    const body = JSON.stringify([
      { ERROR: false, USERNAME: "AH_BENCH", FORMAT: "AIS", RECORDS: ps.length },
      ps.map((p) => ({ MMSI: p.mmsi, TIME: String(Math.floor(p.time / 1000)), LATITUDE: Math.round(p.lat * 600_000), LONGITUDE: Math.round(p.lon * 600_000), COG: 900, SOG: 100, HEADING: 90, NAVSTAT: 0 })),
    ]);
    let t0 = 0;
    const mock = await aishubMock(() => {
      t0 = performance.now();
      return body;
    });
    const feed = await s.services.feeds.add({ name: "bench-aishub", kind: "aishub", url: mock.url, key: "AH_BENCH" });
    await s.feeds.reconcile();
    const t1 = await drained(s, "bench-aishub", ps.length);
    rows.push({ connector: "aishub (HTTP poll, JSON)", messages: ps.length, stored: await s.services.positions.countPositions(feed.stationId), seconds: (t1 - t0) / 1000 });
    await s.services.feeds.remove("bench-aishub");
    await s.feeds.reconcile();
    await mock.close();
  }

  console.log(`\nthroughput, ${MESSAGES} reports per connector, into SQLite:`);
  console.log("| connector | reports sent | positions stored | seconds | positions/s |");
  console.log("|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.connector} | ${r.messages} | ${r.stored} | ${r.seconds.toFixed(2)} | ${Math.round(r.stored / r.seconds)} |`);

  // --- latency: arrival to store, arrival to vessel page ---
  const lat: { connector: string; store: number[]; page: number[] }[] = [];
  const measure = async (connector: string, stationId: number, firstMmsi: number, send: (mmsi: number, time: number) => Promise<void> | void) => {
    const store: number[] = [];
    const page: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const mmsi = firstMmsi + i;
      const time = Date.now() - 1_000;
      const t0 = performance.now();
      await send(mmsi, time);
      for (;;) {
        const fixes = await s.services.positions.latest([stationId], time - 5_000);
        if (fixes.some((f) => f.mmsi === mmsi)) break;
        await new Promise((r) => setTimeout(r, 1));
      }
      store.push(performance.now() - t0);
      for (;;) {
        const res = await s.app.inject({ method: "GET", url: `/api/v1/vessels/mmsi-${mmsi}`, headers: { authorization: `Bearer ${key}` } });
        // The page answers with the fix, or says it is withheld (aisstream.io permits no commercial use; the key is a scale plan's).
        const body = res.json() as { data?: { lastPosition: unknown }; withheld?: unknown[] };
        if (res.statusCode === 200 && (body.data?.lastPosition || JSON.stringify(body.withheld).includes("lastPosition"))) break;
        await new Promise((r) => setTimeout(r, 1));
      }
      page.push(performance.now() - t0);
    }
    lat.push({ connector, store, page });
  };
  {
    const server = await tcpFeed();
    await s.services.feeds.remove("bench-kystverket");
    await s.feeds.reconcile();
    const feed = await addFeed(s, "lat-kystverket", "kystverket", `tcp://127.0.0.1:${server.port}`);
    await server.connected();
    await measure("kystverket", feed.stationId, 257_100_000, (mmsi, time) => {
      const [line] = toSentences(encodePositionA({ mmsi, lat: 60, lon: 5, sog: 10, cog: 90, heading: 90, navStatus: 0 }), { time, station: "2573010", talker: "BS" });
      return server.send(`${line}\r\n`);
    });
    await server.close();
  }
  {
    const broker = await startMosquitto();
    const feed = await addFeed(s, "lat-digitraffic", "digitraffic", broker.wsUrl);
    await measure("digitraffic", feed.stationId, 230_100_000, (mmsi, time) =>
      broker.publisher.publishAsync(`vessels-v2/${mmsi}/location`, JSON.stringify({ time: Math.floor(time / 1000), sog: 10, cog: 90, navStat: 0, rot: 0, posAcc: true, raim: false, heading: 90, lon: 22, lat: 60 })).then(() => undefined),
    );
    await broker.close();
  }
  {
    const server = await wsFeed();
    await s.services.feeds.remove("bench-aisstream");
    await s.feeds.reconcile();
    const feed = await addFeed(s, "lat-aisstream", "aisstream", server.url, "bench-key");
    await server.subscribed();
    await measure("aisstream", feed.stationId, 244_100_000, (mmsi, time) => server.send([aisstreamEnvelope(mmsi, 52, 5, time)]));
    await server.close();
  }
  console.log(`\nlatency, ${SAMPLES} single reports per connector (ms from sending to: the fix in the store / GET /api/v1/vessels/mmsi-<n> answering with it):`);
  console.log("| connector | store p50 | store p99 | vessel page p50 | vessel page p99 |");
  console.log("|---|---|---|---|---|");
  for (const l of lat) console.log(`| ${l.connector} | ${percentile(l.store, 50).toFixed(0)} | ${percentile(l.store, 99).toFixed(0)} | ${percentile(l.page, 50).toFixed(0)} | ${percentile(l.page, 99).toFixed(0)} |`);

  await s.close();
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
