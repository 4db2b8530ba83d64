import type { DerivedFix } from "./fix.ts";
import { impliedKnots } from "./fix.ts";
import { distanceKm } from "./geo.ts";
import { type Crossing, crossGate, type Gate, nearGate } from "./gates.ts";

/**
 * Gate crossings from one station's fixes of one vessel (method
 * `chokepoint_transit.gate_crossing`). Each step between consecutive fixes is tested
 * against the gates whose box it touches. A crossing is `observed` when the step is within
 * the gate's maximum gap and its implied speed is plausible (at most 35 kn); otherwise the
 * vessel was seen on both sides but the route between is unknown, and the crossing is
 * kept as unobserved: not counted, but it lowers the gate's confidence. The 48-hour rule
 * is applied when counting (transit-counts.ts), over every station the caller may see.
 */
export const TRANSIT_METHOD = "chokepoint_transit.gate_crossing";
export const TRANSIT_VERSION = "1.0.0";

const MAX_KNOTS = 35;
/** Fixes within this distance of a gate count as coverage of it. */
export const COVERAGE_KM = 20;
const HOUR = 3_600_000;

export interface GateCrossing extends Crossing {
  mmsi: number;
  stationId: number;
  observed: boolean;
}

export interface TransitState {
  t: number;
  lat: number;
  lon: number;
}

export class GateSet {
  readonly gates: readonly Gate[];

  constructor(gates: readonly Gate[]) {
    this.gates = gates;
  }

  get(id: string): Gate | undefined {
    return this.gates.find((g) => g.id === id);
  }
}

export interface TransitObservation {
  crossings: GateCrossing[];
  /** Gates this fix covers, with the UTC hour it falls in. */
  coverage: { gateId: string; hour: number }[];
}

const EMPTY: TransitObservation = { crossings: [], coverage: [] };

/** Applies one fix; returns its crossings and coverage. Mutates `s`; late fixes are skipped. */
export function observeTransit(s: TransitState, f: DerivedFix, gates: GateSet): TransitObservation {
  if (f.time <= s.t) return EMPTY;
  const first = s.t < 0;
  let out: TransitObservation | null = null;
  for (const g of gates.gates) {
    if (!nearGate(g, f.lon, f.lat, COVERAGE_KM)) continue;
    out ??= { crossings: [], coverage: [] };
    out.coverage.push({ gateId: g.id, hour: Math.floor(f.time / HOUR) * HOUR });
    if (first) continue;
    const c = crossGate(g, { lon: s.lon, lat: s.lat, time: s.t }, { lon: f.lon, lat: f.lat, time: f.time });
    if (!c) continue;
    const km = distanceKm(s.lat, s.lon, f.lat, f.lon);
    const observed = c.gapMs <= g.maxGapMinutes * 60_000 && impliedKnots(km, c.gapMs) <= MAX_KNOTS;
    out.crossings.push({ ...c, mmsi: f.mmsi, stationId: f.stationId, observed });
  }
  // A step from far away can cross a gate without either fix being near it.
  if (!out && !first) {
    for (const g of gates.gates) {
      const c = crossGate(g, { lon: s.lon, lat: s.lat, time: s.t }, { lon: f.lon, lat: f.lat, time: f.time });
      if (c) (out ??= { crossings: [], coverage: [] }).crossings.push({ ...c, mmsi: f.mmsi, stationId: f.stationId, observed: false });
    }
  }
  s.t = f.time;
  s.lat = f.lat;
  s.lon = f.lon;
  return out ?? EMPTY;
}
