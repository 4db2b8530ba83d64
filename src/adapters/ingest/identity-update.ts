import type { DecodedAisMessage } from "../../domain/ais/index.ts";
import { isValidImo } from "../../domain/identifiers.ts";
import type { VesselIdentityUpdate } from "../../interfaces/positions.ts";

function text(v: string): string | null {
  return v === "" ? null : v;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function dims(toBow: number, toStern: number, toPort: number, toStarboard: number) {
  // All zero means "not available" (M.1371-5, message 5 reference point).
  const none = toBow === 0 && toStern === 0 && toPort === 0 && toStarboard === 0;
  return { toBow: none ? null : toBow, toStern: none ? null : toStern, toPort: none ? null : toPort, toStarboard: none ? null : toStarboard };
}

/**
 * What a static report (types 5, 19, 24 A/B) says of a vessel's identity, as heard by one
 * station; null for any other message or one that carries nothing usable.
 */
export function identityUpdate(m: DecodedAisMessage, stationId: number, now: number): VesselIdentityUpdate | null {
  if (m.mmsi === 0) return null;
  if (m.type === 5) {
    const eta = m.etaMonth !== null && m.etaDay !== null ? `${two(m.etaMonth)}-${two(m.etaDay)}${m.etaHour !== null && m.etaMinute !== null ? `T${two(m.etaHour)}:${two(m.etaMinute)}Z` : ""}` : null;
    return {
      stationId,
      mmsi: m.mmsi,
      // A wrong check digit is a typing error on board, not an identity: keep it out.
      imo: m.imo !== null && isValidImo(m.imo) ? m.imo : null,
      name: text(m.shipname),
      callsign: text(m.callsign),
      shipType: m.shipType === 0 ? null : m.shipType,
      ...dims(m.toBow, m.toStern, m.toPort, m.toStarboard),
      draught: m.draught,
      destination: text(m.destination),
      eta,
      updatedAt: now,
    };
  }
  if (m.type === 19) {
    return { stationId, mmsi: m.mmsi, name: text(m.shipname), shipType: m.shipType === 0 ? null : m.shipType, ...dims(m.toBow, m.toStern, m.toPort, m.toStarboard), updatedAt: now };
  }
  if (m.type === 24 && m.partno === 0) return { stationId, mmsi: m.mmsi, name: text(m.shipname), updatedAt: now };
  if (m.type === 24 && m.partno === 1) {
    const u: VesselIdentityUpdate = { stationId, mmsi: m.mmsi, shipType: m.shipType === 0 ? null : m.shipType, callsign: text(m.callsign), updatedAt: now };
    // Auxiliary craft carry their mother ship's MMSI where the dimensions would be.
    if (m.toBow !== null && m.toStern !== null && m.toPort !== null && m.toStarboard !== null) Object.assign(u, dims(m.toBow, m.toStern, m.toPort, m.toStarboard));
    return u;
  }
  return null;
}

/** `newer` wins for every field it carries; the rest comes from `older`. */
export function mergeIdentity(older: VesselIdentityUpdate, newer: VesselIdentityUpdate): VesselIdentityUpdate {
  const out: VesselIdentityUpdate = { ...older };
  for (const [k, v] of Object.entries(newer)) if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v;
  return out;
}
