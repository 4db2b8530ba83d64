import type { DerivedFix } from "../../src/domain/derived/fix.ts";
import { distanceKm } from "../../src/domain/derived/geo.ts";
import { prng } from "./ais-sentences.ts";

/**
 * A simulated voyage with known truth, for the derived-fact tests and the accuracy
 * harness: legs sailed in straight lines at a speed, and stops of known length. Fixes are
 * sampled at AIS-like intervals (under way every `movingEverySec`, stopped every
 * `stoppedEverySec`) and may then be degraded (dropped, reordered) by the caller.
 */
export type Leg = { sail: [number, number]; knots: number } | { stop: number; navStatus?: number; port?: string };

export interface TrueStop {
  port: string | undefined;
  from: number;
  to: number;
  navStatus: number;
}

export interface Voyage {
  fixes: DerivedFix[];
  stops: TrueStop[];
  /** The continuous path: [time, lon, lat] at every leg end. */
  path: [number, number, number][];
}

export interface SampleOptions {
  mmsi: number;
  stationId: number;
  start: number;
  /** [lon, lat]. */
  from: [number, number];
  movingEverySec?: number;
  stoppedEverySec?: number;
}

export function sailVoyage(legs: readonly Leg[], o: SampleOptions): Voyage {
  const moving = (o.movingEverySec ?? 60) * 1000;
  const stopped = (o.stoppedEverySec ?? 180) * 1000;
  const fixes: DerivedFix[] = [];
  const stops: TrueStop[] = [];
  let [lon, lat] = o.from;
  let t = o.start;
  const path: [number, number, number][] = [[t, lon, lat]];
  for (const leg of legs) {
    if ("sail" in leg) {
      const [lon2, lat2] = leg.sail;
      const km = distanceKm(lat, lon, lat2, lon2);
      const ms = (km / (leg.knots * 1.852)) * 3_600_000;
      for (let dt = 0; dt < ms; dt += moving) {
        const u = dt / ms;
        fixes.push({ mmsi: o.mmsi, stationId: o.stationId, time: Math.round(t + dt), lat: lat + (lat2 - lat) * u, lon: lon + (lon2 - lon) * u, sog: leg.knots, navStatus: 0 });
      }
      t += ms;
      lon = lon2;
      lat = lat2;
    } else {
      const ms = leg.stop * 3_600_000;
      const navStatus = leg.navStatus ?? 5;
      for (let dt = 0; dt < ms; dt += stopped) fixes.push({ mmsi: o.mmsi, stationId: o.stationId, time: Math.round(t + dt), lat, lon, sog: 0, navStatus });
      stops.push({ port: leg.port, from: t, to: t + ms, navStatus });
      t += ms;
    }
    path.push([t, lon, lat]);
  }
  return { fixes, stops, path };
}

/** A deterministic pseudo-random source, so every run draws the same degradations. */
export const seeded = prng;

/** Drops the fixes in [from, to): a reception gap. */
export function withGap(fixes: readonly DerivedFix[], from: number, to: number): DerivedFix[] {
  return fixes.filter((f) => f.time < from || f.time >= to);
}

/** Swaps neighbours with probability `p`: fixes arriving out of order. */
export function shuffled(fixes: readonly DerivedFix[], p: number, random: () => number): DerivedFix[] {
  const out = [...fixes];
  for (let i = 1; i < out.length; i++) {
    if (random() < p) [out[i - 1], out[i]] = [out[i]!, out[i - 1]!];
  }
  return out;
}
