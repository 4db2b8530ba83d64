import { mmsiLinkSource } from "../../domain/vessels/mmsi-link.ts";
import { formatVesselId, parseImo, parseMmsi, parseVesselId, type VesselId } from "../../domain/identifiers.ts";
import { TYPE_AND_FLAG_SECTION, WITHHELD_REASON_API } from "../../domain/rights/caller-rights.ts";
import type { WithheldEntry } from "../../domain/rights/sourced.ts";
import { SANCTIONS_LISTS } from "../../domain/sanctions/designation.ts";
import { findDesignations } from "../projections/designation-match.ts";
import { normalizeName } from "../../domain/vessels/names.ts";
import type { VesselRecord } from "../../interfaces/vessels.ts";
import type { OperationContext } from "../operation.ts";
import { vesselPageUrl } from "../projections/vessel-names.ts";
import { visibleStations } from "../projections/visible-vessel.ts";
import type { Hit, PendingHit, SearchSource, Tier } from "./hit.ts";

const RANK_MATCH = ["name", "word", "substring"] as const;

/** The name a ship is best known by among what the caller may see: the most recently seen. */
function bestName(r: VesselRecord): { name: string; source: string } | null {
  const n = [...r.names].sort((a, b) => b.lastSeen - a.lastSeen)[0];
  if (n) return { name: n.name, source: n.source };
  const e = r.emissions.at(-1);
  return e ? { name: e.name, source: "emsa_mrv" } : null;
}

function vesselHit(ctx: OperationContext, id: string, name: string, imo: number | null, mmsi: number | null, match: Hit["match"]): Hit {
  // `page` is finished in search.ts from the ship's current name (a hit may match a former one).
  return { kind: "vessel", id, name, imo, mmsi, match, api: `${ctx.baseUrl}/api/v1/vessels/${id}`, page: "" };
}

/** The ship an IMO, an MMSI or an `mmsi-` id names. */
async function identifierHit(ctx: OperationContext, q: string, compact: string, visible: number[]): Promise<PendingHit | null> {
  const id = parseVesselId(compact);
  const imo = id?.kind === "imo" ? id.imo : parseImo(q);
  const mmsi = id?.kind === "mmsi" ? id.mmsi : parseMmsi(compact);
  const record = imo !== null ? await ctx.services.vessels.findByImo(imo, visible) : mmsi !== null ? await ctx.services.vessels.findByMmsi(mmsi, visible) : null;
  if (!record) return mmsi !== null && imo === null ? heardOnlyHit(ctx, mmsi, visible) : null;
  const name = bestName(record);
  const current = mmsi ?? (await ctx.services.search.currentMmsis([record.vesselId], visible)).get(record.vesselId) ?? null;
  const vid = formatVesselId(record.imo !== null ? { kind: "imo", imo: record.imo } : { kind: "mmsi", mmsi: record.mmsiKey ?? current! });
  // The hit ties the id asked to the other one (IMO to MMSI or back): the link's sources are behind it too.
  const link = current !== null && record.imo !== null ? mmsiLinkSource(record.identifiers.filter((l) => l.kind === "mmsi" && Number(l.value) === current).map((l) => l.source)) : [];
  const sources = [...new Set([...(name ? [name.source] : []), ...link])].sort();
  return { hit: vesselHit(ctx, vid, name?.name ?? vid, record.imo, current, imo !== null ? "imo" : "mmsi"), sources, section: "vessels", tier: 0, vesselId: record.vesselId };
}

/**
 * A ship no registry holds yet, known only by the position reports a visible station heard
 * (no static report, so no name): its vessel answer exists, so search finds it by its MMSI.
 * The hit is a fact of the station that heard it.
 */
async function heardOnlyHit(ctx: OperationContext, mmsi: number, visible: number[]): Promise<PendingHit | null> {
  const [latest] = await ctx.services.vessels.latestFixes([mmsi], visible);
  if (!latest) return null;
  const id = { kind: "mmsi" as const, mmsi };
  const vid = formatVesselId(id);
  const hit = { ...vesselHit(ctx, vid, vid, null, mmsi, "mmsi"), page: vesselPageUrl(ctx, id, null) };
  return { hit, sources: [`station:${latest.stationId}`], section: "vessels", tier: 0 };
}

