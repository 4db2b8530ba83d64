import { AppError } from "../../domain/errors.ts";
import { formatVesselId, isValidImo, type VesselId } from "../../domain/identifiers.ts";
import type { VesselIdentity } from "../../interfaces/positions.ts";
import type { VesselRecord, VisibleStations } from "../../interfaces/vessels.ts";
import type { OperationContext } from "../operation.ts";
import { accountIdOf } from "../principal.ts";

/** Vessels as a caller may see them: shared by the vessel page, its track and search. */

/** The stations whose data the caller may see: the account's own and shared ones. */
export function visibleStations(ctx: OperationContext): Promise<number[]> {
  return ctx.services.vessels.visibleStations(accountIdOf(ctx.principal));
}

/** A ship as the caller may see it: the registry's record, or only what visible stations heard (not linked yet). */
export interface ResolvedVessel {
  record: VesselRecord | null;
  imo: number | null;
  /** Every MMSI linked to the ship that the caller may see, the current one first. */
  mmsis: number[];
  /**
   * MMSIs another ship has used since: fixes of such an MMSI after this time (epoch ms) are
   * the other ship's, not this one's.
   */
  until: Map<number, number>;
  /** The id the vessel's links use: the IMO when known. */
  canonicalId: string;
}

/**
 * Finds the ship an id names, among what the caller may see. A ship only a private
 * station of another account heard is not found: for that caller it does not exist.
 */
export async function resolveVessel(ctx: OperationContext, id: VesselId, visible: VisibleStations): Promise<ResolvedVessel | null> {
  const vessels = ctx.services.vessels;
  const record = id.kind === "imo" ? await vessels.findByImo(id.imo, visible) : await vessels.findByMmsi(id.mmsi, visible);
  if (!record) {
    // Heard by a visible station but not linked yet (a report stored a moment ago).
    if (id.kind === "mmsi" && (await vessels.heardBy(id.mmsi, visible))) return mmsiOnly(id.mmsi);
    return null;
  }
  const lastSeen = new Map<number, number>();
  for (const l of record.identifiers) {
    if (l.kind !== "mmsi") continue;
    const m = Number(l.value);
    lastSeen.set(m, Math.max(lastSeen.get(m) ?? 0, l.lastSeen));
  }
  // An MMSI passed on to another ship (seen with it later) is this ship's only up to its own last sighting.
  const until = new Map<number, number>();
  for (const u of await vessels.mmsiUsers([...lastSeen.keys()], visible)) {
    if (u.vesselId === record.vesselId) continue;
    const mine = lastSeen.get(u.mmsi)!;
    if (u.lastSeen > mine) until.set(u.mmsi, mine);
  }
  const rank = (m: number) => (id.kind === "mmsi" && m === id.mmsi ? 2 : until.has(m) ? 0 : 1);
  // Asked by MMSI, that MMSI is the one meant; otherwise the newest one no other ship took over.
  const mmsis = [...lastSeen.entries()].sort((a, b) => rank(b[0]) - rank(a[0]) || b[1] - a[1]).map(([m]) => m);
  const canonical: VesselId = record.imo !== null ? { kind: "imo", imo: record.imo } : { kind: "mmsi", mmsi: record.mmsiKey ?? mmsis[0]! };
  return { record, imo: record.imo, mmsis, until, canonicalId: formatVesselId(canonical) };
}

/** An MMSI on its own, tied to no ship of the registry (not linked yet, or its link may not be shown). */
export function mmsiOnly(mmsi: number): ResolvedVessel {
  return { record: null, imo: null, mmsis: [mmsi], until: new Map(), canonicalId: formatVesselId({ kind: "mmsi", mmsi }) };
}

/** Whether an AIS identity row describes this ship: with the same IMO, or with none for a ship known by MMSI. */
export function describes(v: ResolvedVessel, i: VesselIdentity): boolean {
  if (v.record === null) return true;
  if (v.imo !== null) return i.imo === v.imo;
  return i.imo === null || !isValidImo(i.imo);
}

export function notFound(id: VesselId): AppError {
  return new AppError("not_found", id.kind === "imo" ? `No vessel with IMO ${id.imo} is known.` : `No vessel with MMSI ${String(id.mmsi).padStart(9, "0")} is known.`);
}

