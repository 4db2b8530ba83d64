import { z } from "zod";
import { formatVesselId, parseImo, parseIso2, parseMmsi, parseUnlocode, parseVesselId } from "../domain/identifiers.ts";
import { flagPagePath, portPagePath } from "../domain/pages/page-paths.ts";
import { sourced } from "../domain/rights/sourced.ts";
import { MIN_QUERY_LENGTH, normalizeName } from "../domain/vessels/names.ts";
import type { PortName, VesselRecord } from "../ports/vessels.ts";
import { defineOperation, type OperationContext } from "./operation.ts";
import { groupNames, vesselPageUrl } from "./projections/vessel-names.ts";
import { visibleStations } from "./projections/visible-vessel.ts";

const SEARCH_KINDS = ["vessel", "port", "flag"] as const;
type SearchKind = (typeof SEARCH_KINDS)[number];

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
  .transform((v, ctx): SearchKind[] => {
    if (v === undefined) return [...SEARCH_KINDS];
    const out = new Set<SearchKind>();
    for (const raw of v.split(",")) {
      const k = raw.trim().toLowerCase();
      if (k === "") continue;
      if (!(SEARCH_KINDS as readonly string[]).includes(k)) {
        ctx.addIssue({ code: "custom", message: `has \`${k.slice(0, 40)}\`; use a comma list of ${SEARCH_KINDS.join(", ")}` });
        return z.NEVER;
      }
      out.add(k as SearchKind);
    }
    if (out.size === 0) {
      ctx.addIssue({ code: "custom", message: `must name at least one kind: ${SEARCH_KINDS.join(", ")}` });
      return z.NEVER;
    }
    return SEARCH_KINDS.filter((k) => out.has(k));
  });

const SearchHitSchema = z.object({
  kind: z.enum(SEARCH_KINDS),
  id: z.string(),
  name: z.string(),
  imo: z.number().int().nullable(),
  mmsi: z.number().int().nullable(),
  /** How the hit matched: an identifier, the start of the name, the start of a word, or inside a word. */
  match: z.enum(["imo", "mmsi", "unlocode", "iso2", "name", "word", "substring"]),
  api: z.string(),
  page: z.string(),
});

type Hit = z.infer<typeof SearchHitSchema>;
/**
 * Order of hits across kinds: an exact identifier, then an exact name, then a name that
 * starts with the query, then a later word, then inside a word.
 */
type Tier = 0 | 1 | 2 | 3 | 4;
type PendingHit = { hit: Hit; sources: string[]; section: string; tier: Tier; vesselId?: number };

const RANK_MATCH = ["name", "word", "substring"] as const;

/** The name a ship is best known by among what the caller may see: the most recently seen. */
function bestName(r: VesselRecord): { name: string; source: string } | null {
  const n = [...r.names].sort((a, b) => b.lastSeen - a.lastSeen)[0];
  if (n) return { name: n.name, source: n.source };
  const e = r.emissions.at(-1);
  return e ? { name: e.name, source: "emsa_mrv" } : null;
}

/**
 * A vessel hit; `name` (the name matched) null when the ship has none on record (the hit then
 * shows its id). `page` is filled in once for all hits, from each ship's current name.
 */
function vesselHit(ctx: OperationContext, id: string, name: string | null, imo: number | null, mmsi: number | null, match: Hit["match"]): Hit {
  return { kind: "vessel", id, name: name ?? id, imo, mmsi, match, api: `${ctx.baseUrl}/api/v1/vessels/${id}`, page: "" };
}

/**
 * The sources a link rests on: it stands when any of them is cleared, so one is named, a
 * dataset before a station (the rights filter then judges that one).
 */
function linkSources(sources: readonly string[]): string[] {
  const dataset = sources.find((s) => !s.startsWith("station:"));
  const first = dataset ?? sources[0];
  return first ? [first] : [];
}

