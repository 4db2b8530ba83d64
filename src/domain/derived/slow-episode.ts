import { type DerivedFix, impliedKnots } from "./fix.ts";
import { distanceKm } from "./geo.ts";
import type { PortAreaIndex } from "./port-areas.ts";
import type { ShoreIndex } from "./shore.ts";

/** A vessel is slow under this speed: Global Fishing Watch's encounter and loitering limit. */
export const SLOW_KN = 2;
/** A silence longer than this ends a slow episode: what follows is another one. */
const EPISODE_MAX_GAP_MS = 2 * 3_600_000;
/** Loitering must be this far from shore (20 nm). */
export const LOITER_SHORE_KM = 37.04;
/** Encounters must be this far from any port area or anchorage. */
export const ENCOUNTER_PORT_KM = 10;
/** Speed histogram bins (0.1 kn each, 0 to 2 kn): the median without keeping every fix. */
const BINS = 20;

/**
 * One stretch of a vessel's fixes (one station) all under 2 kn, none more than 2 h apart:
 * what loitering and encounters are made of. Kept in the vessel's derived state while open.
 */
export interface SlowEpisode {
  stationId: number;
  mmsi: number;
  start: number;
  last: number;
  positions: number;
  sumLat: number;
  sumLon: number;
  maxGapMs: number;
  /** Speed histogram, 0.1 kn bins. */
  speeds: number[];
  /** Sticky: some fix was within 20 nm of shore (then it cannot be loitering). */
  nearShore: boolean;
  /** Sticky: some fix was inside a port area (radius). */
  inPortArea: boolean;
  /** Sticky: some fix was within 10 km of a port's anchorage ring (then it cannot be an encounter). */
  nearPort: boolean;
}

export interface BehaviourState {
  /** Last fix applied. */
  t: number;
  lat: number;
  lon: number;
  episode: SlowEpisode | null;
  /** The hour and cell of the last fix recorded as heard (derive.ts): the next in the same one adds nothing. */
  heardHour?: number;
  heardCell?: number;
}

/** A silence of the vessel between two consecutive fixes of one station. */
export interface Silence {
  stationId: number;
  mmsi: number;
  start: number;
  end: number;
  from: [number, number];
  to: [number, number];
}

export interface BehaviourStep {
  /** An episode that ended before this fix. */
  closed: SlowEpisode | null;
  /** The episode this fix belongs to (open). */
  open: SlowEpisode | null;
  /** The silence before this fix, when it lasted `minSilenceMs` or more. */
  silence: Silence | null;
}

export interface BehaviourContext {
  ports: PortAreaIndex;
  shore: ShoreIndex;
  minSilenceMs: number;
}

export function newBehaviourState(): BehaviourState {
  return { t: -1, lat: 0, lon: 0, episode: null };
}

const NOTHING: BehaviourStep = { closed: null, open: null, silence: null };

/** Applies one fix (in time order; older ones are skipped, as the other detectors do). Mutates `s`. */
export function observeBehaviour(s: BehaviourState, f: DerivedFix, ctx: BehaviourContext): BehaviourStep {
  if (f.time <= s.t) return NOTHING;
  const first = s.t < 0;
  const gap = first ? Number.POSITIVE_INFINITY : f.time - s.t;
  const knots = f.sog ?? (first ? null : impliedKnots(distanceKm(s.lat, s.lon, f.lat, f.lon), gap));
  const silence = !first && gap >= ctx.minSilenceMs ? { stationId: f.stationId, mmsi: f.mmsi, start: s.t, end: f.time, from: [s.lat, s.lon] as [number, number], to: [f.lat, f.lon] as [number, number] } : null;
  let closed: SlowEpisode | null = null;
  const slow = knots !== null && knots < SLOW_KN;
  if (s.episode && (!slow || gap > EPISODE_MAX_GAP_MS)) {
    closed = s.episode;
    s.episode = null;
  }
  if (slow) {
    const e = (s.episode ??= { stationId: f.stationId, mmsi: f.mmsi, start: f.time, last: f.time, positions: 0, sumLat: 0, sumLon: 0, maxGapMs: 0, speeds: new Array<number>(BINS).fill(0), nearShore: false, inPortArea: false, nearPort: false });
    if (e.positions > 0) e.maxGapMs = Math.max(e.maxGapMs, f.time - e.last);
    e.last = f.time;
    e.positions++;
    e.sumLat += f.lat;
    e.sumLon += f.lon;
    if (e.speeds.length > 0) e.speeds[Math.min(BINS - 1, Math.floor(knots * 10))]!++;
    // The sticky flags: each costs a lookup only until it is set.
    if (!e.nearPort) {
      const clearance = ctx.ports.clearanceKm(f.lat, f.lon);
      e.nearPort = clearance < ENCOUNTER_PORT_KM;
      const near = clearance < 0 ? ctx.ports.nearest(f.lat, f.lon) : null;
      e.inPortArea = near !== null && near.km <= near.area.radiusKm;
    } else if (!e.inPortArea && !e.nearShore) {
      // Inside a port area matters only to loitering, which a fix near shore has ruled out.
      const near = ctx.ports.nearest(f.lat, f.lon);
      e.inPortArea = near !== null && near.km <= near.area.radiusKm;
    }
    if (!e.nearShore) e.nearShore = ctx.shore.distanceKm(f.lat, f.lon, LOITER_SHORE_KM) < LOITER_SHORE_KM;
    // Near shore and near a port, the episode can be neither loitering nor an encounter: its
    // speeds are never asked for, and the state saved with every page stays small (ships in port).
    if (e.nearShore && e.nearPort) e.speeds = [];
  }
  s.t = f.time;
  s.lat = f.lat;
  s.lon = f.lon;
  return { closed, open: s.episode, silence };
}

/** The median of an episode's speeds (the middle bin's centre), knots. */
export function medianKnots(e: SlowEpisode): number {
  let seen = 0;
  for (let i = 0; i < e.speeds.length; i++) {
    seen += e.speeds[i]!;
    if (seen * 2 >= e.positions) return Math.round((i + 0.5) * 10) / 100;
  }
  return SLOW_KN;
}
