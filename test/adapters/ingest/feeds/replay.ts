import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectAsync, type MqttClient } from "mqtt";
import { WebSocketServer, type WebSocket } from "ws";
import { tool } from "../../../helpers/system-tools.ts";

/** Real captures and snapshots the local replays serve (provenance in test/fixtures/feeds/README.md). */
export const KYSTVERKET_CAPTURE = join(import.meta.dirname, "../../../fixtures/feeds/kystverket_2026.nmea");
export const DIGITRAFFIC_SNAPSHOT = join(import.meta.dirname, "../../../../../shared/data/ais_positions/digitraffic_baltic_snapshot_2025-12-11.csv");

export function captureLines(): string[] {
  return readFileSync(KYSTVERKET_CAPTURE, "latin1").split("\n").filter((l) => l.trim() !== "");
}

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** A Kystverket-like TCP server: writes `lines` (CR LF) to each client, then keeps the socket open (or stays silent). */
export async function tcpReplay(lines: () => string[]): Promise<{ port: number; connections: number; mostAtOnce: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const state = { port: 0, connections: 0, mostAtOnce: 0, close: async () => {} };
  const server: Server = createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    state.mostAtOnce = Math.max(state.mostAtOnce, sockets.size);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    const out = lines();
    if (out.length > 0) socket.write(`${out.join("\r\n")}\r\n`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  state.port = (server.address() as { port: number }).port;
  state.close = () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  return state;
}

/** The Mosquitto found or installed for the run (test/helpers/system-tools.ts). */
const MOSQUITTO = tool("mosquitto");

/** Why the tests needing Mosquitto are skipped (one line), or false: they pass it as `skip`. */
export const NO_MOSQUITTO: string | false = MOSQUITTO.path ? false : MOSQUITTO.note;

/** A Mosquitto of our own: a plain MQTT listener (the test publishes there) and a WebSocket listener (the connector's). */
export async function startMosquitto(): Promise<{ wsUrl: string; publisher: MqttClient; close(): Promise<void> }> {
  if (!MOSQUITTO.path) throw new Error(MOSQUITTO.note);
  const [wsPort, mqttPort] = [await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), "mds-mosquitto-"));
  const conf = join(dir, "mosquitto.conf");
  writeFileSync(conf, [`listener ${wsPort} 127.0.0.1`, "protocol websockets", `listener ${mqttPort} 127.0.0.1`, "allow_anonymous true", "persistence false", ""].join("\n"));
  const proc: ChildProcess = spawn(MOSQUITTO.path, ["-c", conf], { stdio: ["ignore", "ignore", "pipe"] });
  let publisher: MqttClient | null = null;
  for (let i = 0; i < 100 && !publisher; i++) {
    publisher = await connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { reconnectPeriod: 0, connectTimeout: 1_000 }).catch(() => null);
    if (!publisher) await new Promise((r) => setTimeout(r, 50));
  }
  if (!publisher) {
    proc.kill();
    throw new Error("mosquitto did not start");
  }
  return {
    wsUrl: `ws://127.0.0.1:${wsPort}/mqtt`,
    publisher,
    async close() {
      await publisher.endAsync(true).catch(() => undefined);
      proc.kill();
      await new Promise((r) => (proc.exitCode !== null ? r(null) : proc.once("exit", r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Digitraffic location messages built from the Baltic snapshot (one per vessel with a position), stamped `time`. */
export function digitrafficLocations(time: number, limit: number): { topic: string; payload: string; mmsi: number }[] {
  const rows = readFileSync(DIGITRAFFIC_SNAPSHOT, "utf8").split("\n").slice(1).filter((l) => l !== "");
  const out: { topic: string; payload: string; mmsi: number }[] = [];
  for (const row of rows) {
    // collected_at,mmsi,name,latitude,longitude,sog,cog,heading,nav_stat,ship_type,destination,eta,draught,pos_acc (names may hold commas: read from both ends)
    const f = row.split(",");
    const mmsi = Number(f[1]);
    const [lat, lon, sog, cog, heading, navStat] = [f[f.length - 11], f[f.length - 10], f[f.length - 9], f[f.length - 8], f[f.length - 7], f[f.length - 6]].map(Number);
    if (!(mmsi >= 100_000_000 && mmsi <= 999_999_999) || !Number.isFinite(lat) || !Number.isFinite(lon)) continue;
    const payload = JSON.stringify({ time: Math.floor(time / 1000), sog, cog, navStat, rot: 0, posAcc: f[f.length - 1] === "1", raim: false, heading, lon, lat });
    out.push({ topic: `vessels-v2/${mmsi}/location`, payload, mmsi });
    if (out.length >= limit) break;
  }
  return out;
}

/** An aisstream-like WebSocket server: checks the subscription (key, lat-first boxes), then sends `frames`. */
export async function aisstreamMock(apiKey: string, frames: () => string[]): Promise<{ url: string; subscriptions: unknown[]; close(): Promise<void> }> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/v0/stream" });
  await new Promise((r) => wss.once("listening", r));
  const subscriptions: unknown[] = [];
  wss.on("connection", (ws: WebSocket) => {
    const deadline = setTimeout(() => ws.close(1008, "no subscription"), 3_000);
    ws.once("message", (data) => {
      clearTimeout(deadline);
      const sub = JSON.parse(String(data)) as { APIKey?: string; BoundingBoxes?: number[][][] };
      subscriptions.push(sub);
      if (sub.APIKey !== apiKey) {
        ws.send(JSON.stringify({ error: "Api Key Is Not Valid" }));
        ws.close();
        return;
      }
      for (const f of frames()) ws.send(f);
    });
  });
  const port = (wss.address() as { port: number }).port;
  return {
    url: `ws://127.0.0.1:${port}/v0/stream`,
    subscriptions,
    close: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => r());
      }),
  };
}

/** An AISHub-like web service: answers every poll with `body()`, recording the query strings. */
export async function aishubMock(body: () => string): Promise<{ url: string; queries: URLSearchParams[]; close(): Promise<void> }> {
  const queries: URLSearchParams[] = [];
  const server: HttpServer = createHttpServer((req, res) => {
    queries.push(new URL(req.url ?? "/", "http://x").searchParams);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/ws.php`, queries, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * Polls `f` until it gives a value. The bound is generous on purpose: it only ends a run that
 * would wait forever, and a machine loaded many times over its cores (the whole suite beside
 * other jobs) took over 15 s to carry 200 feed messages through ingest.
 */
export async function until<T>(what: string, f: () => Promise<T | null | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
