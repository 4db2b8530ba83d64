import type { Readable } from "node:stream";

/** Where a command reads and writes: the process for `bin/mds.ts`, buffers for in-process tests. */
export interface CliIo {
  /** One line of the command's answer (a key, an id, JSON). */
  out(line: string): void;
  /** One line of progress or a diagnostic. */
  err(line: string): void;
  env: Record<string, string | undefined>;
  stdin: Readable;
  /** A terminal on stderr: progress bars only then. */
  stderrIsTTY: boolean;
}

export function processIo(): CliIo {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    stdin: process.stdin,
    stderrIsTTY: process.stderr.isTTY === true,
  };
}
