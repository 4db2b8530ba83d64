import { midOf } from "../identifiers.ts";
import type { VesselIdentity, VesselIdentityFields } from "../vessels/vessel-identity.ts";
import type { VesselEvent } from "./vessel-event.ts";

export const IDENTITY_CHANGE_METHOD = "identity_change.broadcast_differs";
export const IDENTITY_CHANGE_VERSION = "1.0.0";
/** Two MMSIs broadcasting one IMO within this time of each other: an identity conflict, not a change of MMSI. */
export const CONFLICT_WINDOW_MS = 3_600_000;

/** The broadcast fields whose change is an event (dimensions, draught, destination change every voyage). */
const WATCHED = ["imo", "name", "callsign", "shipType"] as const;

type Update = Pick<VesselIdentity, "stationId" | "mmsi" | "updatedAt"> & VesselIdentityFields;
type Position = { lat: number; lon: number } | null;

/**
 * Identity changes from one static report (docs/vessel-events.md): each watched field the
 * report carries with a value that differs from the value the same station stored for the
 * same MMSI. A field first heard, or broadcast as "not available", is not a change.
 */
export function identityChanges(stored: VesselIdentity | undefined, update: Update, position: Position): VesselEvent[] {
  if (!stored) return [];
  const out: VesselEvent[] = [];
  for (const field of WATCHED) {
    const now = update[field];
    const before = stored[field];
    if (now === undefined || now === null || before === null || now === before) continue;
    out.push(event(update, position, `${field}`, { field, old: before, new: now }));
  }
  return out;
}

/**
 * The same station heard another MMSI broadcast this IMO (`other`): within an hour of this
 * report, two transmitters claim one ship at once (an identity conflict); earlier, the ship
 * changed MMSI, and with it the flag its MID stands for.
 */
export function imoOnAnotherMmsi(update: Update & { imo: number }, other: Pick<VesselIdentity, "mmsi" | "updatedAt">, position: Position): VesselEvent {
  const conflict = update.updatedAt - other.updatedAt <= CONFLICT_WINDOW_MS;
  const details = conflict
    ? { field: "imo", kind: "conflict", imo: update.imo, otherMmsi: other.mmsi }
    : { field: "mmsi", kind: "change", imo: update.imo, old: other.mmsi, new: update.mmsi, oldMid: midOf(other.mmsi), newMid: midOf(update.mmsi) };
  return { ...event(update, position, conflict ? `conflict:${other.mmsi}` : `mmsi:${other.mmsi}`, details), counterpartMmsi: other.mmsi };
}

function event(u: Update, position: Position, what: string, details: Record<string, unknown>): VesselEvent {
  return {
    id: `identity_change:${u.stationId}:${u.mmsi}:${what}:${u.updatedAt}`,
    type: "identity_change",
    stationId: u.stationId,
    mmsi: u.mmsi,
    start: u.updatedAt,
    end: u.updatedAt,
    lat: position?.lat ?? null,
    lon: position?.lon ?? null,
    counterpartMmsi: null,
    details,
    method: IDENTITY_CHANGE_METHOD,
    version: IDENTITY_CHANGE_VERSION,
    // The station decoded both reports itself: what was broadcast is certain, not why.
    confidence: 1,
    inputs: { positions: 0, maxGapMinutes: 0 },
  };
}
