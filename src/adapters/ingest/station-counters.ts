import type { AisDecoder, AisDecoderStats } from "../../domain/ais/index.ts";
import type { CounterDelta, IngestStation } from "../../interfaces/positions.ts";
import type { IngestMetrics } from "./metrics.ts";

/** Station counter names for what the pipeline counts itself (the decoder's counts are `type:N`, `reason:R`). */
export const STATION_COUNTERS = {
  positions: "positions",
  invalid: "positions_invalid",
  future: "positions_future",
  /** Fixes farther from the ship's last one than it can sail (domain/tracks/position-jump.ts): kept off tracks and zones. */
  jump: "positions_jump",
  statics: "statics",
  unauthenticated: "unauthenticated",
  oversized: "oversized_lines",
  udpLost: "udp_lost",
  /** Signed datagrams received again within the signature window (replayed), dropped. */
  udpReplayed: "udp_replayed",
  /** Station TCP connections closed for sending nothing within the idle timeout. */
  idleClosed: "tcp_idle_closed",
  overload: "overload_dropped",
  /** Lines from a sender outside the station's --allow-from ranges, dropped. */
  notAllowed: "address_not_allowed",
  /** Message envelopes (AIS-catcher HTTP JSON) carrying no NMEA sentence, dropped. */
  noNmea: "no_nmea",
} as const;

/** One station as the pipeline sees it: its decoder and what it counted since the last write. */
export interface StationState {
  station: IngestStation;
  decoder: AisDecoder;
  /** Decoder stats already turned into counter deltas. */
  seen: AisDecoderStats;
  /** Counts of the pipeline and listeners not yet written. */
  pending: Map<string, number>;
  heardAt: number;
}

/** Adds to a count not yet written. */
export function addCount(state: StationState, counter: string, n: number): void {
  if (n !== 0) state.pending.set(counter, (state.pending.get(counter) ?? 0) + n);
}

export interface TakenCounters {
  counters: CounterDelta[];
  heard: { stationId: number; at: number }[];
  /** Feeds the deltas to /metrics; called once they are written. */
  apply: () => void;
}

/** Turns what the touched stations counted since the last flush into deltas, and empties `touched`. */
export function takeCounters(touched: Set<StationState>, metrics: IngestMetrics): TakenCounters {
  const counters: CounterDelta[] = [];
  const heard: { stationId: number; at: number }[] = [];
  for (const s of touched) {
    const id = s.station.id;
    const now = s.decoder.stats();
    const was = s.seen;
    s.seen = now;
    // One delta per counter name: a name counted by both the decoder and the pipeline is summed, never written twice in one upsert.
    const deltas = new Map<string, number>();
    const d = (counter: string, delta: number) => {
      if (delta !== 0) deltas.set(counter, (deltas.get(counter) ?? 0) + delta);
    };
    d("lines", now.lines - was.lines);
    d("messages", now.messages - was.messages);
    d("fragments", now.fragments - was.fragments);
    d("rejected", now.rejected - was.rejected);
    for (const [t, n] of Object.entries(now.byType)) d(`type:${t}`, n - (was.byType[t] ?? 0));
    for (const [r, n] of Object.entries(now.reasons)) d(`reason:${r}`, n - was.reasons[r as keyof typeof was.reasons]);
    for (const [counter, n] of s.pending) d(counter, n);
    s.pending.clear();
    for (const [counter, delta] of deltas) counters.push({ stationId: id, counter, delta });
    if (s.heardAt > 0) heard.push({ stationId: id, at: s.heardAt });
  }
  touched.clear();
  const apply = () => {
    for (const c of counters) {
      const station = String(c.stationId);
      if (c.counter === "lines") metrics.lines.inc({ station }, c.delta);
      else if (c.counter.startsWith("type:")) metrics.messages.inc({ station, type: c.counter.slice(5) }, c.delta);
      else if (c.counter.startsWith("reason:")) metrics.reasons.inc({ station, reason: c.counter.slice(7) }, c.delta);
      else if (c.counter === STATION_COUNTERS.positions) metrics.positions.inc({ station, outcome: "queued" }, c.delta);
      else if (c.counter === STATION_COUNTERS.invalid) metrics.positions.inc({ station, outcome: "invalid" }, c.delta);
      else if (c.counter === STATION_COUNTERS.future) metrics.positions.inc({ station, outcome: "future" }, c.delta);
      else if (c.counter === STATION_COUNTERS.jump) metrics.positions.inc({ station, outcome: "jump" }, c.delta);
      else if (c.counter === STATION_COUNTERS.statics) metrics.statics.inc({ station }, c.delta);
      else if (c.counter !== "messages" && c.counter !== "fragments" && c.counter !== "rejected") metrics.stationEvents.inc({ station, event: c.counter }, c.delta);
    }
  };
  return { counters, heard, apply };
}
