import { createReadStream } from "node:fs";
import { isIP } from "node:net";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { hashSecret, newSecret } from "../../domain/secrets.ts";
import type { ServiceCore as Service } from "../../compose/services.ts";
import { stationHealth, type StationHealth } from "../../operations/projections/station-health.ts";
import type { IngestStation } from "../../ports/positions.ts";
import { ensureDemoUser } from "../web/demo-user.ts";
import { LineSplitter } from "./lines.ts";
import { directSender, parseTarget, type Simulator, senderFor, startSimulator } from "./simulator/index.ts";

/** What `mds ingest` reports when done. */
export interface IngestSummary {
  station: number;
  lines: number;
  messages: number;
  positions: number;
  invalidPositions: number;
  statics: number;
  rejected: number;
  reasons: Record<string, number>;
}

/** Lines per submit: bounds memory on a large file while keeping batches full. */
const CHUNK_LINES = 5_000;

/**
 * `mds ingest --station <id> [file]`: NMEA lines from a file (`.gz` too) or stdin into
 * the store as that station's, through the same pipeline as the listeners. The operator
 * runs it on the service's machine, so the station id is enough (no secret). Fixes
 * without a tag-block time get the time of reading.
 */
export async function ingestStream(service: Service, stationId: number, input: Readable): Promise<IngestSummary> {
  const station = await service.services.positions.stationById(stationId);
  if (!station) throw new IngestUsageError(`--station ${stationId}: no such station`);
  const pipeline = service.ingest.pipeline;
  const splitter = new LineSplitter(4096);
  const sum: IngestSummary = { station: stationId, lines: 0, messages: 0, positions: 0, invalidPositions: 0, statics: 0, rejected: 0, reasons: {} };
  let pending: string[] = [];
  const submit = async (lines: string[]) => {
    const r = pipeline.submit(station, lines, { source: "file", transport: "file" }, { detail: true });
    sum.lines += r.lines;
    sum.messages += r.messages;
    sum.positions += r.positions;
    sum.invalidPositions += r.invalidPositions;
    sum.statics += r.statics;
    sum.rejected += r.rejected;
    for (const [k, n] of Object.entries(r.reasons)) sum.reasons[k] = (sum.reasons[k] ?? 0) + n;
    // Write now rather than wait for the flush timer: it does not keep a process alive on its own.
    await pipeline.flush();
    await r.stored;
  };
  input.setEncoding("latin1");
  for await (const chunk of input) {
    const { lines, oversized } = splitter.push(chunk as string);
    if (oversized > 0) {
      pipeline.count(station, "oversized_lines", oversized);
      sum.lines += oversized;
      sum.rejected += oversized;
      sum.reasons.line_too_long = (sum.reasons.line_too_long ?? 0) + oversized;
    }
    for (const l of lines) pending.push(l);
    if (pending.length >= CHUNK_LINES) {
      const lines = pending;
      pending = [];
      await submit(lines);
    }
  }
  const last = splitter.end().line;
  if (last !== null) pending.push(last);
  if (pending.length > 0) await submit(pending);
  await pipeline.flush();
  return sum;
}

/** The file (gunzipped when `.gz`), or `stdin` for none or `-`. */
export function openInput(file: string | undefined, stdin: Readable): Readable {
  if (file === undefined || file === "-") return stdin;
  const stream = createReadStream(file);
  return file.endsWith(".gz") ? stream.pipe(createGunzip()) : stream;
}

export class IngestUsageError extends Error {}

/** `mds stations list --account <id>`: stations with their ingest counters. */
export async function stationsReport(service: Service, accountId: string): Promise<StationHealth[]> {
  const stations = await service.services.stations.listStations(accountId);
  const counters = new Map((await service.services.positions.counters(stations.map((s) => s.id))).map((c) => [c.stationId, c]));
  return stations.map((s) => stationHealth(s, counters.get(s.id)));
}

export function formatStation(h: StationHealth): string {
  return [
    `${h.id}  ${h.name}${h.shared ? " (shared)" : ""}  last heard ${h.lastHeardAt ?? "never"}`,
    `    lines ${h.lines}, messages ${h.messages} (${Object.entries(h.messagesByType).map(([t, n]) => `type ${t}: ${n}`).join(", ") || "none"})`,
    `    positions ${h.positions}, invalid ${h.invalidPositions}, static reports ${h.staticReports}`,
    `    rejected lines ${h.rejectedLines}, bad checksums ${h.badChecksums}, dropped fragments ${h.droppedFragments}, unauthenticated ${h.unauthenticated}, UDP lost ${h.udpLost}`,
  ].join("\n");
}

