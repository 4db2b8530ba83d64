import { parseIso2 } from "../../domain/identifiers.ts";
import { normalizeName } from "../../domain/vessels/names.ts";
import { type Hit, nameTier, type PendingHit, type SearchSource, type Tier } from "./hit.ts";
import { flagPagePath } from "../../domain/pages/page-paths.ts";

/** Flag registries by ISO code or by country name (whole, start, later word). */
export const flagSearch: SearchSource = {
  kind: "flag",
  foundBy: "ISO 3166 code or country name",
  async hits(ctx, { q, normalized }) {
    const iso2 = q.length === 2 ? parseIso2(q) : null;
    const matches: { row: { iso2: string; name: string }; match: Hit["match"]; tier: Tier }[] = [];
    for (const row of await ctx.services.search.flags()) {
      if (row.iso2 === iso2) {
        matches.push({ row, match: "iso2", tier: 0 });
        continue;
      }
      const tier = nameTier(normalizeName(row.name), normalized);
      if (tier !== null) matches.push({ row, match: tier === 3 ? "word" : "name", tier });
    }
    matches.sort((a, b) => a.tier - b.tier || a.row.name.localeCompare(b.row.name));
    return matches.map(
      (m): PendingHit => ({
        tier: m.tier,
        hit: { kind: "flag", id: m.row.iso2, name: m.row.name, imo: null, mmsi: null, match: m.match, api: `${ctx.baseUrl}/api/v1/flags/${m.row.iso2}`, page: `${ctx.baseUrl}${flagPagePath(m.row.iso2)}` },
        sources: ["iso3166"],
        section: "flags",
      }),
    );
  },
};
