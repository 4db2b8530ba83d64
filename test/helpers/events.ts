/**
 * Behaviour events and port calls written the way live derivation writes them: one
 * DerivedStore.commit of a page with no queued fixes (no detector runs in these tests).
 */
import type { PortCall } from "../../src/domain/derived/port-call-detector.ts";
import type { VesselEvent, VesselEventType } from "../../src/domain/derived/vessel-event.ts";
import type { TestService } from "./service.ts";

export function vesselEvent(e: Partial<VesselEvent> & { type: VesselEventType; stationId: number; mmsi: number; start: number }): VesselEvent {
  return {
    id: `${e.type}:${e.stationId}:${e.mmsi}:${e.start}${e.counterpartMmsi ? `:${e.counterpartMmsi}` : ""}`,
    end: e.start + 3 * 3_600_000,
    lat: 59.5,
    lon: 20.5,
    counterpartMmsi: null,
    details: {},
    method: `${e.type}.test`,
    version: "1.0.0",
    confidence: 0.9,
    inputs: { positions: 40, maxGapMinutes: 6 },
    ...e,
  };
}

export function portCall(c: Partial<PortCall> & { stationId: number; mmsi: number; unlocode: string; arrival: number }): PortCall {
  return {
    id: `call:${c.stationId}:${c.mmsi}:${c.unlocode}:${c.arrival}`,
    enteredAt: c.arrival - 1_800_000,
    berthArrival: null,
    departure: c.arrival + 5 * 3_600_000,
    leftAt: null,
    waitingFrom: null,
    arrivalObserved: true,
    departureObserved: true,
    confidence: 4,
    maxGapMinutes: 3,
    positions: 120,
    geometry: "wpi_radius",
    ...c,
  };
}

/** One commit of these events and calls, as a page of live derivation with no fixes. */
export async function commitEvents(t: TestService, events: VesselEvent[], calls: PortCall[] = []): Promise<void> {
  const r = await t.service.services.derived.commit({ first: 0, last: 0, count: 0, states: [], calls, crossings: [], coverage: [], events, episodes: [], heard: [], alerts: [] }, t.clock.now());
  if (!r.consumed) throw new Error("the commit was not taken");
}
