import { distanceKm } from "./geo.ts";
import type { Silence } from "./slow-episode.ts";
import type { VesselEvent } from "./vessel-event.ts";

export const AIS_GAP_METHOD = "ais_gap.silent_while_others_heard";
export const AIS_GAP_VERSION = "1.0.0";
/** Silent this long (default; AIS_GAP_HOURS tunes it): a candidate gap. */
export const DEFAULT_GAP_MS = 6 * 3_600_000;
/** The station must have heard other vessels near the last position in this share of the gap's hours. */
const MIN_COVERAGE = 0.5;
/** Faster than this across the gap is not one ship going dark but two sharing an MMSI, or a bad position. */
const MAX_IMPLIED_KN = 50;
/** Heard cells, degrees: "near the last position" is the 3 x 3 cells around it (about 40 km each way). */
export const HEARD_CELL_DEG = 0.25;

/** The cell a fix is heard in: what the station coverage behind gaps records. */
export function heardCell(lat: number, lon: number): number {
  return (Math.floor(lat / HEARD_CELL_DEG) + 400) * 2_000 + (Math.floor(lon / HEARD_CELL_DEG) + 800);
}

/** The cells "near" a position: its own and the eight around it. */
export function cellsAround(lat: number, lon: number): number[] {
  const out: number[] = [];
  for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) out.push(heardCell(lat + dy * HEARD_CELL_DEG, lon + dx * HEARD_CELL_DEG));
  return out;
}

/** The whole hours inside a silence: those the station's coverage is judged over. */
export function gapHours(s: Silence): number[] {
  const out: number[] = [];
  for (let h = Math.ceil(s.start / 3_600_000) * 3_600_000; h + 3_600_000 <= s.end; h += 3_600_000) out.push(h);
  return out;
}

/** A gap's row id: the same for the open gap and the closed one that replaces it. */
export function gapId(stationId: number, mmsi: number, start: number): string {
  return `ais_gap:${stationId}:${mmsi}:${start}`;
}

/**
 * An AIS gap from a silence (docs/vessel-events.md): the vessel was not heard for 6 h or more
 * while the same station kept hearing vessels near its last position in at least half of the
 * gap's whole hours (`heardHours` of them), so a receiver outage is not a gap. Confidence is
 * that share. Null otherwise, or when the two positions are too far apart for one ship.
 */
export function gapOf(s: Silence, heardHours: number): VesselEvent | null {
  const hours = gapHours(s).length;
  if (hours === 0) return null;
  const coverage = heardHours / hours;
  const km = distanceKm(s.from[0], s.from[1], s.to[0], s.to[1]);
  const knots = km / 1.852 / ((s.end - s.start) / 3_600_000);
  if (coverage < MIN_COVERAGE || knots > MAX_IMPLIED_KN) return null;
  return gapEvent(s, s.end, coverage, heardHours, {
    distanceKm: Math.round(km * 10) / 10,
    impliedKnots: Math.round(knots * 10) / 10,
    after: { lat: s.to[0], lon: s.to[1] },
  });
}

/** Where and when a vessel was last heard by one station: where a gap still open starts. */
export interface LastHeard {
  stationId: number;
  mmsi: number;
  time: number;
  lat: number;
  lon: number;
}

/**
 * A gap still open at `now`: the vessel has been silent for `minSilenceMs` or more while the
 * station heard vessels near its last position in at least half of the whole hours so far.
 * It has no end, no position after and no implied speed yet; when the vessel is heard again
 * the closed gap replaces it (same id), or it is withdrawn when the silence proves no gap.
 */
export function openGapOf(last: LastHeard, now: number, minSilenceMs: number, heardHours: number): VesselEvent | null {
  if (now - last.time < minSilenceMs) return null;
  const silence: Silence = { stationId: last.stationId, mmsi: last.mmsi, start: last.time, end: now, from: [last.lat, last.lon], to: [last.lat, last.lon] };
  const hours = gapHours(silence).length;
  if (hours === 0 || heardHours / hours < MIN_COVERAGE) return null;
  return gapEvent(silence, null, heardHours / hours, heardHours, { distanceKm: null, impliedKnots: null, after: null });
}

function gapEvent(s: Silence, end: number | null, coverage: number, heardHours: number, across: { distanceKm: number | null; impliedKnots: number | null; after: { lat: number; lon: number } | null }): VesselEvent {
  return {
    id: gapId(s.stationId, s.mmsi, s.start),
    type: "ais_gap",
    stationId: s.stationId,
    mmsi: s.mmsi,
    start: s.start,
    end,
    lat: s.from[0],
    lon: s.from[1],
    counterpartMmsi: null,
    details: {
      // For an open gap: how long the silence had lasted when it was judged.
      hours: Math.round(((s.end - s.start) / 3_600_000) * 10) / 10,
      distanceKm: across.distanceKm,
      impliedKnots: across.impliedKnots,
      before: { lat: s.from[0], lon: s.from[1] },
      after: across.after,
      hoursOthersHeard: heardHours,
    },
    method: AIS_GAP_METHOD,
    version: AIS_GAP_VERSION,
    confidence: Math.round(Math.min(1, coverage) * 100) / 100,
    inputs: { positions: end === null ? 1 : 2, maxGapMinutes: Math.round((s.end - s.start) / 60_000) },
  };
}
