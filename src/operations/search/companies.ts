import { canonicalId, type EntityRef, parseCompanyImo, parseEntityId, parseLei, slugOf, strongestId } from "../../domain/companies/entity-id.ts";
import type { OperationContext } from "../operation.ts";
import { type Hit, nameMatch, type PendingHit, type SearchSource, type Tier } from "./hit.ts";
import { companyPagePath } from "../../domain/pages/page-paths.ts";

function companyHit(ctx: OperationContext, id: string, name: string, source: string, match: Hit["match"], tier: Tier): PendingHit {
  return {
    hit: { kind: "company", id, name, imo: null, mmsi: null, match, api: `${ctx.baseUrl}/api/v1/companies/${id}`, page: `${ctx.baseUrl}${companyPagePath(id, slugOf(name))}` },
    sources: [source],
    section: "companies",
    tier,
  };
}

/** The identifier a query names, if any: an entity id, an LEI, or a company IMO number written "IMO 5000001". */
function identifierOf(q: string, compact: string): { ref: EntityRef; match: Hit["match"] } | null {
  const lei = parseLei(compact);
  if (lei) return { ref: { kind: "lei", value: lei }, match: "lei" };
  // A bare 7-digit number is searched as a ship's IMO; a company's is asked for as "IMO ...".
  const imo = /^imo/i.test(compact) ? parseCompanyImo(compact) : null;
  if (imo) return { ref: { kind: "imo", value: imo }, match: "imo" };
  const ref = /^[a-z0-9_]+-/i.test(q) ? parseEntityId(q) : null;
  return ref ? { ref, match: "id" } : null;
}

/** Companies by entity id, LEI, company IMO number ("IMO 5000001"), or by name and other names (whole, start, later word). */
export const companySearch: SearchSource = {
  kind: "company",
  foundBy: "entity id, LEI, company IMO number (written IMO 1234567) or name",
  async hits(ctx, { q, compact, normalized, limit }) {
    const out: PendingHit[] = [];
    const ident = identifierOf(q, compact);
    if (ident) {
      const records = await ctx.services.companies.resolve(ident.ref);
      if (records.length > 0) {
        const id = canonicalId(records);
        const main = records.find((r) => strongestId(r) === id) ?? records[0]!;
        out.push(companyHit(ctx, id, main.name, main.source, ident.match, 0));
      }
    }
    for (const c of await ctx.services.companies.searchNames(normalized, limit)) out.push(companyHit(ctx, c.entityId, c.name, c.source, nameMatch(c.tier), c.tier));
    return out;
  },
};
