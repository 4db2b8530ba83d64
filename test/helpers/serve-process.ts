import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../src/main.ts";

/** One `mds serve` as its own process, as an operator runs it. */
export interface ServeProcess {
  child: ChildProcess;
  /** http://host:port it listens on. */
  base: string;
  /** Its station TCP port, when the role listens. */
  tcpPort: number | null;
  stdout: string[];
  stderr: string[];
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `mds serve` with exactly the environment given (none of the shell's database
 * settings) and resolves once it prints where it listens; rejects with its stderr when it
 * exits first or takes longer than `timeoutMs`. `entry`: the script run instead of bin/mds.ts
 * (one that hands the services test seams, such as serve-with-test-receiver.ts).
 */
export function startServe(args: string[], env: Record<string, string>, timeoutMs = 60_000, entry = join(PROJECT_ROOT, "bin/mds.ts")): Promise<ServeProcess> {
  const { DATABASE_URL: _a, REDIS_URL: _b, ARCHIVE_DATABASE_URL: _c, ...rest } = process.env;
  const child = spawn(process.execPath, [entry, "serve", ...args], {
    env: { ...rest, LOG_LEVEL: "warn", HOST: "127.0.0.1", PORT: "0", INGEST_TCP_PORT: "0", INGEST_UDP_PORT: "off", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`serve ${args.join(" ")} did not start within ${timeoutMs} ms:\n${stderr.join("")}`));
    }, timeoutMs);
    let buffered = "";
    let tcpPort: number | null = null;
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        stdout.push(line);
        const tcp = /station ingest: tcp (\d+)/.exec(line);
        if (tcp) tcpPort = Number(tcp[1]);
      }
      const listening = stdout.map((l) => /listening on (http:\/\/\S+)/.exec(l)).find((m) => m);
      // The station line follows the listening line when the role has listeners.
      const wantsTcp = args.includes("--role") ? ["ingest", "all"].includes(args[args.indexOf("--role") + 1]!) : true;
      if (listening && (!wantsTcp || tcpPort !== null)) {
        clearTimeout(timer);
        resolve({ child, base: listening[1]!, tcpPort, stdout, stderr, exited });
      }
    });
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => stderr.push(chunk));
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`serve ${args.join(" ")} exited (${code ?? signal}) before listening:\n${stderr.join("")}`));
    });
  });
}

/** Polls `url` until it answers `status` (or the time is up). */
export async function waitForStatus(url: string, status: number, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last = 0;
  while (Date.now() < until) {
    last = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (last === status) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} answered ${last}, not ${status}, within ${timeoutMs} ms`);
}
