import { z } from "zod";
import { sourced } from "../domain/rights/sourced.ts";
import { MIN_QUERY_LENGTH, normalizeName } from "../domain/vessels/names.ts";
import { parseVesselId } from "../domain/identifiers.ts";
import { defineOperation } from "./operation.ts";
import { groupNames, vesselPageUrl } from "./projections/vessel-names.ts";
import { visibleStations } from "./projections/visible-vessel.ts";
import { type PendingHit, SEARCH_MATCHES, type SearchQuery } from "./search/hit.ts";
import { SEARCH_KINDS, SEARCH_SOURCES } from "./search/sources.ts";
import { typeAndFlagEntry } from "./search/vessels.ts";
import { formatVesselId, type VesselId } from "../domain/identifiers.ts";
import { SanctionedListsSchema, sanctionedShips } from "./projections/sanctioned-now.ts";

/** Hits per answer. */
const SEARCH_LIMIT = 20;

const qParam = z
  .string()
  .transform((v) => v.trim())
  .pipe(
    z
      .string()
      .min(2, { error: "must be 2 to 100 characters" })
      .max(100, { error: "must be 2 to 100 characters" })
      .refine((v) => normalizeName(v).length >= MIN_QUERY_LENGTH, { error: "must hold at least two letters or digits" }),
  );

const kindParam = z
  .string()
  .optional()
  .transform((v, ctx): string[] => {
    if (v === undefined) return [...SEARCH_KINDS];
    const out = new Set<string>();
    for (const raw of v.split(",")) {
      const k = raw.trim().toLowerCase();
      if (k === "") continue;
      if (!SEARCH_KINDS.includes(k)) {
        ctx.addIssue({ code: "custom", message: `has \`${k.slice(0, 40)}\`; use a comma list of ${SEARCH_KINDS.join(", ")}` });
        return z.NEVER;
      }
      out.add(k);
    }
    if (out.size === 0) {
      ctx.addIssue({ code: "custom", message: `must name at least one kind: ${SEARCH_KINDS.join(", ")}` });
      return z.NEVER;
    }
    return SEARCH_KINDS.filter((k) => out.has(k));
  });

const SearchHitSchema = z.object({
  /** What the hit is: one of the kinds of `SEARCH_SOURCES`. */
  kind: z.enum(SEARCH_KINDS),
  id: z.string(),
  name: z.string(),
  imo: z.number().int().nullable(),
  mmsi: z.number().int().nullable(),
  /** How the hit matched: an identifier, the name whole or at its start, a later word, or inside a word. */
  match: z.enum(SEARCH_MATCHES),
  api: z.string(),
  page: z.string(),
  /** Vessel hits: the lists that designate the ship now, so a result list can say "sanctioned" where it matters. */
  sanctioned: SanctionedListsSchema.optional(),
});

export const search = defineOperation({
  id: "search",
  method: "GET",
  path: "/api/v1/search",
  tool: "search_entities",
  summary: "Search vessels, ports, companies, wrecks and flags",
  description:
    "Finds, by `kind`: " +
    SEARCH_SOURCES.map((s) => `${s.kind} by ${s.foundBy}`).join("; ") +
    ". Names match whatever their case, accents or punctuation. " +
    "Hits are ranked across kinds: an exact identifier first, then an exact name, then a name starting with the query, then a later word, then inside a word (vessel names only); `match` says which. `q` 2 to 100 characters; `kind` a comma list of " +
    `${SEARCH_KINDS.join(", ")} (default all). At most ${SEARCH_LIMIT} hits. A vessel hit's \`sanctioned\` names the lists that designate the ship now (those you may be shown). Vessel type and flag are never part of hits: when vessel hits are listed, ` +
    "`withheld` has the entry `vessel.vesselType,vessel.flag` with `rows` (the vessel hits), `sources` (those holding a type or flag for them) and the reason `source_not_licensed_for_api` (spec 2.2's API reason, kept although it is the shape of a hit rather than a source's refusal; the vessel answer gives them as their sources permit). 1 credit.",
  auth: "key",
  input: z.strictObject({
    q: qParam.describe("What to look for: a name, IMO number, MMSI, UN/LOCODE, ISO country code, wreck number, company entity id or LEI; 2 to 100 characters."),
    kind: kindParam.describe("Comma-separated kinds of result to return; default all."),
  }),
  output: { top: { query: z.string() }, data: z.array(SearchHitSchema) },
  responseType: "search",
  apiVersion: "1",
  cost: 1,
  async run(ctx, input) {
    const query: SearchQuery = { q: input.q, normalized: normalizeName(input.q), compact: input.q.replace(/\s+/g, ""), limit: SEARCH_LIMIT };
    const found: PendingHit[] = [];
    for (const source of SEARCH_SOURCES) if (input.kind.includes(source.kind)) found.push(...(await source.hits(ctx, query)));

    // A stable sort by tier keeps each kind's own order within a tier (the order of SEARCH_SOURCES).
    found.sort((a, b) => a.tier - b.tier);
    const pending: PendingHit[] = [];
    const seen = new Set<string>();
    for (const p of found) {
      const key = `${p.hit.kind}:${p.hit.id}`;
      if (seen.has(key) || pending.length >= SEARCH_LIMIT) continue;
      seen.add(key);
      pending.push(p);
    }
    // A hit may match a former name; its page link carries the ship's current one, as the vessel page does.
    const shipIds = pending.flatMap((p) => (p.vesselId === undefined ? [] : [p.vesselId]));
    if (shipIds.length > 0) {
      const names = await ctx.services.search.namesOf(shipIds, await visibleStations(ctx));
      for (const p of pending) {
        if (p.vesselId !== undefined) p.hit.page = vesselPageUrl(ctx, parseVesselId(p.hit.id)!, groupNames(names.get(p.vesselId) ?? [])[0] ?? null);
      }
    }

    // Each vessel hit says which lists designate it now; such a list is then a source of the hit too.
    const shipOf = (h: PendingHit["hit"]): VesselId | null => (h.kind !== "vessel" ? null : h.imo !== null ? { kind: "imo", imo: h.imo } : h.mmsi !== null ? { kind: "mmsi", mmsi: h.mmsi } : null);
    const sanctioned = await sanctionedShips(ctx, pending.flatMap((p) => shipOf(p.hit) ?? []));
    for (const p of pending) {
      const ship = shipOf(p.hit);
      if (p.hit.kind !== "vessel") continue;
      const lists = ship ? (sanctioned.get(formatVesselId(ship)) ?? []) : [];
      p.hit.sanctioned = lists;
      if (ctx.rights.may(p.sources)) p.sources = [...new Set([...p.sources, ...lists])].sort();
    }

    // Vessel type and flag are never part of a hit (spec 2.6): one entry says so for the vessel
    // hits the caller is shown, naming the sources that hold them, with a reason that is not a
    // rights one. Hits whose own sources are not cleared are withheld by the rights filter.
    const typeAndFlag = await typeAndFlagEntry(ctx, pending.filter((p) => ctx.rights.may(p.sources)).map((p) => p.hit));
    return {
      top: { query: input.q },
      data: pending.map((p) => sourced(p.section, p.sources, p.hit, { countRows: true, leaf: true })),
      withheld: typeAndFlag ? [typeAndFlag] : [],
    };
  },
});
