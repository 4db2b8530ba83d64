import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

/**
 * A program run in the background whose output the script reads while it runs: the OAuth
 * runs print an authorization URL and then wait for a browser to finish the flow.
 */
export interface Background {
  child: ChildProcess;
  /** Everything written so far, stdout and stderr interleaved as it arrived. */
  output(): string;
  /** The first match of `pattern` in the output, as soon as it appears; rejects when the program ends first or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** The exit code once the program has ended (1 when a signal ended it). */
  exited: Promise<number>;
  /** Ends the program (only this child, by its own pid) if it is still running. */
  stop(): void;
}

export function background(cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Background {
  const child = spawn(cmd, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString("utf8");
    for (const w of waiters) w();
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  let ended = false;
  const exited = new Promise<number>((resolve) => {
    child.on("close", (code) => {
      ended = true;
      for (const w of waiters) w();
      resolve(code ?? 1);
    });
    child.on("error", (err) => {
      text += `\n${err.message}\n`;
    });
  });
  return {
    child,
    output: () => text,
    exited,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = pattern.exec(text);
          if (m) return done(() => resolve(m));
          if (ended) return done(() => reject(new Error(`the program ended before printing ${pattern}; its output:\n${text.slice(-2000)}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`no ${pattern} within ${timeoutMs / 1000}s; output so far:\n${text.slice(-2000)}`))), timeoutMs);
        const done = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
    stop() {
      if (!ended && child.exitCode === null) child.kill("SIGTERM");
    },
  };
}

/** A loopback port nothing listens on right now, for a callback listener the program under test opens itself. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
