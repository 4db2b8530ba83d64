import type { Entitlements, PlanId } from "../plans.ts";

/**
 * How many watchlists an account may keep, and how many members all of them hold together,
 * by plan (docs/plans.md). Ours: the spec has no watchlists. A list holds at most
 * MAX_WATCHLIST_MEMBERS whatever the plan; the total bounds what one account stores and
 * what an import's re-screening has to look through. As with every limit, the higher of an
 * account's web and API plan applies, and an account above a limit after a downgrade keeps
 * its lists but cannot grow them.
 */
export interface WatchlistLimits {
  lists: number;
  members: number;
}

export const WATCHLIST_LIMITS: Record<PlanId, WatchlistLimits> = {
  sandbox: { lists: 1, members: 100 },
  plus: { lists: 5, members: 1_000 },
  pro: { lists: 25, members: 25_000 },
  team: { lists: 100, members: 100_000 },
  developer: { lists: 10, members: 10_000 },
  growth: { lists: 100, members: 100_000 },
  scale: { lists: 1_000, members: 1_000_000 },
};

export function watchlistLimits(ent: Pick<Entitlements, "plans">): WatchlistLimits {
  const plans = ent.plans.length > 0 ? ent.plans : (["sandbox"] as PlanId[]);
  return {
    lists: Math.max(...plans.map((p) => WATCHLIST_LIMITS[p].lists)),
    members: Math.max(...plans.map((p) => WATCHLIST_LIMITS[p].members)),
  };
}
