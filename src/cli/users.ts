import { runUsersCommand } from "./users-command.ts";
import { withServices } from "./context.ts";
import type { CliIo } from "./io.ts";

/** `mds users create|reset-password ...`: people who sign in to an account's pages. */
export async function usersCommand(argv: string[], io: CliIo): Promise<number> {
  const at = argv.indexOf("users");
  return withServices(io, (s) => runUsersCommand({ accounts: s.services.accounts, ...s.people }, argv.slice(at + 1), io));
}
