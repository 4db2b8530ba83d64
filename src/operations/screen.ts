import { z } from "zod";
import { formatVesselId, parseVesselId, type VesselId } from "../domain/identifiers.ts";
import { sourced } from "../domain/rights/sourced.ts";
import { SANCTIONS_LISTS, type SanctionsListKey } from "../domain/sanctions/designation.ts";
import { anyListChecked, checkedInFull, coverageInWords, listCoverage, listsChecked, screeningCertainty } from "../domain/sanctions/coverage.ts";
import { AppError } from "../domain/errors.ts";
import { defineOperation } from "./operation.ts";
import { listVersionsUsed } from "./screening-receipt.ts";
import { DESIGNATION_FOUND_FIELDS, findDesignations, ListCoverageSchema, screenDesignation } from "./projections/designation-match.ts";

const MAX_SCREEN_IDS = 50;

const SCREEN_METHOD =
  "Identifier-only matching. A designation matches an IMO query when one of the IMO numbers it carries or carried while designated equals it, " +
  "and an MMSI query when one of its MMSIs does. For an IMO query, designations that carry no IMO at all also match by the MMSIs the IMO's own " +
  "designations carry (matchedOn mmsi). Names are never matched. No match means that no designation on the screened lists, as of the versions " +
  "given in `coverage`, carries that identifier; it is not a clearance of the vessel. `sanctioned` is true exactly when an active designation on a " +
  "checked list matches. `certainty` says how far a false may be trusted: `clear` only when every requested list was checked in full; `incomplete` " +
  "when a list was never loaded, only a dated extract of it is held, or it is withheld from this caller (`listsChecked` names them).";

type Query = { text: string; id: VesselId };

const idsParam = z.string().transform((v, ctx) => {
  const parts = v
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (parts.length === 0) {
    ctx.addIssue({ code: "custom", message: "must name at least one IMO number or mmsi- identifier" });
    return z.NEVER;
  }
  const out: Query[] = [];
  const seen = new Set<string>();
  for (const text of parts) {
    const id = parseVesselId(text);
    if (!id) {
      ctx.addIssue({ code: "custom", message: `has \`${text.slice(0, 40)}\`, which is not a checksum-valid 7-digit IMO number or \`mmsi-\` followed by 9 digits` });
      return z.NEVER;
    }
    // The same vessel twice is answered, and charged, once.
    const key = formatVesselId(id);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ text, id });
  }
  if (out.length > MAX_SCREEN_IDS) {
    ctx.addIssue({ code: "custom", message: `names ${out.length} vessels; at most ${MAX_SCREEN_IDS} per call` });
    return z.NEVER;
  }
  return out;
});

const listsParam = z
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
  });

const ScreenDesignationSchema = z.object({
  ...DESIGNATION_FOUND_FIELDS,
  matchedOn: z.enum(["imo", "mmsi"]),
  matchedValue: z.number().int(),
  matchedFormerIdentifier: z.boolean(),
  imos: z.array(z.number().int()),
  mmsis: z.array(z.number().int()),
  sourceUrl: z.string(),
});

const ScreenResultSchema = z.object({
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

export const screen = defineOperation({
  id: "screen",
  method: "GET",
  path: "/api/v1/screen",
  tool: "screen_vessels",
  summary: "Screen vessels against sanctions lists by IMO or MMSI",
  description:
    "Up to 50 vessels (checksum-valid IMO numbers or mmsi- identifiers) against the OFAC, UK, Canadian, EU and New Zealand lists: the active and past " +
    "designations carrying each identifier. Each designation names the list it is on (`list`, e.g. `ofac_sdn`; `family` is the key `lists` takes) and its " +
    "`measures` (asset freeze, port-access ban, ...) with each measure's legal basis. Identifier-only: names are never matched, and no match is not a clearance. " +
    "`sanctioned: false` is a clearance only where `certainty` is `clear`; `incomplete` means a requested list was an extract, never loaded, or withheld (see `listsChecked`). " +
    "Every answer carries a `screeningId`: its signed receipt, with the list versions used, is at `/api/v1/screenings/{screeningId}` (tool `get_screening`). 1 credit per vessel.",
  auth: "key",
  input: z.strictObject({
    ids: idsParam.describe(
      "Comma-separated vessels to screen, up to 50: checksum-valid 7-digit IMO numbers or `mmsi-` followed by the 9-digit MMSI, e.g. `9176187,mmsi-273456789`. Each costs 1 credit.",
    ),
    lists: listsParam.describe(`Comma-separated lists to screen against, from ${SANCTIONS_LISTS.join(", ")}. Default: all of them.`),
  }),
  output: {
    top: {
      method: z.string(),
      sanctionedCount: z.number().int(),
      allListsCheckedInFull: z.boolean(),
      coverage: z.array(ListCoverageSchema),
      coverageNote: z.string(),
    },
    data: z.array(ScreenResultSchema),
  },
  responseType: "screen",
  apiVersion: "1",
  cost: { per: "ids" },
  receipt: "screening",
  async run(ctx, input) {
    const lists = input.lists;
    // One read of the list versions serves the coverage and pins the lookups to the same versions.
    const states = await ctx.services.sanctions.listStates();
    const coverage = states.filter((s) => lists.includes(s.list)).map((s) => listCoverage(s, ctx.now, ctx.services.sanctions.staleAfterDays));
    // Nothing checked at all is not an answer: a 503, not charged (errors are never charged).
    if (!anyListChecked(coverage)) {
      throw new AppError("sanctions_unavailable", `None of the requested sanctions lists (${lists.join(", ")}) has been loaded yet, so nothing could be checked. Not charged.`);
    }
    // A list the caller may not be shown is not checked for them: `sanctioned` rests only on lists they see.
    const checked = listsChecked(coverage, (list) => ctx.rights.may([list]));
    const visible = new Set([...checked.full, ...checked.extract]);
    const found = await findDesignations(ctx.services.sanctions, input.ids.map((q) => q.id), lists, states);

    let sanctionedCount = 0;
    const data = input.ids.map((q) => {
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
      listVersions: listVersionsUsed(states, lists),
    };
  },
});