/** Identifier hits: an IMO, an MMSI (or `mmsi-` id), a UN/LOCODE, an ISO country code. */
async function identifierHits(ctx: OperationContext, q: string, kinds: readonly SearchKind[], visible: number[]): Promise<PendingHit[]> {
  const out: PendingHit[] = [];
  const compact = q.replace(/\s+/g, "");
  if (kinds.includes("vessel")) {
    const id = parseVesselId(compact);
    const imo = id?.kind === "imo" ? id.imo : parseImo(q);
    const mmsi = id?.kind === "mmsi" ? id.mmsi : parseMmsi(compact);
    const record = imo !== null ? await ctx.services.vessels.findByImo(imo, visible) : mmsi !== null ? await ctx.services.vessels.findByMmsi(mmsi, visible) : null;
    if (record) {
      const name = bestName(record);
      const current = mmsi ?? (await ctx.services.search.currentMmsis([record.vesselId], visible)).get(record.vesselId) ?? null;
      const vid = formatVesselId(record.imo !== null ? { kind: "imo", imo: record.imo } : { kind: "mmsi", mmsi: record.mmsiKey ?? current! });
      // The hit ties the id asked to the other one (IMO to MMSI or back): the link's sources are behind it too.
      const link = current !== null && record.imo !== null ? linkSources(record.identifiers.filter((l) => l.kind === "mmsi" && Number(l.value) === current).map((l) => l.source)) : [];
      const sources = [...new Set([...(name ? [name.source] : []), ...link])].sort();
      out.push({ hit: vesselHit(ctx, vid, name?.name ?? null, record.imo, current, imo !== null ? "imo" : "mmsi"), sources, section: "vessels", tier: 0, vesselId: record.vesselId });
    }
  }
  if (kinds.includes("port")) {
    const code = compact.length === 5 ? parseUnlocode(compact) : null;
    const port = code ? await ctx.services.ports.get(code) : null;
    if (port) {
      out.push({
        hit: { kind: "port", id: port.unlocode, name: port.name, imo: null, mmsi: null, match: "unlocode", api: `${ctx.baseUrl}/api/v1/ports/${port.unlocode}`, page: `${ctx.baseUrl}${portPagePath(port.unlocode)}` },
        sources: ["unlocode"],
        section: "ports",
        tier: 0,
      });
    }
  }
  return out;
}

/** Flag registries by ISO code or by country name (start of the name or of a word). */
async function flagHits(ctx: OperationContext, q: string, normalized: string): Promise<PendingHit[]> {
  const iso2 = q.length === 2 ? parseIso2(q) : null;
  const out: PendingHit[] = [];
  const matches: { row: { iso2: string; name: string }; match: Hit["match"]; rank: number }[] = [];
  for (const row of await ctx.services.search.flags()) {
    if (row.iso2 === iso2) {
      matches.push({ row, match: "iso2", rank: 0 });
      continue;
    }
    const n = normalizeName(row.name);
    if (n.startsWith(normalized)) matches.push({ row, match: "name", rank: 1 });
    else if (n.includes(` ${normalized}`)) matches.push({ row, match: "word", rank: 2 });
  }
  matches.sort((a, b) => a.rank - b.rank || a.row.name.localeCompare(b.row.name));
  for (const m of matches) {
    out.push({
      tier: m.rank === 0 ? 0 : m.rank === 1 ? (normalizeName(m.row.name) === normalized ? 1 : 2) : 3,
      hit: { kind: "flag", id: m.row.iso2, name: m.row.name, imo: null, mmsi: null, match: m.match, api: `${ctx.baseUrl}/api/v1/flags/${m.row.iso2}`, page: `${ctx.baseUrl}${flagPagePath(m.row.iso2)}` },
      sources: ["iso3166"],
      section: "flags",
    });
  }
  return out;
}

/** Ports by name: any of the names UN/LOCODE lists it under, whole, at its start or at a later word. */
async function portNameHits(ctx: OperationContext, normalized: string): Promise<PendingHit[]> {
  const found: { port: PortName; tier: Tier }[] = [];
  for (const port of await ctx.services.search.portNames()) {
    let tier: Tier | null = null;
    for (const n of port.norms) {
      const t: Tier | null = n === normalized ? 1 : n.startsWith(normalized) ? 2 : n.includes(` ${normalized}`) ? 3 : null;
      if (t !== null && (tier === null || t < tier)) tier = t;
    }
    if (tier !== null) found.push({ port, tier });
  }
  // Among equal matches a harbour the World Port Index describes comes before a bare code.
  found.sort((a, b) => a.tier - b.tier || Number(b.port.harbour) - Number(a.port.harbour) || (a.port.unlocode < b.port.unlocode ? -1 : 1));
  return found.slice(0, SEARCH_LIMIT).map(({ port, tier }) => ({
    hit: { kind: "port", id: port.unlocode, name: port.name, imo: null, mmsi: null, match: tier === 3 ? "word" : "name", api: `${ctx.baseUrl}/api/v1/ports/${port.unlocode}`, page: `${ctx.baseUrl}${portPagePath(port.unlocode)}` },
    sources: ["unlocode"],
    section: "ports",
    tier,
  }));
}

