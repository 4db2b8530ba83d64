/**
 * "Sanctioned" as a short mark on a ship or a company seen from elsewhere (a search hit, a
 * company's fleet row, a vessel's company): the sanctions lists that designate it now, among
 * those the caller may be shown. The full designations, with dates and coverage, are on the
 * thing's own answer; this mark only says which lists to look at there.
 */
import { z } from "zod";
import { formatVesselId, type VesselId } from "../../domain/identifiers.ts";
import { isSanctionsListKey, SANCTIONS_LISTS, type SanctionsListKey } from "../../domain/sanctions/designation.ts";
import type { OperationContext } from "../operation.ts";
import { findDesignations } from "./designation-match.ts";

export const SanctionedListsSchema = z
  .array(z.enum(SANCTIONS_LISTS))
  .describe("The sanctions lists (ofac, uk, eu, canada, new-zealand) that designate it now, among those you may be shown; empty when none. Not a clearance when empty: see its own answer's coverage.");

/** Lists in the house order (SANCTIONS_LISTS), each once, only those the caller may be shown. */
function shownLists(ctx: OperationContext, lists: Iterable<string>): SanctionsListKey[] {
  const given = new Set(lists);
  return SANCTIONS_LISTS.filter((l) => given.has(l) && ctx.rights.may([l]));
}

/**
 * Per ship (keyed by formatVesselId), the lists whose active designation matches it by
 * screening's rule; two reads whatever the number of ships.
 */
export async function sanctionedShips(ctx: OperationContext, ids: readonly VesselId[]): Promise<Map<string, SanctionsListKey[]>> {
  const out = new Map<string, SanctionsListKey[]>();
  if (ids.length === 0) return out;
  const found = await findDesignations(ctx.services.sanctions, ids, SANCTIONS_LISTS, await ctx.services.sanctions.listStates());
  for (const id of ids) {
    const key = formatVesselId(id);
    out.set(key, shownLists(ctx, (found.get(key) ?? []).filter((m) => m.hit.active).map((m) => m.hit.list)));
  }
  return out;
}

/** A company's own designations (records of a list that designate it), as lists the caller may be shown. */
export function sanctionedCompany(ctx: OperationContext, records: readonly { source: string; designations: readonly unknown[] }[]): SanctionsListKey[] {
  return shownLists(
    ctx,
    records.filter((r) => isSanctionsListKey(r.source) && r.designations.length > 0).map((r) => r.source),
  );
}
