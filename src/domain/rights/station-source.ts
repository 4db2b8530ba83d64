import type { Source } from "./source.ts";

/** What the rights engine needs of a shared station: whose it is and what its owner grants. */
export interface SharedStationGrant {
  id: number;
  accountId: string;
  name: string;
  /** The name its source goes by; the station's name when none was chosen. */
  sourceName: string | null;
  redistribution: boolean;
  commercial: boolean;
}

/** The grant of a station record (`Station` of the ports, structurally). */
export function grantOf(s: { id: number; accountId: string; name: string; sourceName: string | null; grants: { redistribution: boolean; commercial: boolean } }): SharedStationGrant {
  return { id: s.id, accountId: s.accountId, name: s.name, sourceName: s.sourceName, redistribution: s.grants.redistribution, commercial: s.grants.commercial };
}

export function stationSourceId(stationId: number): string {
  return `station:${stationId}`;
}

/**
 * The source a shared station's data is published under. Sharing grants API use to
 * everyone; redistribution and commercial use only when the owner grants them. The owner
 * is named so the rights engine never restricts an owner's own data by what they grant
 * others (decide.ts).
 */
export function sharedStationSource(s: SharedStationGrant): Source {
  const name = s.sourceName ?? s.name;
  const grants = [s.redistribution ? "redistribution" : null, s.commercial ? "commercial use" : null].filter((g) => g !== null);
  return {
    id: stationSourceId(s.id),
    name,
    attribution: `AIS received by the station ${JSON.stringify(name)}, shared by its owner`,
    license: `Shared by the station's owner for use through this service's API${grants.length > 0 ? `, with ${grants.join(" and ")}` : "; no redistribution or commercial use granted"}`,
    permissions: { api: true, redistribution: s.redistribution, commercial: s.commercial },
    ownerAccountId: s.accountId,
  };
}
