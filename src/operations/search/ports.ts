import { parseUnlocode } from "../../domain/identifiers.ts";
import type { PortName } from "../../interfaces/vessels.ts";
import type { OperationContext } from "../operation.ts";
import { type Hit, nameMatch, type PendingHit, type SearchSource, type Tier } from "./hit.ts";
import { portPagePath } from "../../domain/pages/page-paths.ts";

function portHit(ctx: OperationContext, unlocode: string, name: string, match: Hit["match"], tier: Tier): PendingHit {
  return {
    hit: { kind: "port", id: unlocode, name, imo: null, mmsi: null, match, api: `${ctx.baseUrl}/api/v1/ports/${unlocode}`, page: `${ctx.baseUrl}${portPagePath(unlocode)}` },
    sources: ["unlocode"],
    section: "ports",
    tier,
  };
}

/** Ports by UN/LOCODE, or by any of the names UN/LOCODE lists them under: whole, at its start or at a later word. */
export const portSearch: SearchSource = {
  kind: "port",
  foundBy: "UN/LOCODE or name (any name UN/LOCODE lists it under)",
  async hits(ctx, { compact, normalized, limit }) {
    const out: PendingHit[] = [];
    const code = compact.length === 5 ? parseUnlocode(compact) : null;
    const port = code ? await ctx.services.ports.get(code) : null;
    if (port) out.push(portHit(ctx, port.unlocode, port.name, "unlocode", 0));
    const found: { port: PortName; tier: Tier }[] = (await ctx.services.search.portIndex()).find(normalized).map((m) => ({ port: m.item, tier: m.tier }));
    // Among equal matches a harbour the World Port Index describes comes before a bare code.
    found.sort((a, b) => a.tier - b.tier || Number(b.port.harbour) - Number(a.port.harbour) || (a.port.unlocode < b.port.unlocode ? -1 : 1));
    for (const { port: p, tier } of found.slice(0, limit)) out.push(portHit(ctx, p.unlocode, p.name, nameMatch(tier), tier));
    return out;
  },
};
