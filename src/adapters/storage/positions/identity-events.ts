import type { Transaction } from "kysely";
import { identityChanges, imoOnAnotherMmsi } from "../../../domain/derived/identity-change-detector.ts";
import type { VesselEvent } from "../../../domain/derived/vessel-event.ts";
import type { VesselIdentity } from "../../../domain/vessels/vessel-identity.ts";
import type { VesselIdentityUpdate } from "../../../interfaces/positions.ts";
import type { Database } from "../schema.ts";
import { identityFromRow } from "./position-rows.ts";

/** Members of one IN list. */
const CHUNK = 500;

/**
 * The identity changes a batch of static reports makes, read in ingest's transaction before
 * the reports are stored (docs/vessel-events.md): each report against what its station
 * stored for the MMSI (and the reports before it in the batch), and an IMO newly claimed by
 * an MMSI against the other MMSIs the station heard claim it. Recorded at ingest, since the
 * stored identity keeps only the latest report: `mds derive` leaves these events as they are.
 */
export async function identityEvents(trx: Transaction<Database>, updates: readonly VesselIdentityUpdate[]): Promise<VesselEvent[]> {
  if (updates.length === 0) return [];
  const byStation = new Map<number, Set<number>>();
  for (const u of updates) (byStation.get(u.stationId) ?? byStation.set(u.stationId, new Set()).get(u.stationId)!).add(u.mmsi);
  const stored = new Map<string, VesselIdentity>();
  const positions = new Map<string, { lat: number; lon: number }>();
  for (const [stationId, set] of byStation) {
    const mmsis = [...set];
    for (let i = 0; i < mmsis.length; i += CHUNK) {
      const chunk = mmsis.slice(i, i + CHUNK);
      for (const r of await trx.selectFrom("vessel_identities").selectAll().where("station_id", "=", stationId).where("mmsi", "in", chunk).execute()) stored.set(`${stationId}:${r.mmsi}`, identityFromRow(r));
      for (const r of await trx.selectFrom("latest_positions").select(["mmsi", "lat", "lon"]).where("station_id", "=", stationId).where("mmsi", "in", chunk).execute()) positions.set(`${stationId}:${r.mmsi}`, { lat: r.lat, lon: r.lon });
    }
  }
  const out: VesselEvent[] = [];
  for (const u of [...updates].sort((a, b) => a.updatedAt - b.updatedAt)) {
    const key = `${u.stationId}:${u.mmsi}`;
    const before = stored.get(key);
    const position = positions.get(key) ?? null;
    out.push(...identityChanges(before, u, position));
    if (typeof u.imo === "number" && u.imo !== before?.imo) {
      const claims = await trx.selectFrom("vessel_identities").select(["mmsi", "updated_at"]).where("station_id", "=", u.stationId).where("imo", "=", u.imo).where("mmsi", "!=", u.mmsi).execute();
      for (const c of claims) out.push(imoOnAnotherMmsi({ ...u, imo: u.imo }, { mmsi: c.mmsi, updatedAt: Number(c.updated_at) }, position));
    }
    // The next report of this MMSI in the batch compares with this one.
    if (before) stored.set(key, { ...before, ...defined(u) });
    else stored.set(key, { stationId: u.stationId, mmsi: u.mmsi, updatedAt: u.updatedAt, imo: null, name: null, callsign: null, shipType: null, toBow: null, toStern: null, toPort: null, toStarboard: null, draught: null, destination: null, eta: null, ...defined(u) });
  }
  return out;
}

/** The fields a report carries (undefined ones leave the stored value). */
function defined(u: VesselIdentityUpdate): Partial<VesselIdentity> {
  return Object.fromEntries(Object.entries(u).filter(([, v]) => v !== undefined)) as Partial<VesselIdentity>;
}
