import { createServer, type Socket } from "node:net";
import type { IngestStation } from "../../interfaces/positions.ts";
import { stationAllows } from "./allow-check.ts";
import { LineSplitter } from "./lines.ts";
import type { IngestPipeline } from "./pipeline.ts";
import { STATION_COUNTERS } from "./station-counters.ts";
import type { StationDirectory } from "./station-directory.ts";

export interface TcpListenerOptions {
  port: number;
  host: string;
  /** A connection that has not authenticated within this is closed. */
  authTimeoutMs?: number;
  /** Longer lines are dropped and counted (real sentences, tag block included, are < 200 bytes). */
  maxLineBytes?: number;
  /** Open connections at most on this listener; more are closed on accept (default 5000). */
  maxConnections?: number;
  /** Open connections at most from one source address, so one host cannot take the listener's whole cap (default 50). */
  maxPerAddress?: number;
  /**
   * An authenticated connection that sends nothing for this long is closed (default 5
   * minutes): a station that sends keeps its socket; a dead or silent one gives it back.
   */
  idleTimeoutMs?: number;
}

export interface TcpListener {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

/** The first line: `AUTH <station secret>`. Anything else first is not a station. */
const AUTH_LINE = /^AUTH[ \t]+(\S{1,200})[ \t]*\r?$/;
const MAX_AUTH_LINE = 256;
/** ACKs are skipped while this much of our output is unread: a sender that never reads ACKs must not grow our buffers. */
const ACK_BACKLOG = 4096;

/**
 * One TCP connection per station, as AIS-catcher, rtl-ais or a `nc` pipe keep one open:
 *
 *   station: AUTH <secret>\n            server: OK <stationId>\n   (or ERR unauthenticated\n, then close)
 *   station: NMEA lines...              server: ACK <n>\n           (from time to time)
 *   station: half-close (end of input)  server: ACK <n>\n, then close
 *
 * ACK n is cumulative: the first n non-blank lines after AUTH are processed and whatever
 * they carried is committed to storage, so a sender may forget them. Lines dropped as
 * garbage are counted in n too (they are processed: counted, never stored). ACKs are
 * advisory, so forwarders that never read them (plain NMEA over TCP) still work.
 */
export async function startTcpListener(pipeline: IngestPipeline, directory: StationDirectory, options: TcpListenerOptions): Promise<TcpListener> {
  const authTimeoutMs = options.authTimeoutMs ?? 10_000;
  const maxLine = options.maxLineBytes ?? 4096;
  const maxPerAddress = options.maxPerAddress ?? 50;
  const idleTimeoutMs = options.idleTimeoutMs ?? 5 * 60_000;
  const sockets = new Set<Socket>();
  const perAddress = new Map<string, number>();
  let nextId = 1;

  const server = createServer({ allowHalfOpen: true, noDelay: true, keepAlive: true, keepAliveInitialDelay: 60_000 }, (socket) => {
    const address = socket.remoteAddress ?? "";
    const fromAddress = perAddress.get(address) ?? 0;
    if (fromAddress >= maxPerAddress) {
      pipeline.metrics.tcpRefused.inc({ reason: "address_cap" });
      socket.destroy();
      return;
    }
    perAddress.set(address, fromAddress + 1);
    sockets.add(socket);
    pipeline.metrics.connections.inc();
    socket.setEncoding("latin1");
    const source = `tcp:${nextId++}`;
    const splitter = new LineSplitter(maxLine);
    let state: "auth" | "checking" | "open" | "closing" = "auth";
    let station: IngestStation | null = null;
    let authText = "";
    let held: string[] = [];
    let endedWhileChecking = false;
    let received = 0;
    let acked = 0;
    let lastStored: Promise<void> = Promise.resolve();
    let pausedForLoad = false;

    const authTimer = setTimeout(() => {
      if (state === "auth" || state === "checking") refuse("auth_timeout");
    }, authTimeoutMs);

    const refuse = (reason: string, claimed: IngestStation | null = null) => {
      if (state === "closing") return;
      state = "closing";
      clearTimeout(authTimer);
      pipeline.unauthenticated("tcp", reason, claimed);
      socket.end("ERR unauthenticated\n");
      // Do not wait for a misbehaving peer to close its side.
      setTimeout(() => socket.destroy(), 1_000).unref();
    };

    const ack = (force: boolean) => {
      if (socket.destroyed || !socket.writable) return;
      if (force || socket.writableLength < ACK_BACKLOG) socket.write(`ACK ${acked}\n`);
    };

    const take = (chunk: string) => {
      const st = station!;
      const { lines, oversized } = splitter.push(chunk);
      if (oversized > 0) {
        pipeline.count(st, STATION_COUNTERS.oversized, oversized);
        received += oversized;
      }
      if (lines.length === 0) return;
      received += lines.length;
      const upTo = received;
      lastStored = pipeline.submit(st, lines, { source, transport: "tcp" }).stored;
      lastStored.then(() => {
        if (upTo > acked) {
          acked = upTo;
          if (state === "open") ack(false);
        }
      });
      if (pipeline.overloaded && !pausedForLoad) {
        // Back-pressure through TCP itself: stop reading until the writer catches up.
        pausedForLoad = true;
        socket.pause();
        void pipeline.whenDrained().then(() => {
          pausedForLoad = false;
          if (!socket.destroyed) socket.resume();
        });
      }
    };

    const finish = async () => {
      if (state !== "open") return;
      state = "closing";
      const rest = splitter.end();
      if (rest.oversized > 0) {
        pipeline.count(station!, STATION_COUNTERS.oversized, rest.oversized);
        received += rest.oversized;
      }
      if (rest.line !== null) {
        received++;
        lastStored = pipeline.submit(station!, [rest.line], { source, transport: "tcp" }).stored;
      }
      await lastStored;
      acked = received;
      if (!socket.destroyed) socket.end(`ACK ${acked}\n`);
    };

    socket.on("data", (chunk: string) => {
      if (state === "open") return take(chunk);
      if (state === "checking") {
        held.push(chunk);
        return;
      }
      if (state !== "auth") return;
      authText += chunk;
      const nl = authText.indexOf("\n");
      if (nl < 0) {
        if (authText.length > MAX_AUTH_LINE) refuse("no_auth");
        return;
      }
      const m = AUTH_LINE.exec(authText.slice(0, nl));
      if (!m) return refuse(nl > MAX_AUTH_LINE ? "no_auth" : authText.startsWith("AUTH") ? "bad_secret" : "no_auth");
      held = [authText.slice(nl + 1)];
      authText = "";
      state = "checking";
      socket.pause();
      directory.bySecret(m[1]!).then(
        (found) => {
          if (state !== "checking" || socket.destroyed) return;
          if (!found) return refuse("bad_secret");
          if (!stationAllows(found, address)) {
            pipeline.count(found, STATION_COUNTERS.notAllowed);
            return refuse("address_not_allowed", found);
          }
          clearTimeout(authTimer);
          station = found;
          state = "open";
          socket.setTimeout(idleTimeoutMs);
          socket.write(`OK ${found.id}\n`);
          const chunks = held;
          held = [];
          for (const c of chunks) take(c);
          if (endedWhileChecking) void finish();
          else if (!pausedForLoad) socket.resume();
        },
        () => refuse("lookup_failed"),
      );
    });
    socket.on("end", () => {
      if (state === "checking") endedWhileChecking = true;
      else if (state === "open") void finish();
      else if (state === "auth") refuse("no_auth");
    });
    // Idle since the last byte either way: what was received is committed and acknowledged, then the socket is let go.
    socket.on("timeout", () => {
      if (state !== "open") return;
      pipeline.count(station!, STATION_COUNTERS.idleClosed);
      void finish();
      setTimeout(() => socket.destroy(), 5_000).unref();
    });
    // Resets and timeouts of a peer are its business; the socket is cleaned up on close.
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(authTimer);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
      sockets.delete(socket);
      pipeline.metrics.connections.dec();
      state = "closing";
    });
  });
  server.maxConnections = options.maxConnections ?? 5_000;
  // Node closes connections beyond maxConnections itself and tells us here.
  server.on("drop", () => pipeline.metrics.tcpRefused.inc({ reason: "listener_cap" }));

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : options.port,
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
