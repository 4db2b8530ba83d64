import { createSocket, type RemoteInfo } from "node:dgram";
import { isIPv6 } from "node:net";
import type { Clock } from "../../interfaces/clock.ts";
import type { IngestStation } from "../../interfaces/positions.ts";
import type { IngestPipeline } from "./pipeline.ts";
import { STATION_COUNTERS } from "./station-counters.ts";
import { stationAllows } from "./allow-check.ts";
import { ReplayWindow } from "./replay-window.ts";
import type { StationDirectory } from "./station-directory.ts";
import { type DatagramHeader, parseDatagramHeader, SIGNATURE_WINDOW_S, verifyDatagram } from "./udp-signature.ts";

export interface UdpListenerOptions {
  port: number;
  host: string;
  /** Kernel receive buffer asked for; bursts beyond it are lost by the kernel (the OS may cap it). */
  recvBufferSize?: number;
}

export interface UdpListener {
  port: number;
  /** Datagrams received, whatever became of them. */
  datagrams(): number;
  close(): Promise<void>;
}

/** A sequence jump back by more than this is a restarted sender, not a late datagram. */
const SEQ_RESTART = 10_000;
const MAX_SENDERS = 10_000;

/**
 * Signed NMEA datagrams (udp-signature.ts) on one port for all stations. Unsigned,
 * unknown, stale, badly signed or replayed datagrams are dropped and counted, never decoded.
 */
export async function startUdpListener(pipeline: IngestPipeline, directory: StationDirectory, clock: Clock, options: UdpListenerOptions): Promise<UdpListener> {
  const socket = createSocket({ type: isIPv6(options.host) ? "udp6" : "udp4", recvBufferSize: options.recvBufferSize ?? 8 * 1024 * 1024 });
  const senders = new Map<string, number>();
  const replays = new ReplayWindow(SIGNATURE_WINDOW_S);
  let received = 0;

  const accept = (station: IngestStation | null, h: DatagramHeader, msg: Buffer, rinfo: RemoteInfo): void => {
    if (station === null) {
      pipeline.unauthenticated("udp", "unknown_station");
      return;
    }
    if (!stationAllows(station, rinfo.address)) {
      pipeline.notAllowed("udp", station, 1);
      return;
    }
    const nowS = Math.floor(clock.now() / 1000);
    if (Math.abs(nowS - h.t) > SIGNATURE_WINDOW_S) {
      pipeline.unauthenticated("udp", "stale", station);
      return;
    }
    const key = directory.udpKey(station);
    if (key === null) {
      // A station from before per-station UDP keys: its secret must be rotated (docs/secrets.md).
      pipeline.unauthenticated("udp", "no_udp_key", station);
      return;
    }
    if (!verifyDatagram(key, h, msg)) {
      pipeline.unauthenticated("udp", "bad_signature", station);
      return;
    }
    // Checked after the MAC, so forged datagrams cannot fill the window; before the
    // sequence bookkeeping, so a replay is neither decoded nor counted as late.
    if (!replays.firstSeen(station.id, h.t, h.seq, h.mac, nowS)) {
      pipeline.count(station, STATION_COUNTERS.udpReplayed);
      return;
    }

    // Losses show as gaps in the sender's sequence; late datagrams are counted apart
    // (the counter is additive, so a gap later filled is not subtracted).
    const sender = `${station.id}|${rinfo.address}|${rinfo.port}`;
    const last = senders.get(sender);
    if (last !== undefined) {
      if (h.seq > last + 1) pipeline.count(station, STATION_COUNTERS.udpLost, h.seq - last - 1);
      else if (h.seq <= last && last - h.seq < SEQ_RESTART) pipeline.count(station, "udp_late");
    }
    if (last === undefined || h.seq > last || last - h.seq >= SEQ_RESTART) {
      if (senders.size >= MAX_SENDERS) senders.clear();
      senders.set(sender, h.seq);
    }

    const body = msg.toString("latin1", h.bodyStart);
    const lines = body.split("\n").filter((l) => l.length > 1);
    if (pipeline.overloaded) {
      pipeline.overloadDrop("udp", station, lines.length);
      return;
    }
    pipeline.submit(station, lines, { source: `udp:${rinfo.address}:${rinfo.port}`, transport: "udp" }, { wait: false });
  };

  socket.on("message", (msg, rinfo) => {
    received++;
    try {
      const h = parseDatagramHeader(msg);
      if (typeof h === "string") {
        pipeline.unauthenticated("udp", h);
        return;
      }
      const cached = directory.cachedById(h.stationId);
      if (cached !== undefined) {
        accept(cached, h, msg, rinfo);
        return;
      }
      directory.byId(h.stationId).then(
        (station) => accept(station, h, msg, rinfo),
        () => pipeline.unauthenticated("udp", "lookup_failed"),
      );
    } catch {
      // A datagram must never take the listener down; count it as garbage.
      pipeline.unauthenticated("udp", "bad_header");
    }
  });
  // Errors on a bound UDP socket are per-datagram (e.g. ICMP feedback); keep listening.
  socket.on("error", () => {});

  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(options.port, options.host, () => {
      socket.off("error", reject);
      resolve();
    });
  });
  return {
    port: socket.address().port,
    datagrams: () => received,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
