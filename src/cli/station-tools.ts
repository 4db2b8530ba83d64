import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type { ServiceCore as Service } from "../compose/services.ts";
import { stationHealth, type StationHealth } from "../operations/projections/station-health.ts";
import { LineSplitter } from "../adapters/ingest/lines.ts";
import { parseTarget } from "../adapters/ingest/simulator/index.ts";

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
