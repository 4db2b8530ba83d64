import { IngestUsageError } from "./station-tools.ts";
import { SanctionsUsageError } from "../adapters/importers/sanctions-import.ts";
import { AccountCommandError } from "./account-commands.ts";
import { BindError } from "../compose/server.ts";
import { ConfigError } from "../config.ts";
import { SourcesFileError } from "../sources-file.ts";

/** The command line, the environment, a file or a port is wrong: the user fixes it and runs again. */
export const EXIT_BAD_INPUT = 1;
/**
 * A value given to a known command's option or argument is refused (no such account, an
 * unknown plan or sanctions list, a missing --station). Scripts built on the command
 * line tell these apart from the failures above by this code.
 */
export const EXIT_BAD_ARGUMENT = 2;

/** The one error type the command line reports: one line on stderr, then this exit code. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT_BAD_INPUT, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

/**
 * Errors of the modules the commands call, turned into a CliError at the boundary; anything
 * unknown stays as it is (a fault, reported with its message and exit 1).
 */
export function toCliError(e: unknown): CliError | null {
  if (e instanceof CliError) return e;
  if (e instanceof ConfigError || e instanceof SourcesFileError || e instanceof BindError) return new CliError(e.message, EXIT_BAD_INPUT, { cause: e });
  if (e instanceof IngestUsageError || e instanceof SanctionsUsageError || e instanceof AccountCommandError) return new CliError(oneLine(e.message), EXIT_BAD_ARGUMENT, { cause: e });
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" || code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    return new CliError(oneLine((e as Error).message), EXIT_BAD_INPUT, { cause: e });
  }
  if (code === "ENOENT" || code === "EISDIR" || code === "EACCES") {
    const path = (e as NodeJS.ErrnoException).path;
    const why = code === "ENOENT" ? "no such file or directory" : code === "EISDIR" ? "is a directory, not a file" : "permission denied";
    if (path) return new CliError(`${path}: ${why}`, EXIT_BAD_INPUT, { cause: e });
  }
  return null;
}

/** The first line: usage texts appended to a message belong to `mds --help`, not to an error. */
function oneLine(message: string): string {
  return message.split("\n")[0]!.trim();
}
