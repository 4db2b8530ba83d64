import { parseArgs } from "node:util";
import { normaliseEmail } from "../domain/people/email.ts";
import { checkPassword } from "../domain/people/password.ts";
import type { AccountStore } from "../interfaces/accounts.ts";
import type { SessionStore, UserStore } from "../interfaces/people.ts";
import { hashPassword } from "../adapters/web/password-hasher.ts";

export const USERS_USAGE = `  users create --account <id> --email <e> --password-stdin [--json]
                                         a person who signs in to the account's pages (password read from stdin)
  users reset-password --email <e> --password-stdin
                                         sets a new password and ends the user's sessions`;

export interface UsersCliStores {
  accounts: Pick<AccountStore, "getAccount">;
  users: UserStore;
  sessions: Pick<SessionStore, "deleteUserSessions">;
}

export interface UsersCliIo {
  stdin: AsyncIterable<string | Buffer> | Iterable<string | Buffer>;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The password is read from stdin (never an argument, which other users of the machine can see in `ps`); one trailing newline is dropped. */
async function readPassword(stdin: UsersCliIo["stdin"]): Promise<string> {
  let text = "";
  for await (const chunk of stdin) {
    text += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    if (text.length > 10_000) break;
  }
  return text.replace(/\r?\n$/, "");
}

/**
 * `mds users create|reset-password ...` (argv starts after `users`). Returns the exit code:
 * 0 done, 2 bad input (one line on err naming the option and the rule), 1 refused.
 */
export async function runUsersCommand(stores: UsersCliStores, argv: string[], io: UsersCliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { account: { type: "string" }, email: { type: "string" }, "password-stdin": { type: "boolean", default: false }, json: { type: "boolean", default: false } },
    });
  } catch (e) {
    io.err(`users: ${(e as Error).message}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const sub = positionals[0];
  if (sub !== "create" && sub !== "reset-password") {
    io.err(`users: unknown command ${sub === undefined ? "(none)" : JSON.stringify(sub)}; use create or reset-password`);
    return 2;
  }
  if (positionals.length > 1) {
    io.err(`users ${sub}: unexpected argument ${JSON.stringify(positionals[1])}`);
    return 2;
  }
  if (values.email === undefined) {
    io.err(`users ${sub}: --email is required`);
    return 2;
  }
  const email = normaliseEmail(values.email);
  if (!email.ok) {
    io.err(`users ${sub}: --email ${email.rule}`);
    return 2;
  }
  if (!values["password-stdin"]) {
    io.err(`users ${sub}: --password-stdin is required (the password is read from standard input, never from an argument)`);
    return 2;
  }
  if (sub === "create" && values.account === undefined) {
    io.err("users create: --account is required (an account id such as acc_...)");
    return 2;
  }
  const password = checkPassword(await readPassword(io.stdin));
  if (!password.ok) {
    io.err(`users ${sub}: the password on stdin ${password.rule}`);
    return 2;
  }

  if (sub === "create") {
    const account = await stores.accounts.getAccount(values.account!);
    if (!account) {
      io.err(`users create: --account ${values.account}: no such account`);
      return 1;
    }
    const r = await stores.users.createUser({ accountId: account.id, email: email.value, passwordHash: await hashPassword(password.value) });
    if (!r.ok) {
      io.err(`users create: --email ${email.value}: a user with this e-mail exists; use users reset-password`);
      return 1;
    }
    io.out(values.json ? JSON.stringify({ id: r.user.id, email: r.user.email, account: r.user.accountId }) : r.user.id);
    return 0;
  }

  const user = await stores.users.findByEmail(email.value);
  if (!user) {
    io.err(`users reset-password: --email ${email.value}: no such user`);
    return 1;
  }
  await stores.users.setPasswordHash(user.id, await hashPassword(password.value));
  const ended = await stores.sessions.deleteUserSessions(user.id);
  io.out(values.json ? JSON.stringify({ id: user.id, email: user.email, sessionsEnded: ended }) : `password set for ${user.email}; ${ended} session${ended === 1 ? "" : "s"} ended`);
  return 0;
}
