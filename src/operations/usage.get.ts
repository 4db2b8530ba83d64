import { z } from "zod";
import { billingPeriod, periodResetsAt } from "./billing-period.ts";
import { defineOperation } from "./operation.ts";
import { billingOf } from "./principal.ts";

const UsageSchema = z.object({
  tier: z.string(),
  plans: z.array(z.string()),
  commercialUse: z.boolean(),
  commercialScope: z.string(),
  credits: z.object({ limit: z.number().int(), used: z.number().int(), remaining: z.number().int(), resetsAt: z.string() }),
  rateLimitPerSecond: z.number().int(),
  key: z.object({ id: z.string(), calls: z.number().int(), credits: z.number().int() }),
});

export const usageGet = defineOperation({
  id: "usage.get",
  method: "GET",
  path: "/api/v1/usage",
  tool: "get_usage",
  summary: "Credits and limits of the calling key",
  description:
    "The plan, monthly credits (counted per account: all keys of an account share one allowance), what this key itself has used this month, and the per-second rate limit. Free.",
  auth: "key",
  input: z.strictObject({}),
  // Spec 2.8 names these fields at the top of the answer; `data` keeps the same object for the clients that read it there.
  output: { top: UsageSchema.shape, data: UsageSchema },
  responseType: "usage",
  apiVersion: "1",
  cost: 0,
  async run(ctx) {
    const p = ctx.principal;
    const billing = billingOf(p);
    if (!billing) throw new Error("usage.get runs only for an account's credentials");
    const period = billingPeriod(ctx.now);
    const u = await ctx.services.ledger.usage(billing.accountId, billing.credentialId, period);
    const e = p.entitlements;
    const usage = {
      tier: e.tier,
      plans: e.plans,
      commercialUse: e.commercialUse,
      commercialScope: e.commercialScope,
      credits: { limit: e.monthlyCredits, used: u.used, remaining: Math.max(0, e.monthlyCredits - u.used), resetsAt: periodResetsAt(ctx.now) },
      rateLimitPerSecond: e.ratePerSecond,
      key: { id: billing.credentialId, calls: u.keyCalls, credits: u.keyCredits },
    };
    return { top: usage, data: usage };
  },
});
