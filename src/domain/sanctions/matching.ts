import type { VesselId } from "../identifiers.ts";
import { SANCTIONS_LISTS, type SanctionsListKey } from "./designation.ts";

/**
 * The one rule by which a designation concerns a vessel, used by screening, the vessel page
 * and sanctions alerts. Identifier-only: a designation matches an IMO when one of the IMO
 * numbers it carries or carried while designated equals it, and an MMSI when one of its MMSIs
 * does. For an IMO, designations that carry no IMO at all also match by the MMSIs the IMO's
 * own designations carry (matched on `mmsi`). Names are never matched.
 */

export type MatchedOn = "imo" | "mmsi";

/** What matching reads of a designation found by one of its identifiers. */
export interface MatchableDesignation {
  id: number;
  list: SanctionsListKey;
  kind: MatchedOn;
  value: number;
  active: boolean;
  listedAt: string | null;
  firstSeen: string;
  allImos: readonly number[];
  allMmsis: readonly number[];
}

export interface DesignationMatch<D extends MatchableDesignation> {
  hit: D;
  matchedOn: MatchedOn;
}

/** How a designation carrying these identifiers matches the vessel id directly, or null. */
export function directMatch(id: VesselId, designation: { imos: readonly number[]; mmsis: readonly number[] }): MatchedOn | null {
  if (id.kind === "imo") return designation.imos.includes(id.imo) ? "imo" : null;
  return designation.mmsis.includes(id.mmsi) ? "mmsi" : null;
}

/** The MMSIs whose IMO-less designations also match an IMO: those its own designations carry. */
export function linkedMmsisOf(imoHits: readonly MatchableDesignation[]): number[] {
  return [...new Set(imoHits.flatMap((h) => h.allMmsis))];
}

const LIST_ORDER = new Map<string, number>(SANCTIONS_LISTS.map((l, i) => [l, i]));

/**
 * The one order of a vessel's designations: active before past, then by list in the order
 * the lists are named, then oldest listing first, then as stored.
 */
export function compareMatches(a: DesignationMatch<MatchableDesignation>, b: DesignationMatch<MatchableDesignation>): number {
  return (
    Number(b.hit.active) - Number(a.hit.active) ||
    LIST_ORDER.get(a.hit.list)! - LIST_ORDER.get(b.hit.list)! ||
    (a.hit.listedAt ?? a.hit.firstSeen).localeCompare(b.hit.listedAt ?? b.hit.firstSeen) ||
    a.hit.id - b.hit.id
  );
}

/**
 * The designations matching one vessel id, in the one order, from the hits of its own
 * identifier (`direct`) and of the MMSIs linked to it (`linked`, for an IMO).
 */
export function matchVessel<D extends MatchableDesignation>(id: VesselId, direct: readonly D[], linked: readonly D[]): DesignationMatch<D>[] {
  const matches: DesignationMatch<D>[] = direct.filter((h) => h.kind === id.kind).map((hit) => ({ hit, matchedOn: id.kind }));
  if (id.kind === "imo") {
    const seen = new Set(matches.map((m) => m.hit.id));
    for (const hit of linked) {
      if (hit.kind !== "mmsi" || hit.allImos.length > 0 || seen.has(hit.id)) continue;
      seen.add(hit.id);
      matches.push({ hit, matchedOn: "mmsi" });
    }
  }
  return matches.sort(compareMatches);
}

/**
 * When a designation was listed, as the publication gives it: `listedAt` is the list's own
 * date, or null where the publication carries none (OFAC's sdn.csv); `firstSeenAt` is when
 * this service first saw the designation (an instant), never passed off as a listing date.
 */
export function listingDates(d: { listedAt: string | null; firstSeenAt: number }): { listedAt: string | null; firstSeenAt: string } {
  return { listedAt: d.listedAt, firstSeenAt: new Date(d.firstSeenAt).toISOString() };
}
