import type { Follow } from "../../interfaces/alerts.ts";
import type { PositionStore } from "../../interfaces/positions.ts";

/** What a station's static reports say of a vessel, as far as alerts name it. */
export interface HeardIdentity {
  imo: number | null;
  name: string | null;
}

/**
 * The identity each (station, vessel) of derived facts was heard with, keyed
 * `station:mmsi`, and the IMO numbers among them: whom a derived alert names, and the
 * follows it may match. Port-call and behaviour-event alerts both start here.
 */
export async function heardIdentities(positions: PositionStore, keys: readonly { stationId: number; mmsi: number }[]): Promise<{ byKey: Map<string, HeardIdentity>; imos: number[] }> {
  const byKey = new Map<string, HeardIdentity>();
  for (const k of keys) {
    const key = `${k.stationId}:${k.mmsi}`;
    if (byKey.has(key)) continue;
    const [i] = await positions.identities([k.stationId], [k.mmsi]);
    byKey.set(key, { imo: i?.imo ?? null, name: i?.name ?? null });
  }
  const imos = [...new Set([...byKey.values()].map((i) => i.imo).filter((x): x is number => x !== null))];
  return { byKey, imos };
}

/** A vessel follow matches by the MMSI heard, or by the IMO the station heard it broadcast. */
export function followMatchesVessel(f: Follow, mmsi: number, identity: HeardIdentity): boolean {
  return f.mmsi === mmsi || (f.imo !== null && f.imo === identity.imo);
}
