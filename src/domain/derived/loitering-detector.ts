import { medianKnots, type SlowEpisode } from "./slow-episode.ts";
import type { VesselEvent } from "./vessel-event.ts";

export const LOITERING_METHOD = "loitering.slow_far_from_shore";
export const LOITERING_VERSION = "1.0.0";
/** Slow this long, at least 20 nm from shore and outside port areas: loitering. */
export const LOITER_MIN_MS = 4 * 3_600_000;
/** Fixes expected per hour for full confidence (one each 10 minutes). */
const EXPECTED_PER_HOUR = 6;

/**
 * Loitering from a slow episode (docs/vessel-events.md): open (`end` null) while the episode
 * goes on, closed when it ends. Null when the episode is too short, came within 20 nm of
 * shore, or entered a port area.
 */
export function loiteringOf(e: SlowEpisode, closed: boolean): VesselEvent | null {
  const ms = e.last - e.start;
  if (ms < LOITER_MIN_MS || e.nearShore || e.inPortArea) return null;
  const hours = ms / 3_600_000;
  return {
    id: `loitering:${e.stationId}:${e.mmsi}:${e.start}`,
    type: "loitering",
    stationId: e.stationId,
    mmsi: e.mmsi,
    start: e.start,
    end: closed ? e.last : null,
    lat: round(e.sumLat / e.positions),
    lon: round(e.sumLon / e.positions),
    counterpartMmsi: null,
    details: { hours: Math.round(hours * 10) / 10, medianKnots: medianKnots(e) },
    method: LOITERING_METHOD,
    version: LOITERING_VERSION,
    confidence: Math.min(1, Math.round((e.positions / (hours * EXPECTED_PER_HOUR)) * 100) / 100),
    inputs: { positions: e.positions, maxGapMinutes: Math.round(e.maxGapMs / 60_000) },
  };
}

function round(x: number): number {
  return Math.round(x * 1e5) / 1e5;
}
