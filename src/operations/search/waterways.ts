import { waterwayPagePath } from "../../domain/pages/page-paths.ts";
import { normalizeName } from "../../domain/vessels/names.ts";
import { PORTWATCH_SOURCE } from "../projections/waterways.ts";
import { nameMatch, nameTier, type PendingHit, type SearchSource, type Tier } from "./hit.ts";

/**
 * Waterways (the PortWatch chokepoints and the extra gates) by id or by name. There are some
 * thirty, held in memory, so a scan is the index. A PortWatch chokepoint's id and name are
 * PortWatch's facts (shown only where it may be, as `GET /api/v1/waterways` shows them); an
 * extra gate's are the service's own.
 */
export const waterwaySearch: SearchSource = {
  kind: "waterway",
  foundBy: "id (chokepoint9, kiel-canal) or name",
  async hits(ctx, { compact, normalized, limit }) {
    const id = compact.toLowerCase();
    const found: PendingHit[] = [];
    for (const w of ctx.services.waterways.waterways) {
      const tier: Tier | null = w.id === id ? 0 : nameTier(normalizeName(w.name), normalized);
      if (tier === null) continue;
      found.push({
        hit: { kind: "waterway", id: w.id, name: w.name, imo: null, mmsi: null, match: tier === 0 ? "id" : nameMatch(tier), api: `${ctx.baseUrl}/api/v1/waterways/${w.id}/transits`, page: `${ctx.baseUrl}${waterwayPagePath(w.id, w.slug)}` },
        sources: w.portwatch ? [PORTWATCH_SOURCE] : [],
        section: "waterways",
        tier,
      });
    }
    return found.sort((a, b) => a.tier - b.tier).slice(0, limit);
  },
};
