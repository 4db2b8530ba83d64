import type { DerivedFix } from "./fix.ts";
import { impliedKnots } from "./fix.ts";
import { distanceKm } from "./geo.ts";
import type { PortArea, PortAreaIndex } from "./port-areas.ts";

/**
 * Port calls from one station's fixes of one vessel, incrementally (method
 * `port_call.stop_in_area`, docs/derived-facts.md). A per-vessel state machine in the
 * manner of Global Fishing Watch's port events: a vessel is at sea, or inside one port's
 * area (entered within `radiusKm`, left beyond `exitKm`). Inside, it is stopped or under
 * way, with a speed hysteresis (a stop begins below 0.5 kn, ends above 1 kn). A call is an
 * area visit holding at least `MIN_STAY_MS` of stops; a reception gap of 4 h or more inside
 * the area counts as stopped time (a vessel silent that long in port is staying there).
 *
 * - `arrival` is the start of the first stop in the area, `departure` the end of the last
 *   one (midway to the first moving fix when that came within 30 minutes), set when the
 *   vessel leaves the area; null while it is still there.
 * - A stop at anchor (status 1) before the first stop at a berth is waiting: `berthArrival`
 *   is the first other stop. A stop in the anchorage ring just outside the area before the
 *   vessel entered sets `waitingFrom`. A vessel that only anchors outside makes no call.
 * - Fixes older than the last one processed are counted as late and not applied (the
 *   state machine moves forward only); `mds derive port-calls` recomputes from stored
 *   history in time order.
 */
export const PORT_CALL_METHOD = "port_call.stop_in_area";
export const PORT_CALL_VERSION = "1.0.0";

const STOP_BEGIN_KN = 0.5;
const STOP_END_KN = 1.0;
/** Stopped time that makes an area visit a call. */
export const MIN_STAY_MS = 3_600_000;
/** A silence this long inside an area counts as a stay (GFW PORT_GAP). */
const GAP_STAY_MS = 4 * 3_600_000;
/** Entry and exit are "observed" when the fixes either side are at most this far apart. */
const OBSERVED_GAP_MS = 3_600_000;
/** The first moving fix this close after the last stopped one places the departure midway. */
const DEPARTURE_SPLIT_MS = 30 * 60_000;
/** Waiting at the anchorage ring counts toward the next call at that port within this time. */
const WAITING_LINK_MS = 24 * 3_600_000;
/** Stops kept per visit (a vessel shifting berths many times keeps the first and the latest). */
const MAX_STOPS = 50;

/** [from, to, anchored 0|1]. */
type Stop = [number, number, number];

export interface PortCallState {
  /** Last fix applied. */
  t: number;
  lat: number;
  lon: number;
  /** Area the vessel is in, null at sea. */
  port: string | null;
  enteredAt: number | null;
  entryObserved: boolean;
  /** Current stop, open while the vessel stays stopped. */
  stop: Stop | null;
  stops: Stop[];
  maxGapMs: number;
  positions: number;
  /** The call this visit became (its arrival), once it qualified. */
  callArrival: number | null;
  /** A stop in a port's anchorage ring, outside its area. */
  waiting: { port: string; from: number; to: number } | null;
  late: number;
}

export interface PortCall {
  /** Deterministic: station, vessel, port and arrival, so a recompute writes the same row. */
  id: string;
  stationId: number;
  mmsi: number;
  unlocode: string;
  enteredAt: number;
  arrival: number;
  berthArrival: number | null;
  departure: number | null;
  leftAt: number | null;
  waitingFrom: number | null;
  arrivalObserved: boolean;
  departureObserved: boolean;
  /** Global Fishing Watch levels: 2 = stop only, 3 = entry or exit seen too, 4 = both. */
  confidence: 2 | 3 | 4;
  maxGapMinutes: number;
  positions: number;
  geometry: PortArea["geometry"];
}

export type PortCallEvent = { kind: "arrival" | "departure" | "update"; call: PortCall };

