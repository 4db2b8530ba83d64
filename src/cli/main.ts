import { ACCOUNT_COMMANDS, isAccountCommand } from "./account-commands.ts";
import { accountOperation, accountsCreate, accountsSet } from "./accounts.ts";
import { CliError, toCliError } from "./cli-error.ts";
import { feedsAdd, feedsList, feedsRemove } from "./feeds.ts";
import { importCommand } from "./import.ts";
import { ingestCommand, simulateCommand } from "./ingest.ts";
import type { CliIo } from "./io.ts";
import { keysCreate, keysList, keysRevoke } from "./keys.ts";
import { compactCommand, migrateCommand } from "./maintenance.ts";
import { deriveCommand } from "./derive.ts";
import { sanctionsStatusCommand } from "./sanctions-status.ts";
import { serveCommand } from "./serve.ts";
import { stationsCreate, stationsList, stationsRotateSecret, stationsUpdate } from "./stations.ts";
import { USAGE } from "./usage.ts";
import { usersCommand } from "./users.ts";

/** A command: returns its exit code (nothing: 0), or throws. */
type Command = (argv: string[], io: CliIo) => Promise<number | void>;

const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  migrate: migrateCommand,
  import: importCommand,
  "accounts create": accountsCreate,
  "accounts set": accountsSet,
  "keys create": keysCreate,
  "keys revoke": keysRevoke,
  "keys list": keysList,
  "stations create": stationsCreate,
  "stations list": stationsList,
  "stations rotate-secret": stationsRotateSecret,
  "stations update": stationsUpdate,
  "feeds add": feedsAdd,
  "feeds list": feedsList,
  "feeds remove": feedsRemove,
  ingest: ingestCommand,
  simulate: simulateCommand,
  compact: compactCommand,
  "derive port-calls": deriveCommand("port-calls"),
  "derive events": deriveCommand("events"),
  "users create": usersCommand,
  "users reset-password": usersCommand,
  "sanctions status": sanctionsStatusCommand,
};

/** Groups whose second word is the verb (`keys create`). */
const GROUPS = new Set(["accounts", "keys", "stations", "users", "feeds", "derive", "sanctions"]);

/** Options of any command that take a value: their values are not command words. */
const VALUED = new Set(["--plan", "--account", "--name", "--as-of", "--max-delisted-share", "--station", "--secret", "--target", "--vessels", "--email", "--kind", "--url", "--key", "--allow-from", "--connect", "--source-name", "--from", "--to", "--monthly-credits", "--monthly-credits-total", "--rate", "--role"]);

function commandWords(argv: string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i]!;
    if (a === "--") break;
    if (a.startsWith("-")) {
      if (VALUED.has(a)) i++;
      continue;
    }
    words.push(a);
  }
  return words;
}

function commandList(): string {
  const names = [...new Set(Object.keys(COMMANDS).map((c) => c.split(" ")[0]!)), ...ACCOUNT_COMMANDS];
  return names.join(", ");
}

/**
 * The command line: finds the command, runs it, and turns whatever it throws into one
 * line on stderr and an exit code. The stack is printed only with LOG_LEVEL=debug (or
 * trace). Returns the exit code; `serve` and `simulate` return 0 once running.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  try {
    if (argv.length === 0 || argv.includes("--help") || argv.includes("-h")) {
      io.out(USAGE);
      return 0;
    }
    const [first, second] = commandWords(argv);
    if (first === undefined) throw new CliError(`no command given; commands: ${commandList()}; see mds --help`);
    if ((ACCOUNT_COMMANDS as readonly string[]).includes(first)) {
      if (!isAccountCommand(first, second)) throw new CliError(`unknown command: ${first} ${second ?? "(no verb)"}; see mds --help for the ${first} commands`);
      return (await accountOperation(argv, io)) ?? 0;
    }
    const name = GROUPS.has(first) ? `${first} ${second ?? ""}`.trim() : first;
    const command = COMMANDS[name];
    if (!command) {
      const what = GROUPS.has(first) ? `${first} ${second ?? "(no verb)"}` : first;
      throw new CliError(`unknown command: ${what}; commands: ${commandList()}; see mds --help`);
    }
    return (await command(argv, io)) ?? 0;
  } catch (e) {
    const known = toCliError(e);
    const debug = io.env.LOG_LEVEL === "debug" || io.env.LOG_LEVEL === "trace";
    if (known) {
      io.err(`mds: ${known.message}`);
      if (debug && known.cause instanceof Error && known.cause.stack) io.err(known.cause.stack);
      return known.exitCode;
    }
    const message = e instanceof Error ? e.message.split("\n")[0] : String(e);
    io.err(`mds: ${message}${debug ? "" : " (LOG_LEVEL=debug shows where)"}`);
    if (debug && e instanceof Error && e.stack) io.err(e.stack);
    return 1;
  }
}
