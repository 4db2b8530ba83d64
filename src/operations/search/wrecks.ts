import type { WreckName } from "../../interfaces/vessels.ts";
import { nameMatch, type PendingHit, type SearchSource, type Tier } from "./hit.ts";
import { wreckPagePath } from "../../domain/pages/page-paths.ts";

/** AWOIS record numbers are at most five digits; longer numbers are IMOs and MMSIs. */
const WRECK_ID = /^\d{1,6}$/;

/** Wrecks by AWOIS record number or by name (whole, start, later word). */
export const wreckSearch: SearchSource = {
  kind: "wreck",
  foundBy: "AWOIS record number or name",
  async hits(ctx, { compact, normalized, limit }) {
    const found: { w: WreckName; tier: Tier }[] = [];
    if (WRECK_ID.test(compact)) {
      const w = await ctx.services.wrecks.get(Number(compact));
      if (w) found.push({ w: { id: w.id, name: w.name ?? `Wreck ${w.id}`, slug: w.slug.slice(0, w.slug.length - `-${w.id}`.length), norm: "", source: w.source }, tier: 0 });
    }
    const named: { w: WreckName; tier: Tier }[] = (await ctx.services.search.wreckNames()).find(normalized).map((m) => ({ w: m.item, tier: m.tier }));
    named.sort((a, b) => a.tier - b.tier || a.w.id - b.w.id);
    found.push(...named.slice(0, limit));
    return found.map(
      ({ w, tier }): PendingHit => ({
        hit: { kind: "wreck", id: String(w.id), name: w.name, imo: null, mmsi: null, match: tier === 0 ? "id" : nameMatch(tier), api: `${ctx.baseUrl}/api/v1/wrecks/${w.id}`, page: `${ctx.baseUrl}${wreckPagePath(w.id, w.slug)}` },
        sources: [w.source],
        section: "wrecks",
        tier,
      }),
    );
  },
};