export function newPortCallState(): PortCallState {
  return { t: -1, lat: 0, lon: 0, port: null, enteredAt: null, entryObserved: false, stop: null, stops: [], maxGapMs: 0, positions: 0, callArrival: null, waiting: null, late: 0 };
}

/**
 * Applies one fix (of the state's station and vessel) and returns what changed: a call that
 * qualified (`arrival`), grew (`update`) or ended (`departure`). Mutates `s`.
 */
export function observePortCall(s: PortCallState, f: DerivedFix, ports: PortAreaIndex): PortCallEvent[] {
  if (f.time <= s.t) {
    if (f.time < s.t) s.late++;
    return [];
  }
  const first = s.t < 0;
  const gap = first ? Number.POSITIVE_INFINITY : f.time - s.t;
  const stepKm = first ? 0 : distanceKm(s.lat, s.lon, f.lat, f.lon);
  const events: PortCallEvent[] = [];

  if (s.port !== null) {
    const area = ports.get(s.port);
    const km = area ? distanceKm(f.lat, f.lon, area.lat, area.lon) : Number.POSITIVE_INFINITY;
    // Under way into a neighbouring port's own area (ports crowd along rivers and bays): this visit ends there.
    const neighbour = s.stop === null && area ? ports.nearest(f.lat, f.lon) : null;
    const moved = neighbour !== null && neighbour.area.unlocode !== s.port && neighbour.km <= neighbour.area.radiusKm;
    if (!area || km >= area.exitKm || moved) {
      const out = leave(s, f, gap, area);
      if (out) events.push(out);
    } else {
      s.maxGapMs = Math.max(s.maxGapMs, gap);
      s.positions++;
      applyMotion(s, f, gap, stepKm);
      const e = qualify(s, f, area);
      if (e) events.push(e);
      remember(s, f);
      return events;
    }
  }

  // At sea (or just left): a port's area or its anchorage ring?
  const near = ports.nearest(f.lat, f.lon);
  const stopped = isStopped(f, gap, stepKm, false);
  if (near && near.km <= near.area.radiusKm) {
    s.port = near.area.unlocode;
    s.enteredAt = f.time;
    s.entryObserved = !first && gap <= OBSERVED_GAP_MS;
    s.stop = stopped ? [f.time, f.time, f.navStatus === 1 ? 1 : 0] : null;
    s.stops = [];
    s.maxGapMs = 0;
    s.positions = 1;
    s.callArrival = null;
    if (s.waiting && (s.waiting.port !== s.port || f.time - s.waiting.to > WAITING_LINK_MS)) s.waiting = null;
  } else if (near && stopped) {
    // Stopped in the anchorage ring: waiting for this port, not a call (yet).
    if (s.waiting && s.waiting.port === near.area.unlocode && f.time - s.waiting.to <= WAITING_LINK_MS) s.waiting.to = f.time;
    else s.waiting = { port: near.area.unlocode, from: f.time, to: f.time };
  }
  remember(s, f);
  return events;
}

function remember(s: PortCallState, f: DerivedFix): void {
  s.t = f.time;
  s.lat = f.lat;
  s.lon = f.lon;
}

function isStopped(f: DerivedFix, gap: number, stepKm: number, wasStopped: boolean): boolean {
  const limit = wasStopped ? STOP_END_KN : STOP_BEGIN_KN;
  if (f.sog !== null) return wasStopped ? f.sog <= limit : f.sog < limit;
  if (Number.isFinite(gap) && gap > 0) return impliedKnots(stepKm, gap) < limit;
  return f.navStatus === 1 || f.navStatus === 5;
}