/**
 * Vessel type and flag are never part of a hit (spec 2.6), whatever their sources permit: the
 * entry that says so for the vessel hits listed (`rows`), naming the sources that hold a type or
 * a flag for those ships (a fleet list, EU MRV, a station's broadcast ship type, a sanctions
 * list's record), among the sources the caller may be shown (the vessel answer gives those
 * facts). Its reason says it is the shape of a hit, not a source's rights.
 */
export async function typeAndFlagEntry(ctx: OperationContext, listed: readonly Hit[]): Promise<WithheldEntry | null> {
  const vessels = listed.filter((h) => h.kind === "vessel" && (h.imo !== null || h.mmsi !== null));
  if (vessels.length === 0) return null;
  const sources = new Set<string>();
  const imos = [...new Set(vessels.flatMap((h) => (h.imo === null ? [] : [h.imo])))];
  for (const held of (await ctx.services.search.typeSources(imos)).values()) for (const s of held) sources.add(s);
  const mmsis = [...new Set(vessels.flatMap((h) => (h.mmsi === null ? [] : [h.mmsi])))];
  if (mmsis.length > 0) {
    for (const i of await ctx.services.positions.identities(await visibleStations(ctx), mmsis)) if (i.shipType !== null && i.shipType > 0) sources.add(`station:${i.stationId}`);
  }
  // The designations of these ships as screening and the vessel answer find them, and what their records give.
  const ids: VesselId[] = vessels.map((h) => (h.imo !== null ? { kind: "imo", imo: h.imo } : { kind: "mmsi", mmsi: h.mmsi! }));
  const found = await findDesignations(ctx.services.sanctions, ids, SANCTIONS_LISTS, await ctx.services.sanctions.listStates());
  const designations = [...new Set([...found.values()].flat().map((m) => m.hit.id))];
  for (const f of await ctx.services.sanctions.listedFacts(designations)) if (f.record.vesselType !== null || f.record.flag !== null) sources.add(f.list);
  return { section: TYPE_AND_FLAG_SECTION, sources: [...sources].filter((s) => ctx.rights.may([s])).sort(), rows: vessels.length, reason: WITHHELD_REASON_API };
}

/**
 * Vessels by IMO, MMSI or `mmsi-` id, and by name (any case and accents; the name's start,
 * then a later word, then inside a word; former names too), among what the caller may see.
 */
export const vesselSearch: SearchSource = {
  kind: "vessel",
  foundBy: "IMO, MMSI or name (former names too, and every name and MMSI a sanctions list you may see gives)",
  async hits(ctx, { q, compact, normalized, limit }) {
    const visible = await visibleStations(ctx);
    const out: PendingHit[] = [];
    const byId = await identifierHit(ctx, q, compact, visible);
    if (byId) out.push(byId);
    const names = await ctx.services.search.vesselNames(normalized, visible, limit);
    const needMmsi = names.filter((n) => n.imo !== null || n.mmsiKey === null).map((n) => n.vesselId);
    const mmsis = await ctx.services.search.currentMmsis(needMmsi, visible);
    const users = await ctx.services.vessels.mmsiUsers([...new Set(mmsis.values())], visible);
    for (const n of names) {
      const mmsi = n.mmsiKey ?? mmsis.get(n.vesselId) ?? null;
      const vid = formatVesselId(n.imo !== null ? { kind: "imo", imo: n.imo } : { kind: "mmsi", mmsi: n.mmsiKey! });
      const tier: Tier = n.rank === 0 ? (normalizeName(n.name) === normalized ? 1 : 2) : n.rank === 1 ? 3 : 4;
      // A ship's MMSI shown next to its IMO rests on the sources that linked them.
      const link = n.imo !== null && mmsi !== null ? mmsiLinkSource(users.filter((u) => u.vesselId === n.vesselId && u.mmsi === mmsi).flatMap((u) => u.sources)) : [];
      const sources = [...new Set([n.source, ...link])].sort();
      out.push({ hit: vesselHit(ctx, vid, n.name, n.imo, mmsi, RANK_MATCH[n.rank]), sources, section: "vessels", tier, vesselId: n.vesselId });
    }
    return out;
  },
};
