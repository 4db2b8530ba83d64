import { planSlot } from "../domain/plans.ts";
import { parseCommandArgs, str } from "./arguments.ts";
import { CliError, EXIT_BAD_ARGUMENT } from "./cli-error.ts";
import { withServices } from "./context.ts";
import type { CliIo } from "./io.ts";
import { planArgument } from "./plan-argument.ts";

/** `mds keys create --plan <tier> [--account <id>] [--name N] [--json]`: the key alone on stdout (shown once). */
export async function keysCreate(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs("keys create", argv, { plan: { type: "string" }, account: { type: "string" }, name: { type: "string" } });
  const plan = planArgument(str(values, "plan"), true)!;
  const name = str(values, "name");
  await withServices(io, async (s) => {
    let accountId = str(values, "account");
    if (accountId) {
      if (!(await s.services.accounts.getAccount(accountId))) throw new CliError(`--account ${accountId}: no such account`, EXIT_BAD_ARGUMENT);
      await s.services.accounts.setPlan(accountId, planSlot(plan), plan);
    } else {
      const a = await s.services.accounts.createAccount({
        name: name ?? `${plan} account`,
        webPlan: planSlot(plan) === "web" ? plan : null,
        apiPlan: planSlot(plan) === "api" ? plan : null,
      });
      accountId = a.id;
    }
    const key = await s.services.accounts.createKey(accountId, name);
    io.out(values.json ? JSON.stringify({ key: key.key, id: key.id, plan, account: accountId }) : key.key);
  });
}

/** `mds keys revoke <key-id>` */
export async function keysRevoke(argv: string[], io: CliIo): Promise<void> {
  const { rest } = parseCommandArgs("keys revoke", argv, {});
  const id = rest[0];
  if (!id) throw new CliError("keys revoke needs the key id (key_...)", EXIT_BAD_ARGUMENT);
  await withServices(io, async (s) => {
    if (!(await s.services.accounts.revokeKey(id))) throw new CliError(`no active key ${id}`, EXIT_BAD_ARGUMENT);
    io.out(`revoked ${id}`);
  });
}

/** `mds keys list --account <id> [--json]` */
export async function keysList(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs("keys list", argv, { account: { type: "string" } });
  const account = str(values, "account");
  if (!account) throw new CliError("keys list needs --account <id>", EXIT_BAD_ARGUMENT);
  await withServices(io, async (s) => {
    const keys = await s.services.accounts.listKeys(account);
    if (values.json) io.out(JSON.stringify(keys));
    else for (const k of keys) io.out(`${k.id}  ${k.start}...  ${k.revokedAt ? "revoked" : "active"}  ${k.name ?? ""}`);
  });
}
