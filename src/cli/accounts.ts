import { runAccountCommand } from "../adapters/webhooks/cli.ts";
import { planSlot } from "../domain/plans.ts";
import { parseCommandArgs, str } from "./arguments.ts";
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
