import { z } from "zod";
import { formatVesselId, type VesselId } from "../domain/identifiers.ts";
import { sourced } from "../domain/rights/sourced.ts";
import { SANCTIONS_LISTS, type SanctionsListKey } from "../domain/sanctions/designation.ts";
import { anyListChecked, checkedInFull, coverageInWords, listCoverage, listsChecked, screeningCertainty } from "../domain/sanctions/coverage.ts";
import { AppError } from "../domain/errors.ts";
import type { OperationContext } from "./operation.ts";
import { listVersionsUsed } from "./screening-receipt.ts";
import { DESIGNATION_FOUND_FIELDS, findDesignations, ListCoverageSchema, screenDesignation } from "./projections/designation-match.ts";

/**
 * Screening vessels against the sanctions lists: what `/screen` and a watchlist's screening
 * share, so that a vessel screened either way gets the same row (spec 2.7) from the same code.
 */

const SCREEN_METHOD =
  "Identifier-only matching. A designation matches an IMO query when one of the IMO numbers it carries or carried while designated equals it, " +
  "and an MMSI query when one of its MMSIs does. For an IMO query, designations that carry no IMO at all also match by the MMSIs the IMO's own " +
  "designations carry (matchedOn mmsi). Names are never matched. No match means that no designation on the screened lists, as of the versions " +
  "given in `coverage`, carries that identifier; it is not a clearance of the vessel. `sanctioned` is true exactly when an active designation on a " +
  "checked list matches. `certainty` says how far a false may be trusted: `clear` only when every requested list was checked in full; `incomplete` " +
  "when a list was never loaded, only a dated extract of it is held, or it is withheld from this caller (`listsChecked` names them).";

/** One vessel to screen: the text it is answered under (`query`) and its id. */
export type ScreenQuery = { text: string; id: VesselId };

/** The `lists` parameter: a comma list of list families, all of them when left out. */
export const listsParam = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return [...SANCTIONS_LISTS];
    const out = new Set<SanctionsListKey>();
    for (const raw of v.split(",")) {
      const key = raw.trim().toLowerCase();
      if (key === "") continue;
      if (!(SANCTIONS_LISTS as readonly string[]).includes(key)) {
        ctx.addIssue({ code: "custom", message: `has \`${key.slice(0, 40)}\`; use a comma list of ofac, uk, canada, eu, new-zealand` });
        return z.NEVER;
      }
      out.add(key as SanctionsListKey);
    }
    if (out.size === 0) {
      ctx.addIssue({ code: "custom", message: "must name at least one list: ofac, uk, canada, eu, new-zealand" });
      return z.NEVER;
    }
    return SANCTIONS_LISTS.filter((l) => out.has(l));
  })
  .describe(`Comma-separated lists to screen against, from ${SANCTIONS_LISTS.join(", ")}. Default: all of them.`);

const ScreenDesignationSchema = z.object({
  ...DESIGNATION_FOUND_FIELDS,
  matchedOn: z.enum(["imo", "mmsi"]),
  matchedValue: z.number().int(),
  matchedFormerIdentifier: z.boolean(),
  imos: z.array(z.number().int()),
  mmsis: z.array(z.number().int()),
  sourceUrl: z.string(),
});

/** One screened vessel (spec 2.7). */
export const ScreenResultSchema = z.object({
  query: z.string(),
  imo: z.number().int().nullable(),
  mmsi: z.number().int().nullable(),
  name: z.string().nullable(),
  sanctioned: z.boolean(),
  certainty: z.enum(["match", "clear", "incomplete"]),
  listsChecked: z.object({ full: z.array(z.string()), extract: z.array(z.string()), notChecked: z.array(z.string()) }),
  activeDesignations: z.array(ScreenDesignationSchema),
  pastDesignations: z.array(ScreenDesignationSchema),
});

/** The top-level fields of a screening answer. */
export const SCREEN_TOP = {
  method: z.string(),
  sanctionedCount: z.number().int(),
  allListsCheckedInFull: z.boolean(),
  coverage: z.array(ListCoverageSchema),
  coverageNote: z.string(),
};

/**
 * Screens the vessels against the lists, as of one read of the list versions. Nothing
 * checked at all is not an answer: a 503, which is never charged.
 */
export async function screenVessels(ctx: OperationContext, queries: readonly ScreenQuery[], lists: readonly SanctionsListKey[]) {
  // One read of the list versions serves the coverage and pins the lookups to the same versions.
  const states = await ctx.services.sanctions.listStates();
  const coverage = states.filter((s) => lists.includes(s.list)).map((s) => listCoverage(s, ctx.now, ctx.services.sanctions.staleAfterDays));
  if (!anyListChecked(coverage)) {
    throw new AppError("sanctions_unavailable", `None of the requested sanctions lists (${lists.join(", ")}) has been loaded yet, so nothing could be checked. Not charged.`);
  }
  // A list the caller may not be shown is not checked for them: `sanctioned` rests only on lists they see.
  const checked = listsChecked(coverage, (list) => ctx.rights.may([list]));
  const visible = new Set([...checked.full, ...checked.extract]);
  const found = await findDesignations(ctx.services.sanctions, queries.map((q) => q.id), lists, states);

  let sanctionedCount = 0;
  const data = queries.map((q) => {
    const matches = found.get(formatVesselId(q.id)) ?? [];
    const active = matches.filter((m) => m.hit.active);
    const past = matches.filter((m) => !m.hit.active);
    const named = active[0] ?? past[0];
    const sanctioned = active.some((m) => visible.has(m.hit.list));
    if (sanctioned) sanctionedCount++;
    return {
      query: q.text,
      imo: q.id.kind === "imo" ? q.id.imo : null,
      mmsi: q.id.kind === "mmsi" ? q.id.mmsi : null,
      // The name a list gives the vessel: a fact of that list, shown only where the list may be.
      name: named ? sourced("designations", [named.hit.list], named.hit.name, { whenWithheld: "null", leaf: true }) : null,
      sanctioned,
      certainty: screeningCertainty(sanctioned, checked),
      listsChecked: checked,
      activeDesignations: active.map(screenDesignation),
      pastDesignations: past.map(screenDesignation),
    };
  });

  return {
    top: {
      method: SCREEN_METHOD,
      sanctionedCount,
      allListsCheckedInFull: checkedInFull(checked),
      coverage,
      coverageNote: coverageInWords(coverage, checked.notChecked),
    },
    data,
    // What the answer's receipt records (operation `receipt: "screening"`).
    listVersions: listVersionsUsed(states, lists),
  };
}
