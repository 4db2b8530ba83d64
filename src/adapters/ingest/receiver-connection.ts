import { connect, type Socket } from "node:net";
import type { ConnectTarget } from "../../domain/stations/connect-target.ts";
import type { IngestStation } from "../../interfaces/positions.ts";
import { holdWhileOverloaded } from "./back-pressure.ts";
import { LineSplitter } from "./lines.ts";
import type { IngestPipeline } from "./pipeline.ts";
import { STATION_COUNTERS } from "./station-counters.ts";

export interface ReceiverConnectionOptions {
  /** First wait after a failure; doubled per failure up to `maxBackoffMs` (defaults 1 s and 5 minutes). */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Connected but silent this long: the connection is dropped and made again (default 5 minutes). */
  silenceMs?: number;
  connectTimeoutMs?: number;
  maxLineBytes?: number;
}

export type ReceiverConnectionState = "connecting" | "connected" | "waiting" | "closed";

/** A connection that lasted this long before it ended was healthy: the next wait starts from the minimum again. */
const HEALTHY_MS = 60_000;

/**
 * The service as a client of a receiver's own TCP server (AIS-catcher `-S`, rtl-ais `-T`,
 * Signal K's NMEA 0183 server, OpenCPN's TCP output): connect, read NMEA lines as the
 * station's, and on any end reconnect after a capped exponential backoff with jitter, so
 * a receiver that restarts is found again and one that is down is not hammered. A
 * connection that stays silent past `silenceMs` is treated as dead (routers drop idle
 * flows without telling either side), counted, and made again.
 */
export class ReceiverConnection {
  readonly #pipeline: IngestPipeline;
  readonly #station: IngestStation;
  readonly #target: ConnectTarget;
  readonly #opt: Required<ReceiverConnectionOptions>;
  #socket: Socket | null = null;
  #timer: NodeJS.Timeout | null = null;
  #backoff: number;
  #state: ReceiverConnectionState = "waiting";
  #connections = 0;

  constructor(pipeline: IngestPipeline, station: IngestStation, target: ConnectTarget, options: ReceiverConnectionOptions = {}) {
    this.#pipeline = pipeline;
    this.#station = station;
    this.#target = target;
    this.#opt = { minBackoffMs: 1_000, maxBackoffMs: 5 * 60_000, silenceMs: 5 * 60_000, connectTimeoutMs: 10_000, maxLineBytes: 4096, ...options };
    this.#backoff = this.#opt.minBackoffMs;
  }

  get state(): ReceiverConnectionState {
    return this.#state;
  }

  get target(): ConnectTarget {
    return this.#target;
  }

  /** Connections made so far (tests and status). */
  get connections(): number {
    return this.#connections;
  }

  start(): void {
    if (this.#state === "closed" || this.#socket) return;
    this.#connect();
  }

  close(): void {
    this.#state = "closed";
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#socket?.destroy();
    this.#socket = null;
    this.#gauge(0);
  }

  #connect(): void {
    this.#state = "connecting";
    const station = this.#station;
    const socket = connect({ host: this.#target.host, port: this.#target.port, noDelay: true, keepAlive: true, keepAliveInitialDelay: 60_000 });
    this.#socket = socket;
    socket.setEncoding("latin1");
    const source = `connect:${this.#target.host}:${this.#target.port}:${this.#connections + 1}`;
    const splitter = new LineSplitter(this.#opt.maxLineBytes);
    let connectedAt = 0;
    let reason = "refused";
    const held = { on: false };
    socket.setTimeout(this.#opt.connectTimeoutMs);
    socket.on("connect", () => {
      connectedAt = performance.now();
      this.#connections++;
      this.#state = "connected";
      reason = "closed";
      this.#gauge(1);
      socket.setTimeout(this.#opt.silenceMs);
      // An empty submit marks the station heard: connected is alive, even before the first ship.
      this.#pipeline.submit(station, [], { source, transport: "connect" }, { wait: false });
    });
    socket.on("data", (chunk: string) => {
      const { lines, oversized } = splitter.push(chunk);
      if (oversized > 0) this.#pipeline.count(station, STATION_COUNTERS.oversized, oversized);
      if (lines.length > 0) this.#pipeline.submit(station, lines, { source, transport: "connect" }, { wait: false });
      holdWhileOverloaded(this.#pipeline, socket, held);
    });
    socket.on("timeout", () => {
      reason = connectedAt === 0 ? "connect_timeout" : "silent";
      socket.destroy();
    });
    socket.on("error", () => {
      if (connectedAt !== 0) reason = "error";
    });
    socket.on("close", () => {
      const rest = splitter.end();
      if (rest.line !== null) this.#pipeline.submit(station, [rest.line], { source, transport: "connect" }, { wait: false });
      if (this.#socket === socket) this.#socket = null;
      this.#gauge(0);
      if (this.#state === "closed") return;
      this.#pipeline.metrics.receiverReconnects.inc({ station: String(station.id), reason });
      this.#pipeline.count(station, `connect_${reason}`);
      if (connectedAt !== 0 && performance.now() - connectedAt >= HEALTHY_MS) this.#backoff = this.#opt.minBackoffMs;
      this.#state = "waiting";
      // Full jitter over the upper half: receivers restarted together do not get reconnects in lockstep.
      const wait = this.#backoff / 2 + Math.random() * (this.#backoff / 2);
      this.#backoff = Math.min(this.#opt.maxBackoffMs, this.#backoff * 2);
      this.#timer = setTimeout(() => {
        this.#timer = null;
        if (this.#state !== "closed") this.#connect();
      }, wait);
      this.#timer.unref();
    });
  }

  #gauge(v: 0 | 1): void {
    this.#pipeline.metrics.receiverConnected.set({ station: String(this.#station.id) }, v);
  }
}
