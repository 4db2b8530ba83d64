import type { z } from "zod";
import { AppError } from "../domain/errors.ts";
import { CallerRights } from "../domain/rights/caller-rights.ts";
import { filterWithRights, type WithheldEntry } from "../domain/rights/sourced.ts";
import type { Authenticator } from "./authenticate.ts";
import { billingPeriod } from "./billing-period.ts";
import { costOf } from "./cost.ts";
import type { BodyOf, Operation, OperationContext, TopSchemas } from "./operation.ts";
import type { Answer, CreditsState, RateLimitState, Result, TopValues } from "./answer.ts";
import { asAppError, type Call } from "./call.ts";
import { parseInput } from "./parse-input.ts";
import { keepReceipt } from "./screening-receipt.ts";
import { newScreeningId } from "../domain/screenings/receipt.ts";
import { accountIdOf, billingOf, type Principal } from "./principal.ts";
import type { Services } from "./services.ts";

export interface Pipeline {
  services: Services;
  /** Turns a request's Authorization header into a principal; adapters call it once per request, before execute(). */
  auth: Authenticator;
}

/**
 * The one pipeline every face calls, for a principal the face has authenticated:
 * plan gate -> admission (rate limit, then credits reserved; the input is read first for its
 * cost, and its error reported after the rate limit) -> run -> rights filter -> answer
 * (-> its signed receipt, for a charged answer of an operation with `receipt`: screening-receipt.ts).
 * A reservation is given back when the call fails, so failed calls (and every 503) cost
 * nothing. Never throws: a failure is a Result with its AppError. The answer is typed by the
 * operation's output schemas; each face renders it in its own form (envelope.ts for the API).
 */
