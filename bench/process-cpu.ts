import { readFileSync } from "node:fs";

/**
 * CPU time (ms) a process has used, user and system, from /proc (Linux; 0 elsewhere or when it
 * has gone). Throughput on a shared machine moves with its load; CPU per request or per
 * delivery moves much less, so the benches report it beside their rates.
 */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}