export interface DemoSetup {
  sandboxKey: string;
  proKey: string;
  accountId: string;
  station: IngestStation;
  secret: string;
  /** Signs in to the demo account's pages. */
  user: { email: string; password: string };
}

export const DEMO_ACCOUNT = "demo";
export const DEMO_SANDBOX_ACCOUNT = "demo sandbox";
export const DEMO_STATION = "demo station";

/**
 * `serve --demo`: a sandbox account with a key (public data only), and the `demo` account
 * on Pro (private feeds) owning one station that the built-in simulator feeds. The
 * station keeps its id and data across restarts; its secret is replaced on each start
 * because only its hash is stored and the simulator needs the secret itself.
 */
export async function setupDemo(service: Service): Promise<DemoSetup> {
  const accounts = service.services.accounts;
  const sandbox = (await accounts.findAccountByName(DEMO_SANDBOX_ACCOUNT)) ?? (await accounts.createAccount({ name: DEMO_SANDBOX_ACCOUNT, webPlan: "sandbox", apiPlan: null }));
  const demo = (await accounts.findAccountByName(DEMO_ACCOUNT)) ?? (await accounts.createAccount({ name: DEMO_ACCOUNT, webPlan: "pro", apiPlan: null }));
  // Data dirs from before the demo feed had the demo account on sandbox.
  if (demo.webPlan !== "pro") await accounts.setPlan(demo.id, "web", "pro");
  const sandboxKey = (await accounts.createKey(sandbox.id, "demo sandbox key")).key;
  const proKey = (await accounts.createKey(demo.id, "demo pro key")).key;
  const existing = (await service.services.stations.listStations(demo.id)).find((s) => s.name === DEMO_STATION);
  let stationId: number;
  let secret: string;
  if (existing) {
    secret = newSecret("mds_st");
    await service.store.db.updateTable("stations").set({ secret_hash: hashSecret(secret) }).where("id", "=", existing.id).execute();
    stationId = existing.id;
  } else {
    const created = await service.services.stations.createStation(demo.id, DEMO_STATION);
    stationId = created.station.id;
    secret = created.secret;
  }
  service.ingest.directory.forget();
  const station = await service.services.positions.stationById(stationId);
  if (!station) throw new Error("demo station vanished");
  const user = await ensureDemoUser(service.store.db, service.services.clock, demo.id);
  return { sandboxKey, proKey, accountId: demo.id, station, secret, user };
}

/** Where a local client reaches a listener bound to `host` (a wildcard address means this machine). */
export function loopbackFor(host: string): string {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::") return "::1";
  return isIP(host) === 0 && host !== "localhost" ? "127.0.0.1" : host;
}

/** The demo station's simulator, in process: over the TCP listener when it runs (the real path), else straight into the pipeline. */
export function startDemoSimulator(service: Service, demo: DemoSetup, tcpPort: number | null, datasetsDir: string, onError: (message: string) => void): Simulator {
  const sender =
    tcpPort !== null
      ? senderFor({ kind: "tcp", host: loopbackFor(service.config.host), port: tcpPort }, demo.station.id, demo.secret, onError)
      : directSender(service.ingest.pipeline, demo.station);
  return startSimulator(sender, { datasetsDir, vessels: 200, stationTag: "demo" });
}

export interface SimulateArgs {
  station?: string;
  secret?: string;
  target?: string;
  vessels?: string;
}

/**
 * `mds simulate`: a simulated station sending to a running service. With --station and
 * --secret it is that station; without, it creates a station on the demo account of the
 * local store and prints its id and secret (the store must be the server's).
 */
export async function prepareSimulate(args: SimulateArgs, createLocalStation: () => Promise<{ id: number; secret: string }>) {
  const target = parseTarget(args.target ?? "tcp://127.0.0.1:5631");
  const vessels = args.vessels === undefined ? 200 : Number(args.vessels);
  if (!Number.isInteger(vessels) || vessels < 1) throw new IngestUsageError("--vessels must be a whole number of at least 1");
  if ((args.station === undefined) !== (args.secret === undefined)) throw new IngestUsageError("give --station and --secret together, or neither");
  let id: number;
  let secret: string;
  if (args.station !== undefined && args.secret !== undefined) {
    id = Number(args.station);
    secret = args.secret;
    if (!Number.isInteger(id) || id < 1) throw new IngestUsageError("--station must be a station id (a whole number)");
  } else {
    ({ id, secret } = await createLocalStation());
  }
  return { target, vessels, id, secret };
}
