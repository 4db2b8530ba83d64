import type { Entitlements, PlanId } from "../plans.ts";

/**
 * How many alert subjects an account may keep, by plan (docs/spec-excerpts.md, 8: "alerts depend on the
 * plan's limits for follows, zones and saved searches"; the numbers are not shown there,
 * so these are ours). Free and hobby plans get enough to try alerts; a paid plan's
 * numbers grow with its price. As with every limit, the higher of an account's web and
 * API plan applies. Webhook endpoints are in plans.ts (the spec fixes those: docs/spec-excerpts.md, 8).
 *
 * An account already above a limit (after a downgrade) keeps what it has; it cannot add more.
 */
export interface AlertLimits {
  follows: number;
  zones: number;
  savedSearches: number;
}

export const ALERT_LIMITS: Record<PlanId, AlertLimits> = {
  sandbox: { follows: 10, zones: 1, savedSearches: 3 },
  plus: { follows: 100, zones: 5, savedSearches: 10 },
  pro: { follows: 1_000, zones: 25, savedSearches: 50 },
  team: { follows: 5_000, zones: 100, savedSearches: 200 },
  developer: { follows: 1_000, zones: 25, savedSearches: 50 },
  growth: { follows: 10_000, zones: 250, savedSearches: 500 },
  scale: { follows: 100_000, zones: 2_500, savedSearches: 5_000 },
};

export function alertLimits(ent: Pick<Entitlements, "plans">): AlertLimits {
  const plans = ent.plans.length > 0 ? ent.plans : (["sandbox"] as PlanId[]);
  return {
    follows: Math.max(...plans.map((p) => ALERT_LIMITS[p].follows)),
    zones: Math.max(...plans.map((p) => ALERT_LIMITS[p].zones)),
    savedSearches: Math.max(...plans.map((p) => ALERT_LIMITS[p].savedSearches)),
  };
}
