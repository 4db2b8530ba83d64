/**
 * A server under benchmark in a process of its own (bench/pipeline-server.ts,
 * bench/bare-server.ts): started, read from its one ready line, and stopped. `nodeOptions` go
 * to node before the script (--cpu-prof cannot be passed through NODE_OPTIONS).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** Starts `script` (beside this file) and waits for the one JSON line it prints when ready. */
export async function startChild(script: string, args: string[], env: NodeJS.ProcessEnv = process.env, nodeOptions: string[] = []): Promise<{ child: ChildProcess; ready: Record<string, any> }> {
  const child = spawn(process.execPath, [...nodeOptions, new URL(script, import.meta.url).pathname, ...args], { stdio: ["ignore", "pipe", "inherit"], env });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, ready: JSON.parse(line) };
}

/** Stops a server and waits for it to exit (its database can then be dropped). */
export async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}
