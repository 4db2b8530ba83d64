import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { connect, isIPv6, type Socket } from "node:net";
import { signDatagram, udpKeyFromSecret } from "../udp-signature.ts";

/** Where a simulated station sends: as a real forwarder would, over TCP, signed UDP or HTTP. */
export type Target = { kind: "tcp" | "udp"; host: string; port: number } | { kind: "http"; url: string };

export function parseTarget(text: string): Target {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new Error(`--target ${text}: must be tcp://host:port, udp://host:port or http(s)://host[:port][/ingest/nmea]`);
  }
  const host = u.hostname.replace(/^\[|\]$/g, "");
  if (u.protocol === "tcp:" || u.protocol === "udp:") {
    const port = Number(u.port);
    if (!host || !(port > 0)) throw new Error(`--target ${text}: needs a host and a port`);
    return { kind: u.protocol === "tcp:" ? "tcp" : "udp", host, port };
  }
  if (u.protocol === "http:" || u.protocol === "https:") {
    if (u.pathname === "/" || u.pathname === "") u.pathname = "/ingest/nmea";
    return { kind: "http", url: u.toString() };
  }
  throw new Error(`--target ${text}: unknown scheme ${u.protocol}; use tcp:, udp: or http:`);
}

export interface Sender {
  send(lines: string[]): void;
  /** Lines handed over to the transport (written to the socket, datagrams sent, POSTs answered 200). */
  sent(): number;
  /** Lines the server acknowledged (TCP ACK, HTTP 200); UDP has no acknowledgements. */
  acknowledged(): number;
  /** Lines given up (queue overflow while disconnected, failed POSTs). */
  dropped(): number;
  close(): Promise<void>;
}

/** Lines held while the TCP connection is down (about 10 minutes of a busy station). */
const MAX_QUEUE = 50_000;
/** One datagram stays under a typical 1500-byte MTU. */
const MAX_DATAGRAM = 1_400;

/**
 * A TCP sender that behaves like a station's forwarder: one connection, `AUTH <secret>`,
 * then lines; reconnects with back-off when the connection drops, holding lines meanwhile.
 */
export function tcpSender(target: { host: string; port: number }, secret: string, onError: (message: string) => void = () => {}): Sender {
  let socket: Socket | null = null;
  let ready = false;
  let closed = false;
  let queue: string[] = [];
  let sent = 0;
  let acked = 0;
  let ackBase = 0;
  let dropped = 0;
  let backoff = 500;
  let timer: NodeJS.Timeout | null = null;

  const flush = () => {
    if (!socket || !ready || queue.length === 0) return;
    const lines = queue;
    queue = [];
    sent += lines.length;
    socket.write(`${lines.join("\r\n")}\r\n`);
  };

  const open = () => {
    if (closed) return;
    const s = connect({ host: target.host, port: target.port, noDelay: true });
    socket = s;
    ready = false;
    let text = "";
    s.setEncoding("latin1");
    s.on("connect", () => s.write(`AUTH ${secret}\n`));
    s.on("data", (chunk: string) => {
      text += chunk;
      let nl = text.indexOf("\n");
      while (nl >= 0) {
        const line = text.slice(0, nl).trim();
        text = text.slice(nl + 1);
        if (line.startsWith("OK ")) {
          ready = true;
          backoff = 500;
          // ACK counts restart on every connection.
          ackBase = sent;
          flush();
        } else if (line.startsWith("ACK ")) {
          acked = ackBase + Number(line.slice(4));
        } else if (line.startsWith("ERR")) {
          onError(`the server refused the station: ${line}`);
        }
        nl = text.indexOf("\n");
      }
    });
    s.on("error", (e) => onError(`tcp ${target.host}:${target.port}: ${e.message}`));
    s.on("close", () => {
      socket = null;
      ready = false;
      if (closed) return;
      timer = setTimeout(open, backoff);
      timer.unref();
      backoff = Math.min(30_000, backoff * 2);
    });
  };
  open();

  return {
    send(lines) {
      for (const l of lines) queue.push(l);
      if (queue.length > MAX_QUEUE) {
        dropped += queue.length - MAX_QUEUE;
        queue = queue.slice(queue.length - MAX_QUEUE);
      }
      flush();
    },
    sent: () => sent,
    acknowledged: () => acked,
    dropped: () => dropped,
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        if (timer) clearTimeout(timer);
        const s = socket;
        if (!s) return resolve();
        // Half-close and wait for the final ACK (the server closes after it).
        s.on("close", () => resolve());
        s.end();
        setTimeout(() => {
          s.destroy();
          resolve();
        }, 5_000).unref();
      }),
  };
}

/** Signed datagrams of at most ~1,400 bytes; several lines each, as aggregating forwarders send. */
export function udpSender(target: { host: string; port: number }, stationId: number, secret: string, clock: () => number = Date.now): Sender {
  const socket: UdpSocket = createSocket(isIPv6(target.host) ? "udp6" : "udp4");
  socket.on("error", () => {});
  const key = udpKeyFromSecret(secret);
  let seq = 0;
  let sent = 0;
  return {
    send(lines) {
      let batch: string[] = [];
      let size = 0;
      const emit = () => {
        if (batch.length === 0) return;
        const n = batch.length;
        socket.send(signDatagram(key, stationId, Math.floor(clock() / 1000), seq++, batch), target.port, target.host);
        sent += n;
        batch = [];
        size = 0;
      };
      for (const l of lines) {
        if (size + l.length + 1 > MAX_DATAGRAM) emit();
        batch.push(l);
        size += l.length + 1;
      }
      emit();
    },
    sent: () => sent,
    acknowledged: () => 0,
    dropped: () => 0,
    close: () =>
      new Promise<void>((resolve) => {
        try {
          socket.close(() => resolve());
        } catch {
          resolve(); // already closed
        }
      }),
  };
}

/** POSTs each batch to /ingest/nmea; the 200 answer means stored. */
export function httpSender(url: string, secret: string, onError: (message: string) => void = () => {}): Sender {
  let sent = 0;
  let acked = 0;
  let dropped = 0;
  const inflight = new Set<Promise<void>>();
  return {
    send(lines) {
      if (lines.length === 0) return;
      sent += lines.length;
      const p = fetch(url, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "text/plain" }, body: `${lines.join("\n")}\n` })
        .then(async (r) => {
          await r.text();
          if (r.ok) acked += lines.length;
          else {
            dropped += lines.length;
            onError(`POST ${url}: HTTP ${r.status}`);
          }
        })
        .catch((e: unknown) => {
          dropped += lines.length;
          onError(`POST ${url}: ${e instanceof Error ? e.message : String(e)}`);
        })
        .finally(() => inflight.delete(p));
      inflight.add(p);
    },
    sent: () => sent,
    acknowledged: () => acked,
    dropped: () => dropped,
    close: async () => {
      await Promise.all([...inflight]);
    },
  };
}
