import { z } from "zod";
import { formatVesselId, type VesselId } from "../../domain/identifiers.ts";
import { sourced } from "../../domain/rights/sourced.ts";
import { designationList, SANCTIONS_LISTS, type SanctionsListKey } from "../../domain/sanctions/designation.ts";
import { MeasureSchema } from "../../domain/sanctions/measures.ts";
import { type DesignationMatch, linkedMmsisOf, listingDates, matchVessel } from "../../domain/sanctions/matching.ts";
import type { IdentifierHit, SanctionsListState, SanctionsStore } from "../../interfaces/sanctions.ts";

export type Match = DesignationMatch<IdentifierHit>;

/** What every answer says of a designation it found (screening, the vessel page), in this order; each adds its own fields. */
export const DESIGNATION_FOUND_FIELDS = {
  list: z.string().describe("The list the designation is on, e.g. `ofac_sdn` (docs/sanctions.md names them all)."),
  family: z.enum(SANCTIONS_LISTS).describe("The key of the list's family, as in `/sanctions/{list}` and `lists=`: ofac, uk, eu, canada, new-zealand."),
  listName: z.string(),
  recordId: z.string(),
  name: z.string(),
  program: z.string().nullable(),
  measures: z.array(MeasureSchema).describe("What the designation imposes (asset freeze, port-access ban...), each in the list's words with its legal basis; empty when the list states none."),
  listedAt: z.string().nullable(),
  firstSeenAt: z.string(),
  delistedAt: z.string().nullable(),
};

/**
 * The designations matching each vessel id (domain/sanctions/matching.ts has the rule), read
 * in two lookups whatever the number of ids: their own identifiers, then the MMSIs linked to
 * the IMOs among them. `states` pins both reads to the same list versions.
 */
export async function findDesignations(store: SanctionsStore, ids: readonly VesselId[], lists: readonly SanctionsListKey[], states: readonly SanctionsListState[]): Promise<Map<string, Match[]>> {
  const imos = ids.flatMap((id) => (id.kind === "imo" ? [id.imo] : []));
  const mmsis = ids.flatMap((id) => (id.kind === "mmsi" ? [id.mmsi] : []));
  const hits = imos.length + mmsis.length > 0 ? await store.findByIdentifiers({ imos, mmsis, lists, states }) : [];
  const byId = group(hits, (h) => `${h.kind}:${h.value}`);

  // The MMSIs the lists themselves give for a queried IMO reach designations that publish no IMO.
  const linkedOf = new Map<number, number[]>();
  for (const imo of imos) linkedOf.set(imo, linkedMmsisOf(byId.get(`imo:${imo}`) ?? []));
  const linked = [...new Set([...linkedOf.values()].flat())];
  const linkedHits = group(linked.length > 0 ? await store.findByIdentifiers({ imos: [], mmsis: linked, lists, states }) : [], (h) => `${h.kind}:${h.value}`);

  const out = new Map<string, Match[]>();
  for (const id of ids) {
    const direct = byId.get(id.kind === "imo" ? `imo:${id.imo}` : `mmsi:${id.mmsi}`) ?? [];
    const viaMmsi = id.kind === "imo" ? (linkedOf.get(id.imo) ?? []).flatMap((m) => linkedHits.get(`mmsi:${m}`) ?? []) : [];
    out.set(formatVesselId(id), matchVessel(id, direct, viaMmsi));
  }
  return out;
}

/** One vessel's designations on every list, as the vessel page shows them. */
export async function designationsOf(store: SanctionsStore, id: VesselId, states?: readonly SanctionsListState[]): Promise<Match[]> {
  const found = await findDesignations(store, [id], SANCTIONS_LISTS, states ?? (await store.listStates()));
  return found.get(formatVesselId(id)) ?? [];
}

function group<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = map.get(key);
    if (list) list.push(item);
    else map.set(key, [item]);
  }
  return map;
}

/** What every view of a designation starts with: which list, which record, and its dates. */
function designationCore(hit: Match["hit"]) {
  const { list, listName } = designationList(hit);
  return {
    list,
    family: hit.list,
    listName,
    recordId: hit.recordId,
    name: hit.name,
    program: hit.program,
    measures: hit.measures,
    ...listingDates(hit),
    delistedAt: hit.delistedAt,
  };
}

/** A designation as screening shows it, shown only where its list may be. */
export function screenDesignation({ hit, matchedOn }: Match) {
  return sourced(
    "designations",
    [hit.list],
    {
      ...designationCore(hit),
      matchedOn,
      matchedValue: hit.value,
      matchedFormerIdentifier: !hit.current,
      imos: hit.allImos,
      mmsis: hit.allMmsis,
      sourceUrl: hit.sourceUrl,
    },
    { countRows: true, leaf: true },
  );
}

/** A designation as the vessel page shows it: the same match, with whether it is active. */
export function vesselPageDesignation({ hit, matchedOn }: Match) {
  return sourced(
    "sanctions",
    [hit.list],
    {
      ...designationCore(hit),
      active: hit.active,
      matchedOn,
      sourceUrl: hit.sourceUrl,
    },
    { countRows: true, leaf: true },
  );
}

/** One list's coverage as every sanctions answer shows it (domain/sanctions/coverage.ts). */
export const ListCoverageSchema = z.object({
  list: z.string(),
  listName: z.string(),
  status: z.enum(["current", "stale", "extract", "missing"]),
  asOf: z.string().nullable(),
  importedAt: z.string().nullable(),
  kind: z.enum(["list", "extract"]).nullable(),
  extract: z.boolean(),
  stale: z.boolean(),
  activeDesignations: z.number().int(),
});