export async function execute<S extends z.ZodObject, B extends z.ZodObject | undefined, D extends z.ZodType, T extends TopSchemas>(
  pipeline: Pipeline,
  op: Operation<S, B, D, T>,
  principal: Principal,
  call: Call,
): Promise<Result<z.output<D>, TopValues<T>>> {
  const { services } = pipeline;
  const billing = billingOf(principal);
  const ent = principal.entitlements;
  let rateLimit: RateLimitState | null = null;
  let retryAfter: number | null = null;
  const credits: CreditsState = { cost: 0, remaining: null };
  let reserved = 0;
  const period = billingPeriod(services.clock.now());
  const use = call.use ?? "api";
  try {
    // The adapter authenticated with `required` from the operation; this keeps a mistake there from running a keyed operation for nobody.
    // A public page read (search, a track's open 24 hours) is the exception: a visitor without an account reads what an anonymous caller may, unbilled.
    if (op.auth === "key" && billing === null && !(use === "web" && op.method === "GET")) throw new AppError("missing_api_key");
    if (op.feature && !ent[op.feature]) {
      throw new AppError("plan_lacks_feature", `This operation needs a plan with ${featureName(op.feature)}; the plans of this key (${ent.plans.join(", ") || "none"}) do not include it.`, {
        feature: op.feature,
      });
    }

    // Input and cost first, so the rate limit and the charge are one admission; an input the
    // operation refuses still spends its rate budget (a flood of garbage is limited too), and
    // is refused only after the rate limit was checked, as the limit comes first.
    let input: Record<string, unknown> | undefined;
    let cost = 0;
    let inputError: unknown = null;
    try {
      input = parseInput(op as Operation, call);
      cost = costOf(op as Operation, input, services.clock.now());
    } catch (e) {
      input = undefined;
      inputError = e;
    }
    // Public page views are not metered in credits: the rate limit bounds them.
    const charged = billing !== null && cost > 0 && use !== "web";
    const admitting = services.admission.admit({
      subject: principal.subject,
      perSecond: ent.ratePerSecond,
      charge: charged ? { accountId: billing.accountId, keyId: billing.credentialId, period, cost, limit: ent.monthlyCredits } : null,
    });
    // Only a decision still to come is awaited: one made at once (in process) costs the call no turn of the microtask queue.
    const admission = admitting instanceof Promise ? await admitting : admitting;
    const rate = admission.rate;
    rateLimit = { limit: rate.limit, remaining: rate.remaining, resetMs: rate.resetMs };
    if (!rate.allowed) {
      retryAfter = Math.max(1, Math.ceil(rate.resetMs / 1000));
      throw new AppError("rate_limited", `More than ${rate.limit} requests per second for this ${principal.kind === "anonymous" ? "client address" : "key"}; retry after ${retryAfter} s.`, { retryAfter });
    }
    if (input === undefined) throw inputError;

    const charge = admission.charge;
    if (charge) {
      if (!charge.ok) {
        credits.remaining = Math.max(0, ent.monthlyCredits - charge.used);
        throw new AppError("credits_exhausted", `This call costs ${cost} credit${cost === 1 ? "" : "s"} and ${credits.remaining} of the account's ${ent.monthlyCredits} monthly credits are left.`, {
          cost,
          limit: ent.monthlyCredits,
          used: charge.used,
        });
      }
      reserved = cost;
      credits.remaining = ent.monthlyCredits - charge.used;
    }

    const now = services.clock.now();
    const rights = new CallerRights(services.sources, { commercialUse: ent.commercialUse, accountId: accountIdOf(principal) }, use);
    const ctx: OperationContext = { services, principal, now, baseUrl: call.baseUrl, use, rights };
    // The input was parsed by this operation's own schemas just above.
    const result = await op.run(ctx, input as z.infer<S> & BodyOf<B>);

    // A price only run() could tell (a watchlist's last page): what was reserved beyond it is given back.
    if (billing && result.charge !== undefined && result.charge >= 0 && result.charge < reserved) {
      const over = reserved - result.charge;
      await services.ledger.refund(billing.accountId, billing.credentialId, period, over);
      reserved = result.charge;
      credits.remaining = (credits.remaining ?? 0) + over;
    }

    const filtered = filterWithRights({ top: result.top ?? {}, data: result.data }, rights);
    const withheld: WithheldEntry[] = [...(result.withheld ?? []), ...filtered.withheld];
    const sources = filtered.used.map((id) => services.sources.get(id)).filter((s) => s !== undefined);
    const sourceIds = namedSourceIds(filtered.used, (id) => services.sources.get(id)?.id);
    credits.cost = reserved;
    // The filter keeps the shapes the operation declared: a withheld section is dropped, or null where its schema allows.
    const value = filtered.value as { top: TopValues<T>; data: z.output<D> };
    // A screening that was charged gets a receipt of exactly what is sent (the rights filter has run): its id goes into the answer first.
    const screeningId = op.receipt === "screening" && reserved > 0 && billing ? newScreeningId() : null;
    const answer: Answer<z.output<D>, TopValues<T>> = {
      ok: true,
      data: value.data,
      top: screeningId ? { screeningId, ...value.top } : value.top,
      withheld,
      sources,
      sourceIds,
      nextCursor: result.nextCursor ?? null,
      metering: { requestId: call.requestId, rateLimit, credits, retryAfter, denials: filtered.denials },
    };
    if (screeningId && billing) await keepReceipt(services, { op: op as Operation, call, answer: answer as Answer, screeningId, billing, listVersions: result.listVersions, screenedAt: now });
    return answer;
  } catch (e) {
    if (reserved > 0 && billing) {
      await services.ledger.refund(billing.accountId, billing.credentialId, period, reserved).catch(() => undefined);
      credits.remaining = (credits.remaining ?? 0) + reserved;
    }
    credits.cost = 0;
    return { ok: false, error: asAppError(e), metering: { requestId: call.requestId, rateLimit, credits, retryAfter, denials: [] } };
  }
}

function featureName(f: string): string {
  return f === "privateFeed" ? "private feeds (Pro, Team)" : f;
}


/**
 * The identifiers an answer's facts name, first-seen order, each once; an id governed by
 * another named entry (a feed's station by its feed) is followed by that entry's id. The
 * generic `station` entry that governs private stations is a policy, not a source, and is
 * not listed.
 */
export function namedSourceIds(used: readonly string[], governingId: (id: string) => string | undefined): string[] {
  const out = new Set<string>();
  for (const id of used) {
    out.add(id);
    const entry = governingId(id);
    if (entry !== undefined && entry !== id && entry !== "station") out.add(entry);
  }
  return [...out];
}
