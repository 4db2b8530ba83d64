import { execFile } from "node:child_process";
import { join } from "node:path";
import { Readable } from "node:stream";
import { main } from "../../src/cli/main.ts";
import { PROJECT_ROOT } from "../../src/main.ts";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `mds` in this process: main() with captured output and only the environment given (no DATABASE_URL from the shell). */
export async function runCli(argv: string[], env: Record<string, string>, stdin = ""): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    out: (line) => (stdout += `${line}\n`),
    err: (line) => (stderr += `${line}\n`),
    env: { LOG_LEVEL: "silent", ...env },
    stdin: Readable.from([stdin]),
    stderrIsTTY: false,
  });
  return { code, stdout, stderr };
}

/** `mds` as its own process, as a user runs it; for what only a process shows (its exit code, its whole stderr). */
export function spawnCli(argv: string[], env: Record<string, string>): Promise<CliRun> {
  const { DATABASE_URL: _a, REDIS_URL: _b, ARCHIVE_DATABASE_URL: _c, ...rest } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [join(PROJECT_ROOT, "bin/mds.ts"), ...argv], { env: { ...rest, LOG_LEVEL: "silent", ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
  });
}
