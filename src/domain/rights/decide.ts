import type { SourceRegistry } from "./source.ts";

/** The uses a fact can be put to; each maps to a permission of its sources. */
export type Use = "api" | "redistribution";

export interface RightsPrincipal {
  /** Commercial plans need every source to permit commercial use as well. */
  commercialUse: boolean;
  /** The caller's account: a shared station's owner uses its data whatever they grant others. */
  accountId?: string | null;
}

export type DenialWhy = "unknown_source" | "no_api_use" | "no_redistribution" | "no_commercial_use";

export interface Decision {
  allowed: boolean;
  /** Each source that blocks, and why; empty when allowed. */
  denials: { source: string; why: DenialWhy }[];
}

/**
 * Unanimity: a fact may be used only when every source behind it permits this use for this
 * principal. A source the registry does not know denies. A fact with no source is the
 * service's own (identifiers, the user's own names) and is allowed.
 */
export function decide(registry: SourceRegistry, sourceIds: readonly string[], principal: RightsPrincipal, use: Use): Decision {
  const denials: Decision["denials"] = [];
  for (const id of sourceIds) {
    const source = registry.get(id);
    if (!source) denials.push({ source: id, why: "unknown_source" });
    else if (source.ownerAccountId !== undefined && source.ownerAccountId === principal.accountId) continue;
    else if (!source.permissions.api) denials.push({ source: id, why: "no_api_use" });
    else if (use === "redistribution" && !source.permissions.redistribution) denials.push({ source: id, why: "no_redistribution" });
    else if (principal.commercialUse && !source.permissions.commercial) denials.push({ source: id, why: "no_commercial_use" });
  }
  return { allowed: denials.length === 0, denials };
}
