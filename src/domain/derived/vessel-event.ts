/**
 * A behaviour event of one vessel as one station's fixes show it (docs/vessel-events.md):
 * the derived fact the encounter, loitering, AIS-gap and identity detectors emit. Port calls
 * are events too, kept in their own table and served in the same list as type `port_call`.
 */
export const VESSEL_EVENT_TYPES = ["encounter", "loitering", "ais_gap", "identity_change"] as const;
export type VesselEventType = (typeof VESSEL_EVENT_TYPES)[number];

/** Every type the events list serves, port calls included. */
export const SERVED_EVENT_TYPES = ["port_call", ...VESSEL_EVENT_TYPES] as const;
export type ServedEventType = (typeof SERVED_EVENT_TYPES)[number];

export interface VesselEvent {
  /** Deterministic from (type, station, vessel, start[, counterpart]): a recompute writes the same row. */
  id: string;
  type: VesselEventType;
  /** The station whose fixes (or static reports) made the event: its rights govern the event. */
  stationId: number;
  mmsi: number;
  /** Epoch ms. */
  start: number;
  /** Epoch ms; null while the event is still open (a gap not yet closed, a loitering still going). */
  end: number | null;
  /**
   * Where it happened: the centroid of a meeting or a loitering, the last position before a
   * gap, the vessel's last position when its identity changed (null when none was heard).
   */
  lat: number | null;
  lon: number | null;
  /** The other vessel of an encounter (heard by the same station); null for every other type. */
  counterpartMmsi: number | null;
  /** Type-specific facts (medianKnots, distanceKm, impliedKnots, field/old/new, ...). */
  details: Record<string, unknown>;
  method: string;
  version: string;
  /** 0..1: how well the fixes cover the event (docs/vessel-events.md gives each type's rule). */
  confidence: number;
  inputs: { positions: number; maxGapMinutes: number };
}