export const search = defineOperation({
  id: "search",
  method: "GET",
  path: "/api/v1/search",
  tool: "search_entities",
  summary: "Search vessels, ports and flags",
  description:
    "Finds vessels by name (any case and accents; names starting with the query first, then a later word, then inside a word; former names too), " +
    "by IMO or MMSI, ports by UN/LOCODE or by name (any name UN/LOCODE lists them under), and flag registries by ISO code or country name. " +
    "Hits are ranked across kinds: an exact identifier first, then an exact name, then a name starting with the query, then a later word, then inside a word. `q` 2 to 100 characters; `kind` a comma list of " +
    `${SEARCH_KINDS.join(", ")} (default all). At most ${SEARCH_LIMIT} hits; vessel type and flag are never part of hits. 1 credit.`,
  auth: "key",
  input: z.strictObject({
    q: qParam.describe("What to look for: a name, IMO number, MMSI or UN/LOCODE; 2 to 100 characters."),
    kind: kindParam.describe("Comma-separated kinds of result to return; default all."),
  }),
  output: { top: { query: z.string() }, data: z.array(SearchHitSchema) },
  responseType: "search",
  apiVersion: "1",
  cost: 1,
  async run(ctx, input) {
    const visible = await visibleStations(ctx);
    const normalized = normalizeName(input.q);
    const found: PendingHit[] = await identifierHits(ctx, input.q, input.kind, visible);

    if (input.kind.includes("vessel")) {
      const names = await ctx.services.search.vesselNames(normalized, visible, SEARCH_LIMIT);
      const needMmsi = names.filter((n) => n.imo !== null || n.mmsiKey === null).map((n) => n.vesselId);
      const mmsis = await ctx.services.search.currentMmsis(needMmsi, visible);
      const users = await ctx.services.vessels.mmsiUsers([...new Set(mmsis.values())], visible);
      for (const n of names) {
        const mmsi = n.mmsiKey ?? mmsis.get(n.vesselId) ?? null;
        const vid = formatVesselId(n.imo !== null ? { kind: "imo", imo: n.imo } : { kind: "mmsi", mmsi: n.mmsiKey! });
        const tier: Tier = n.rank === 0 ? (normalizeName(n.name) === normalized ? 1 : 2) : n.rank === 1 ? 3 : 4;
        // A ship's MMSI shown next to its IMO rests on the sources that linked them.
        const link = n.imo !== null && mmsi !== null ? linkSources(users.filter((u) => u.vesselId === n.vesselId && u.mmsi === mmsi).flatMap((u) => u.sources)) : [];
        const sources = [...new Set([n.source, ...link])].sort();
        found.push({ hit: vesselHit(ctx, vid, n.name, n.imo, mmsi, RANK_MATCH[n.rank]), sources, section: "vessels", tier, vesselId: n.vesselId });
      }
    }
    if (input.kind.includes("port")) found.push(...(await portNameHits(ctx, normalized)));
    if (input.kind.includes("flag")) found.push(...(await flagHits(ctx, input.q, normalized)));

    // A stable sort by tier keeps each kind's own order within a tier (vessels, ports, flags).
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
    const names = await ctx.services.search.namesOf(shipIds, visible);
    for (const p of pending) {
      if (p.vesselId !== undefined) p.hit.page = vesselPageUrl(ctx, parseVesselId(p.hit.id)!, groupNames(names.get(p.vesselId) ?? [])[0] ?? null);
    }

    // Vessel type and flag are never part of a hit (spec 2.6): that is the shape of a hit,
    // not a source withholding something, so no `withheld` entry blames a source for it.
    // Entries come only from the rights filter, for hits whose own source is not cleared.
    return {
      top: { query: input.q },
      data: pending.map((p) => sourced(p.section, p.sources, p.hit, { countRows: true, leaf: true })),
    };
  },
});
