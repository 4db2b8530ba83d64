import type { DerivedFix } from "./fix.ts";
import type { PortAreaIndex } from "./port-areas.ts";
import { newPortCallState, observePortCall, type PortCallEvent, type PortCallState } from "./port-call-detector.ts";
import { type GateCrossing, type GateSet, observeTransit, type TransitState } from "./transit-detector.ts";

/** Everything the detectors keep about one vessel as one station hears it. */
export interface VesselDerivedState {
  calls: PortCallState;
  transit: TransitState;
}

export function newVesselDerivedState(): VesselDerivedState {
  return { calls: newPortCallState(), transit: { t: -1, lat: 0, lon: 0 } };
}

/**
 * The time of the last fix a vessel's state has taken: fixes are applied in time order, so
 * it only moves forward, and it is what the store keeps beside the state (`last_time`). It
 * tells whether a state is still the one stored, or another process has moved it on.
 */
export function derivedStateTime(state: VesselDerivedState): number {
  return Math.max(state.calls.t, state.transit.t);
}

export interface DerivedOutput {
  calls: PortCallEvent[];
  crossings: GateCrossing[];
  coverage: { gateId: string; hour: number }[];
}

/** Applies one fix to both detectors. Live ingest and `mds derive` both go through here. */
export function deriveFix(state: VesselDerivedState, fix: DerivedFix, ports: PortAreaIndex, gates: GateSet): DerivedOutput {
  const calls = observePortCall(state.calls, fix, ports);
  const { crossings, coverage } = observeTransit(state.transit, fix, gates);
  return { calls, crossings, coverage };
}
