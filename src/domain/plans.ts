/**
 * Plans as data. The spec (docs/spec-excerpts.md, 8) fixes history, private feeds and webhook endpoints; it leaves
 * credits and rates "not shown", so the numbers here are ours (see docs/plans.md).
 * `historyDays: null` means everything the service holds.
 */
export type PlanKind = "free" | "web" | "api";
export type CommercialScope = "none" | "internal" | "product";

export interface Plan {
  id: PlanId;
  kind: PlanKind;
  monthlyCredits: number;
  ratePerSecond: number;
  historyDays: number | null;
  privateFeed: boolean;
  webhookEndpoints: number;
  commercialUse: boolean;
  commercialScope: CommercialScope;
}

export const PLAN_IDS = ["sandbox", "plus", "pro", "team", "developer", "growth", "scale"] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export const PLANS: Record<PlanId, Plan> = {
  sandbox: { id: "sandbox", kind: "free", monthlyCredits: 1_000, ratePerSecond: 2, historyDays: 0, privateFeed: false, webhookEndpoints: 0, commercialUse: false, commercialScope: "none" },
  plus: { id: "plus", kind: "web", monthlyCredits: 5_000, ratePerSecond: 5, historyDays: 365, privateFeed: false, webhookEndpoints: 0, commercialUse: false, commercialScope: "none" },
  pro: { id: "pro", kind: "web", monthlyCredits: 25_000, ratePerSecond: 10, historyDays: null, privateFeed: true, webhookEndpoints: 5, commercialUse: true, commercialScope: "internal" },
  team: { id: "team", kind: "web", monthlyCredits: 100_000, ratePerSecond: 20, historyDays: null, privateFeed: true, webhookEndpoints: 20, commercialUse: true, commercialScope: "internal" },
  developer: { id: "developer", kind: "api", monthlyCredits: 50_000, ratePerSecond: 10, historyDays: 30, privateFeed: false, webhookEndpoints: 5, commercialUse: true, commercialScope: "product" },
  growth: { id: "growth", kind: "api", monthlyCredits: 500_000, ratePerSecond: 50, historyDays: 730, privateFeed: false, webhookEndpoints: 100, commercialUse: true, commercialScope: "product" },
  scale: { id: "scale", kind: "api", monthlyCredits: 5_000_000, ratePerSecond: 200, historyDays: null, privateFeed: false, webhookEndpoints: 1_000, commercialUse: true, commercialScope: "product" },
};

/** Calls without a key, per client address and second. */
export const ANONYMOUS_RATE_PER_SECOND = 1;

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

/** The slot a plan occupies on an account: web plans (and the free sandbox) or API plans. */
export function planSlot(id: PlanId): "web" | "api" {
  return PLANS[id].kind === "api" ? "api" : "web";
}

const SCOPE_RANK: Record<CommercialScope, number> = { none: 0, internal: 1, product: 2 };

/** The limits in force for an account holding up to one web and one API plan: where both set a limit, the higher applies. */
export type Entitlements = Omit<Plan, "id" | "kind"> & {
  plans: PlanId[];
  tier: PlanId;
};

/**
 * An operator's own terms for one account (`mds accounts set`, custom contracts). Credits:
 * `extraMonthlyCredits` are added on top of what the plans give (and keep being added when
 * the plans change); `monthlyCredits`, when set, is the exact allowance in place of the
 * plans' (exact contracts, and tests that need an exact balance), and the extra is added to
 * it. The rate, when set, is the account's rate in place of its plans': a contract names its
 * ceiling. Everything else (features, history, rights) still comes from the plans. Null:
 * the plans decide.
 */
export interface AccountDeal {
  monthlyCredits: number | null;
  extraMonthlyCredits: number | null;
  ratePerSecond: number | null;
}

export const NO_DEAL: AccountDeal = { monthlyCredits: null, extraMonthlyCredits: null, ratePerSecond: null };

export function entitlements(webPlan: PlanId | null, apiPlan: PlanId | null, deal: AccountDeal = NO_DEAL): Entitlements {
  const fromPlans = planEntitlements(webPlan, apiPlan);
  return {
    ...fromPlans,
    monthlyCredits: (deal.monthlyCredits ?? fromPlans.monthlyCredits) + (deal.extraMonthlyCredits ?? 0),
    ratePerSecond: deal.ratePerSecond ?? fromPlans.ratePerSecond,
  };
}

function planEntitlements(webPlan: PlanId | null, apiPlan: PlanId | null): Entitlements {
  const held = [webPlan, apiPlan].filter((p): p is PlanId => p !== null).map((p) => PLANS[p]);
  if (held.length === 0) held.push(PLANS.sandbox);
  const higher = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.max(a, b));
  const first = held[0]!;
  return held.slice(1).reduce<Entitlements>(
    (acc, p) => ({
      plans: [...acc.plans, p.id],
      // The tier reported is the API plan when one is held: it is the one a developer's key is about.
      tier: p.kind === "api" ? p.id : acc.tier,
      monthlyCredits: Math.max(acc.monthlyCredits, p.monthlyCredits),
      ratePerSecond: Math.max(acc.ratePerSecond, p.ratePerSecond),
      historyDays: higher(acc.historyDays, p.historyDays),
      privateFeed: acc.privateFeed || p.privateFeed,
      webhookEndpoints: Math.max(acc.webhookEndpoints, p.webhookEndpoints),
      commercialUse: acc.commercialUse || p.commercialUse,
      commercialScope: SCOPE_RANK[p.commercialScope] > SCOPE_RANK[acc.commercialScope] ? p.commercialScope : acc.commercialScope,
    }),
    { plans: [first.id], tier: first.id, ...pick(first) },
  );
}

function pick(p: Plan) {
  const { monthlyCredits, ratePerSecond, historyDays, privateFeed, webhookEndpoints, commercialUse, commercialScope } = p;
  return { monthlyCredits, ratePerSecond, historyDays, privateFeed, webhookEndpoints, commercialUse, commercialScope };
}
