import type { VesselId } from "../../domain/identifiers.ts";
import { vesselPagePath } from "../../domain/pages/page-paths.ts";
import { normalizeName } from "../../domain/vessels/names.ts";
import type { VesselNameLink } from "../../interfaces/vessels.ts";
import type { OperationContext } from "../operation.ts";

/** A ship's names as its page and its page address read them: shared by the vessel page and search. */

export interface NameGroup {
  name: string;
  sources: string[];
  firstSeen: number;
  lastSeen: number;
}

/** Names grouped by their normal form (one ship's "Star" and "STAR" are one name), newest first. */
export function groupNames(names: readonly VesselNameLink[]): NameGroup[] {
  const groups = new Map<string, NameGroup & { spellingSeen: number }>();
  for (const n of names) {
    const key = normalizeName(n.name);
    const g = groups.get(key);
    if (!g) {
      groups.set(key, { name: n.name, sources: [n.source], firstSeen: n.firstSeen, lastSeen: n.lastSeen, spellingSeen: n.lastSeen });
      continue;
    }
    if (!g.sources.includes(n.source)) g.sources.push(n.source);
    g.firstSeen = Math.min(g.firstSeen, n.firstSeen);
    g.lastSeen = Math.max(g.lastSeen, n.lastSeen);
    if (n.lastSeen > g.spellingSeen) {
      g.name = n.name;
      g.spellingSeen = n.lastSeen;
    }
  }
  return [...groups.values()].map(({ spellingSeen: _, ...g }) => ({ ...g, sources: g.sources.sort() })).sort((a, b) => b.lastSeen - a.lastSeen || a.name.localeCompare(b.name));
}

/**
 * The canonical page of a ship (public base included): its current name as the slug, when
 * every source of that name permits this caller's use; the bare id otherwise, since the slug
 * would give the name away. The vessel page and search hits build it alike, so a link from
 * either opens the page without a redirect.
 */
export function vesselPageUrl(ctx: OperationContext, id: VesselId, current: Pick<NameGroup, "name" | "sources"> | null): string {
  const shown = current !== null && ctx.rights.may(current.sources);
  return `${ctx.baseUrl}${vesselPagePath(id, shown ? current.name : null)}`;
}
