import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { createServer, type Server, type Socket } from "node:net";
import { allowFromMatcher } from "../../domain/stations/allow-from.ts";
import type { IngestStation } from "../../interfaces/positions.ts";
import { holdWhileOverloaded } from "./back-pressure.ts";
import { LineSplitter } from "./lines.ts";
import type { IngestPipeline } from "./pipeline.ts";
import { STATION_COUNTERS } from "./station-counters.ts";

/** A station's plain port as the listener needs it: whose lines, and from where they may come. */
export interface PlainStation {
  station: IngestStation;
  /** CIDRs senders must be in; null: any address. */
  allowFrom: readonly string[] | null;
}

export interface PlainListenerOptions {
  host: string;
  port: number;
  /** A TCP sender silent for this long is let go (default 5 minutes). */
  idleTimeoutMs?: number;
  /** Open TCP connections at most on one station's port (default 8: a receiver, a spare, a restart overlapping). */
  maxConnections?: number;
  maxLineBytes?: number;
}

export interface PlainListener {
  port: number;
  /** New settings (another --allow-from) apply to the next datagram or connection. */
  update(station: PlainStation): void;
  close(): Promise<void>;
}

/** Bytes read from a refused TCP sender before it is let go: enough to count its lines, not to be a sink. */
const REFUSED_READ_LIMIT = 64 * 1024;

/**
 * A station's own port for plain NMEA, over UDP and TCP on the same number: what AIS-catcher
 * (`-u`, `-P`), rtl-ais, OpenCPN, Signal K and gps2udp send, with no login line and no
 * signed header. The port is the station's identity, as aggregators assign one per
 * station; `--allow-from` narrows who may use it. Lines from other addresses are counted
 * (`address_not_allowed`) and dropped, never decoded. Nothing is ever written back.
 */
export async function startPlainListener(pipeline: IngestPipeline, initial: PlainStation, options: PlainListenerOptions): Promise<PlainListener> {
  let current = initial;
  let allowed = matcherOf(initial);
  const idleTimeoutMs = options.idleTimeoutMs ?? 5 * 60_000;
  const maxLine = options.maxLineBytes ?? 4096;
  const sockets = new Set<Socket>();
  let nextId = 1;

  const udp: UdpSocket = createSocket({ type: options.host.includes(":") ? "udp6" : "udp4", recvBufferSize: 1024 * 1024 });
  udp.on("message", (msg, rinfo) => {
    try {
      const lines = msg.toString("latin1").split("\n").filter((l) => l.length > 1);
      if (!allowed(rinfo.address)) {
        pipeline.notAllowed("plain_udp", current.station, Math.max(1, lines.length));
        return;
      }
      if (lines.length === 0) return;
      if (pipeline.overloaded) {
        pipeline.overloadDrop("plain_udp", current.station, lines.length);
        return;
      }
      pipeline.submit(current.station, lines, { source: `plain-udp:${rinfo.address}:${rinfo.port}`, transport: "plain_udp" }, { wait: false });
    } catch {
      // A datagram must never take the listener down.
      pipeline.count(current.station, "plain_udp_errors");
    }
  });
  udp.on("error", () => {});

  const tcp: Server = createServer({ noDelay: true, keepAlive: true, keepAliveInitialDelay: 60_000 }, (socket) => {
    const address = socket.remoteAddress ?? "";
    const station = current.station;
    socket.setEncoding("latin1");
    socket.on("error", () => {});
    if (!allowed(address)) return refuse(socket, station);
    if (sockets.size >= (options.maxConnections ?? 8)) {
      pipeline.metrics.tcpRefused.inc({ reason: "station_port_cap" });
      socket.destroy();
      return;
    }
    sockets.add(socket);
    pipeline.metrics.connections.inc();
    const source = `plain-tcp:${nextId++}`;
    const splitter = new LineSplitter(maxLine);
    const held = { on: false };
    socket.setTimeout(idleTimeoutMs);
    socket.on("data", (chunk: string) => {
      const { lines, oversized } = splitter.push(chunk);
      if (oversized > 0) pipeline.count(station, STATION_COUNTERS.oversized, oversized);
      if (lines.length > 0) pipeline.submit(station, lines, { source, transport: "plain_tcp" }, { wait: false });
      holdWhileOverloaded(pipeline, socket, held);
    });
    socket.on("end", () => {
      const rest = splitter.end();
      if (rest.oversized > 0) pipeline.count(station, STATION_COUNTERS.oversized, rest.oversized);
      if (rest.line !== null) pipeline.submit(station, [rest.line], { source, transport: "plain_tcp" }, { wait: false });
      socket.end();
    });
    socket.on("timeout", () => {
      pipeline.count(station, STATION_COUNTERS.idleClosed);
      socket.destroy();
    });
    socket.on("close", () => {
      sockets.delete(socket);
      pipeline.metrics.connections.dec();
    });
  });
  tcp.maxConnections = 64;

  /** A sender outside the allow list: its lines are counted, then it is let go. */
  function refuse(socket: Socket, station: IngestStation): void {
    const splitter = new LineSplitter(maxLine);
    let read = 0;
    let counted = 0;
    const count = (n: number) => {
      if (n > 0) {
        counted += n;
        pipeline.notAllowed("plain_tcp", station, n);
      }
    };
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on("data", (chunk: string) => {
      read += chunk.length;
      const { lines, oversized } = splitter.push(chunk);
      count(lines.length + oversized);
      if (read > REFUSED_READ_LIMIT) socket.destroy();
    });
    socket.on("end", () => {
      const rest = splitter.end();
      count((rest.line !== null ? 1 : 0) + rest.oversized);
      // A connection that sent nothing is still one refused sender.
      if (counted === 0) count(1);
      socket.destroy();
    });
  }

  try {
    await listen(tcp, options.port, options.host);
    await new Promise<void>((resolve, reject) => {
      udp.once("error", reject);
      udp.bind(options.port, options.host, () => {
        udp.off("error", reject);
        resolve();
      });
    });
  } catch (e) {
    tcp.close();
    try {
      udp.close();
    } catch {
      // not bound
    }
    throw e;
  }
  pipeline.metrics.plainPorts.inc();
  return {
    port: options.port,
    update(next) {
      current = next;
      allowed = matcherOf(next);
    },
    close: async () => {
      pipeline.metrics.plainPorts.dec();
      for (const s of sockets) s.destroy();
      await Promise.all([new Promise<void>((resolve) => tcp.close(() => resolve())), new Promise<void>((resolve) => udp.close(() => resolve()))]);
    },
  };
}

function matcherOf(p: PlainStation): (address: string) => boolean {
  return p.allowFrom === null ? () => true : allowFromMatcher(p.allowFrom);
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}