/** Stop bookkeeping for a fix inside the current area. */
function applyMotion(s: PortCallState, f: DerivedFix, gap: number, stepKm: number): void {
  const wasStopped = s.stop !== null;
  const stopped = isStopped(f, gap, stepKm, wasStopped);
  if (s.stop) {
    if (stopped) {
      s.stop[1] = f.time;
      if (f.navStatus !== null && f.navStatus !== 1) s.stop[2] = 0;
      return;
    }
    // Under way again: the stop ended between its last stopped fix and this one.
    const end = f.time - s.stop[1] <= DEPARTURE_SPLIT_MS ? Math.round((s.stop[1] + f.time) / 2) : s.stop[1];
    closeStop(s, end);
    return;
  }
  if (gap >= GAP_STAY_MS && stepKm < 2) {
    // Silent for hours without moving off: it stayed (a stop over the gap).
    s.stop = [s.t, f.time, 0];
    if (!stopped) closeStop(s, f.time);
    return;
  }
  if (stopped) s.stop = [f.time, f.time, f.navStatus === 1 ? 1 : 0];
}

function closeStop(s: PortCallState, end: number): void {
  const stop = s.stop!;
  stop[1] = end;
  s.stops.push(stop);
  if (s.stops.length > MAX_STOPS) s.stops.splice(1, 1);
  s.stop = null;
}

function stoppedMs(s: PortCallState): number {
  let ms = 0;
  for (const [from, to] of s.stops) ms += to - from;
  if (s.stop) ms += s.stop[1] - s.stop[0];
  return ms;
}

function allStops(s: PortCallState): Stop[] {
  return s.stop ? [...s.stops, s.stop] : s.stops;
}

/** The visit as a call, or null while it has not stayed long enough. */
function callOf(s: PortCallState, f: DerivedFix, area: PortArea | undefined, left: { at: number; observed: boolean } | null): PortCall | null {
  if (s.port === null || s.enteredAt === null || stoppedMs(s) < MIN_STAY_MS) return null;
  const stops = allStops(s);
  const arrival = stops[0]![0];
  const berth = stops.find((x) => x[2] === 0);
  const lastStop = stops[stops.length - 1]!;
  const departure = left ? lastStop[1] : null;
  // Arrival is seen when the vessel was seen entering, or under way in the area before stopping.
  const arrivalObserved = s.entryObserved || arrival > s.enteredAt;
  const departureObserved = left !== null && (left.observed || lastStop[1] < (left.at ?? 0));
  const level = 2 + Number(s.entryObserved) + Number(left?.observed ?? false);
  const waitingFrom = s.waiting && s.waiting.port === s.port ? s.waiting.from : berth && berth[0] > arrival ? arrival : null;
  return {
    id: `${f.stationId}:${f.mmsi}:${s.port}:${arrival}`,
    stationId: f.stationId,
    mmsi: f.mmsi,
    unlocode: s.port,
    enteredAt: s.enteredAt,
    arrival,
    berthArrival: berth ? berth[0] : null,
    departure,
    leftAt: left ? left.at : null,
    waitingFrom,
    arrivalObserved,
    departureObserved,
    confidence: level as 2 | 3 | 4,
    maxGapMinutes: Math.round(s.maxGapMs / 60_000),
    positions: s.positions,
    geometry: area?.geometry ?? "default_radius",
  };
}

function qualify(s: PortCallState, f: DerivedFix, area: PortArea): PortCallEvent | null {
  const call = callOf(s, f, area, null);
  if (!call) return null;
  const kind = s.callArrival === null ? "arrival" : "update";
  s.callArrival = call.arrival;
  return { kind, call };
}

/** The vessel left the area (this fix is beyond the exit circle). */
function leave(s: PortCallState, f: DerivedFix, gap: number, area: PortArea | undefined): PortCallEvent | null {
  if (s.stop) closeStop(s, s.stop[1]);
  const call = callOf(s, f, area, { at: s.t, observed: gap <= OBSERVED_GAP_MS });
  s.port = null;
  s.enteredAt = null;
  s.stop = null;
  s.stops = [];
  s.callArrival = null;
  s.waiting = null;
  return call ? { kind: "departure", call } : null;
}
