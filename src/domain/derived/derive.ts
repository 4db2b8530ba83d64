import { type BehaviourContext, type BehaviourState, newBehaviourState, observeBehaviour, type SlowEpisode, type Silence } from "./slow-episode.ts";
import type { DerivedFix } from "./fix.ts";
import { heardCell } from "./gap-detector.ts";
import { loiteringOf } from "./loitering-detector.ts";
import type { PortAreaIndex } from "./port-areas.ts";
import { newPortCallState, observePortCall, type PortCallEvent, type PortCallState } from "./port-call-detector.ts";
import type { ShoreIndex } from "./shore.ts";
import { type GateCrossing, type GateSet, observeTransit, type TransitState } from "./transit-detector.ts";
import type { VesselEvent } from "./vessel-event.ts";

/** Everything the detectors keep about one vessel as one station hears it. */
export interface VesselDerivedState {
  calls: PortCallState;
  transit: TransitState;
  /** Absent in states saved before the behaviour detectors: taken as new. */
  behaviour?: BehaviourState;
}

export function newVesselDerivedState(): VesselDerivedState {
  return { calls: newPortCallState(), transit: { t: -1, lat: 0, lon: 0 }, behaviour: newBehaviourState() };
}

/**
 * The time of the last fix a vessel's state has taken: fixes are applied in time order, so
 * it only moves forward, and it is what the store keeps beside the state (`last_time`). It
 * tells whether a state is still the one stored, or another process has moved it on.
 */
export function derivedStateTime(state: VesselDerivedState): number {
  return Math.max(state.calls.t, state.transit.t, state.behaviour?.t ?? -1);
}

/** What the detectors read besides the fixes: reference data and tuning. */
export interface DeriveContext extends BehaviourContext {
  ports: PortAreaIndex;
  gates: GateSet;
  shore: ShoreIndex;
}

export interface DerivedOutput {
  calls: PortCallEvent[];
  crossings: GateCrossing[];
  coverage: { gateId: string; hour: number }[];
  /** Loitering, open or closed, as this fix leaves it. */
  events: VesselEvent[];
  /** A slow episode that ended, long and far enough from port to be judged for encounters. */
  meeting: SlowEpisode | null;
  /** A silence long enough to be judged as an AIS gap. */
  silence: Silence | null;
  /** The hour and cell the fix was heard in (the station's coverage behind gaps); null when the vessel's previous fix said the same. */
  heard: { hour: number; cell: number } | null;
}

/** A slow episode this long, clear of ports, may hold an encounter. */
const MEETING_MIN_MS = 2 * 3_600_000;

/** Applies one fix to every detector. Live ingest and `mds derive` both go through here. */
export function deriveFix(state: VesselDerivedState, fix: DerivedFix, ctx: DeriveContext): DerivedOutput {
  const calls = observePortCall(state.calls, fix, ctx.ports);
  const { crossings, coverage } = observeTransit(state.transit, fix, ctx.gates);
  const step = observeBehaviour((state.behaviour ??= newBehaviourState()), fix, ctx);
  const events: VesselEvent[] = [];
  const closed = step.closed ? loiteringOf(step.closed, true) : null;
  if (closed) events.push(closed);
  const open = step.open ? loiteringOf(step.open, false) : null;
  if (open) events.push(open);
  const meeting = step.closed && !step.closed.nearPort && step.closed.last - step.closed.start >= MEETING_MIN_MS ? step.closed : null;
  return { calls, crossings, coverage, events, meeting, silence: step.silence, heard: heardOf(state.behaviour, fix) };
}

/** The fix's hour and cell, unless the vessel's last fix gave the same (most do: it is one row, written once). */
function heardOf(b: BehaviourState, fix: DerivedFix): { hour: number; cell: number } | null {
  const hour = Math.floor(fix.time / 3_600_000) * 3_600_000;
  const cell = heardCell(fix.lat, fix.lon);
  if (b.heardHour === hour && b.heardCell === cell) return null;
  b.heardHour = hour;
  b.heardCell = cell;
  return { hour, cell };
}
