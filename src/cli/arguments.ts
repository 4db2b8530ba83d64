import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { CliError } from "./cli-error.ts";

/** Options every command takes. */
const COMMON: ParseArgsOptionsConfig = {
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
};

export type OptionValues = Record<string, string | boolean | undefined>;

export interface CommandArgs {
  values: OptionValues;
  /** Words after the command's own (`mds import ports file.csv` -> ["file.csv"]). */
  rest: string[];
}

/**
 * Parses one command's arguments against its own options: an option the command does
 * not know is refused with the list of those it does, instead of being ignored.
 */
export function parseCommandArgs(command: string, argv: string[], options: ParseArgsOptionsConfig): CommandArgs {
  const all = { ...options, ...COMMON };
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: ParseArgsOptionsConfig; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: all, allowPositionals: true, strict: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const name = /'([^']+)'/.exec((e as Error).message)?.[1] ?? "?";
      throw new CliError(`${name}: unknown option for "mds ${command}"; it takes ${Object.keys(all).map((o) => `--${o}`).join(", ")}`);
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") throw new CliError(`mds ${command}: ${(e as Error).message.split("\n")[0]}`);
    throw e;
  }
  const words = command.split(" ").length;
  return { values: parsed.values as OptionValues, rest: parsed.positionals.slice(words) };
}

/** A string option's value, or undefined. */
export function str(values: OptionValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === "string" ? v : undefined;
}
