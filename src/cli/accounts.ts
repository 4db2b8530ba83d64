import { runAccountCommand } from "./account-commands.ts";
import { type AccountDeal, entitlements, planSlot } from "../domain/plans.ts";
import { parseCommandArgs, str } from "./arguments.ts";
import { CliError, EXIT_BAD_ARGUMENT } from "./cli-error.ts";
import { withServices } from "./context.ts";
import type { CliIo } from "./io.ts";
import { planArgument } from "./plan-argument.ts";

/** `mds accounts create [--name N] [--plan P] [--json]`: prints the account id, or one JSON object. */
export async function accountsCreate(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs("accounts create", argv, { name: { type: "string" }, plan: { type: "string" } });
  const plan = planArgument(str(values, "plan"), false) ?? "sandbox";
  await withServices(io, async (s) => {
    const account = await s.services.accounts.createAccount({
      name: str(values, "name") ?? "account",
      webPlan: planSlot(plan) === "web" ? plan : null,
      apiPlan: planSlot(plan) === "api" ? plan : null,
    });
    io.out(values.json ? JSON.stringify({ id: account.id, name: account.name, webPlan: account.webPlan, apiPlan: account.apiPlan }) : account.id);
  });
}

/** `mds webhooks|deliveries|zones|follows|saved-searches ...`: the account operations, through execute(). */
export async function accountOperation(argv: string[], io: CliIo): Promise<void> {
  await withServices(io, async (s) => {
    await runAccountCommand(s.services, argv, io.out);
  });
}

/** A whole number from `min` to `max`, or `plan` (back to what the plans give, null). */
function allowanceArgument(option: string, value: string | undefined, min: number, max: number): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === "plan") return null;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new CliError(`--${option} ${JSON.stringify(value)}: must be a whole number from ${min} to ${max}, or "plan" for what the account's plans give`, EXIT_BAD_ARGUMENT);
  }
  return Number(value);
}

/** The stored allowances are 32-bit integers on PostgreSQL; a larger figure would fail there, not here. */
const MAX_CREDITS = 2_000_000_000;

/**
 * `mds accounts set <id> --monthly-credits <n> [--rate <per-second>]`: the account's own
 * allowance on top of its plans (custom contracts): n credits a month are added to what
 * the plans give, and stay added when the plans change. `--monthly-credits-total <n>`
 * instead makes n the exact allowance, in place of the plans' (exact contracts; tests set
 * exact balances with it); the two replace each other. `--rate` is the account's rate in
 * place of its plans'. `plan` as a value goes back to the plans'. Running processes apply
 * it once their cached copy of the key expires (about a second).
 */
export async function accountsSet(argv: string[], io: CliIo): Promise<void> {
  const { values, rest } = parseCommandArgs("accounts set", argv, { "monthly-credits": { type: "string" }, "monthly-credits-total": { type: "string" }, rate: { type: "string" } });
  const accountId = rest[0];
  if (!accountId || rest.length > 1) throw new CliError(`mds accounts set: give one account id, then --monthly-credits <n> [--rate <per-second>]`);
  const extra = allowanceArgument("monthly-credits", str(values, "monthly-credits"), 0, MAX_CREDITS);
  const total = allowanceArgument("monthly-credits-total", str(values, "monthly-credits-total"), 0, MAX_CREDITS);
  const ratePerSecond = allowanceArgument("rate", str(values, "rate"), 1, 1_000_000);
  if (extra !== undefined && total !== undefined) {
    throw new CliError(`mds accounts set ${accountId}: give --monthly-credits (on top of the plans) or --monthly-credits-total (in place of them), not both`, EXIT_BAD_ARGUMENT);
  }
  if (extra === undefined && total === undefined && ratePerSecond === undefined) {
    throw new CliError(`mds accounts set ${accountId}: nothing to set; give --monthly-credits <n> (or --monthly-credits-total <n>) and/or --rate <per-second>`);
  }
  await withServices(io, async (s) => {
    const account = await s.services.accounts.getAccount(accountId);
    if (!account) throw new CliError(`${accountId}: no such account`, EXIT_BAD_ARGUMENT);
    // Either credits option sets the account's credits afresh: one kind of deal at a time, `plan` clearing both.
    const credits = extra === undefined && total === undefined ? account.deal : { monthlyCredits: total ?? null, extraMonthlyCredits: extra ?? null };
    const deal: AccountDeal = {
      monthlyCredits: credits.monthlyCredits,
      extraMonthlyCredits: credits.extraMonthlyCredits,
      ratePerSecond: ratePerSecond === undefined ? account.deal.ratePerSecond : ratePerSecond,
    };
    await s.services.accounts.setDeal(accountId, deal);
    const ent = entitlements(account.webPlan, account.apiPlan, deal);
    const plans = entitlements(account.webPlan, account.apiPlan);
    if (values.json) {
      io.out(JSON.stringify({ id: accountId, deal, monthlyCredits: ent.monthlyCredits, ratePerSecond: ent.ratePerSecond }));
    } else {
      const creditsFrom =
        deal.monthlyCredits !== null
          ? `its own, in place of its plans' ${plans.monthlyCredits}${deal.extraMonthlyCredits ? `, plus ${deal.extraMonthlyCredits}` : ""}`
          : deal.extraMonthlyCredits !== null
            ? `its plans' ${plans.monthlyCredits} plus ${deal.extraMonthlyCredits} of its own`
            : "from its plans";
      io.out(`${accountId}: ${ent.monthlyCredits} credits a month (${creditsFrom}), ${ent.ratePerSecond} requests a second (${deal.ratePerSecond === null ? "from its plans" : "its own"})`);
    }
  });
}
