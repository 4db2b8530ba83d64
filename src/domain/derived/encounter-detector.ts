import type { DerivedFix } from "./fix.ts";
import { distanceKm } from "./geo.ts";
import { SLOW_KN } from "./slow-episode.ts";
import type { VesselEvent } from "./vessel-event.ts";

export const ENCOUNTER_METHOD = "encounter.close_and_slow";
export const ENCOUNTER_VERSION = "1.0.0";
/** Global Fishing Watch's encounter parameters. */
const MAX_DISTANCE_KM = 0.5;
export const ENCOUNTER_MIN_MS = 2 * 3_600_000;
/** A fix is paired with the other vessel's fix nearest in time, when that is this close. */
const PAIR_MS = 10 * 60_000;
/** Samples further apart than this break a meeting in two. */
const MAX_SAMPLE_GAP_MS = 3_600_000;
/** Samples expected per hour for full confidence (each vessel every 10 minutes). */
const EXPECTED_PER_HOUR = 12;

interface Sample {
  time: number;
  km: number;
  knots: [number, number];
  lat: number;
  lon: number;
}

/**
 * Encounters between two vessels from one station's fixes of both (docs/vessel-events.md):
 * every fix of either vessel is paired with the other's fix nearest in time (within 10
 * minutes); a meeting is an unbroken run of pairs within 500 m with both vessels under 2 kn,
 * lasting 2 h or more, with a median speed under 2 kn. The pairing is symmetric, so judged
 * from either vessel's side the same meeting has the same start, end and id. Each meeting
 * gives two rows, one for each vessel, naming the other.
 */
export function encountersBetween(a: readonly DerivedFix[], b: readonly DerivedFix[]): VesselEvent[] {
  if (a.length === 0 || b.length === 0) return [];
  const samples = [...pairs(a, b, false), ...pairs(b, a, true)].sort((x, y) => x.time - y.time);
  const out: VesselEvent[] = [];
  let run: Sample[] = [];
  const flush = () => {
    if (run.length > 1 && run[run.length - 1]!.time - run[0]!.time >= ENCOUNTER_MIN_MS) {
      const knots = run.flatMap((s) => s.knots).sort((x, y) => x - y);
      const median = knots[Math.floor(knots.length / 2)]!;
      if (median < SLOW_KN) out.push(...meeting(a[0]!, b[0]!, run, median));
    }
    run = [];
  };
  for (const s of samples) {
    const close = s.km <= MAX_DISTANCE_KM && s.knots[0] < SLOW_KN && s.knots[1] < SLOW_KN;
    if (!close || (run.length > 0 && s.time - run[run.length - 1]!.time > MAX_SAMPLE_GAP_MS)) flush();
    if (close) run.push(s);
  }
  flush();
  return out;
}

/** Samples at the fixes of `own`, each with the other vessel's nearest fix in time. */
function pairs(own: readonly DerivedFix[], other: readonly DerivedFix[], swapped: boolean): Sample[] {
  const out: Sample[] = [];
  let j = 0;
  for (let i = 0; i < own.length; i++) {
    const f = own[i]!;
    while (j + 1 < other.length && Math.abs(other[j + 1]!.time - f.time) <= Math.abs(other[j]!.time - f.time)) j++;
    const g = other[j]!;
    if (Math.abs(g.time - f.time) > PAIR_MS) continue;
    const mine = knotsAt(own, i);
    const theirs = knotsAt(other, j);
    out.push({ time: f.time, km: distanceKm(f.lat, f.lon, g.lat, g.lon), knots: swapped ? [theirs, mine] : [mine, theirs], lat: (f.lat + g.lat) / 2, lon: (f.lon + g.lon) / 2 });
  }
  return out;
}

/** Reported speed, else implied from the previous fix (the next one for the first). */
function knotsAt(fixes: readonly DerivedFix[], i: number): number {
  const f = fixes[i]!;
  if (f.sog !== null) return f.sog;
  const g = fixes[i > 0 ? i - 1 : i + 1];
  if (!g) return 0;
  const ms = Math.abs(f.time - g.time);
  return ms === 0 ? 0 : distanceKm(f.lat, f.lon, g.lat, g.lon) / 1.852 / (ms / 3_600_000);
}

function meeting(a: DerivedFix, b: DerivedFix, run: Sample[], median: number): VesselEvent[] {
  const start = run[0]!.time;
  const end = run[run.length - 1]!.time;
  const hours = (end - start) / 3_600_000;
  const kms = run.map((s) => s.km).sort((x, y) => x - y);
  let maxGap = 0;
  for (let i = 1; i < run.length; i++) maxGap = Math.max(maxGap, run[i]!.time - run[i - 1]!.time);
  const lat = Math.round((run.reduce((n, s) => n + s.lat, 0) / run.length) * 1e5) / 1e5;
  const lon = Math.round((run.reduce((n, s) => n + s.lon, 0) / run.length) * 1e5) / 1e5;
  const row = (self: DerivedFix, other: DerivedFix): VesselEvent => ({
    id: `encounter:${self.stationId}:${self.mmsi}:${other.mmsi}:${start}`,
    type: "encounter",
    stationId: self.stationId,
    mmsi: self.mmsi,
    start,
    end,
    lat,
    lon,
    counterpartMmsi: other.mmsi,
    details: { hours: Math.round(hours * 10) / 10, medianKnots: Math.round(median * 10) / 10, medianDistanceKm: Math.round(kms[Math.floor(kms.length / 2)]! * 1000) / 1000 },
    method: ENCOUNTER_METHOD,
    version: ENCOUNTER_VERSION,
    confidence: Math.min(1, Math.round((run.length / (hours * EXPECTED_PER_HOUR)) * 100) / 100),
    inputs: { positions: run.length, maxGapMinutes: Math.round(maxGap / 60_000) },
  });
  return [row(a, b), row(b, a)];
}
