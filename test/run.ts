/**
 * `npm test`: every test file, split among a few worker processes (test/file-worker.ts) that
 * each load the service's modules once and run their files one after another. The split
 * evens out the measured time of each file (`test/file-seconds.txt`; a file not listed counts
 * as the median), longest first, so no worker is left with the long browser suites at the end.
 * Each worker's report is printed whole when it ends, then one summary for the suite.
 *
 *   npm test                               # the whole suite
 *   npm test -- test/cli/*.test.ts         # some files
 *   MDS_TEST_WORKERS=4 npm test            # worker processes (default below)
 *   MDS_TEST_TIMES=times.txt npm test      # also writes each file's seconds, to refresh the list
 */
import { spawn } from "node:child_process";
import { globSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { globalSetup } from "./global-setup.ts";
import { noCounts, SUMMARY_MARK, type TestCounts, type WorkerSummary } from "./worker-summary.ts";

const ROOT = join(import.meta.dirname, "..");
/**
 * Worker processes at once. Most files wait on something (a database, a child process, a
 * browser, a socket) for much of their time, so on two cores more workers than cores keep
 * both busy. On this project's 2-core machine 6 workers took 317 s, 8 took 257 s, 10 took
 * 259 s and 14 took 313 s (more CPU lost to contention); bench/README.md, "The test suite".
 */
const WORKERS = Math.max(1, Number(process.env.MDS_TEST_WORKERS ?? 8));
/** A worker that has printed nothing for this long is stuck (a test's own time-out is 2 minutes). */
const SILENT_LIMIT_MS = 10 * 60_000;

// npm runs scripts in the package's folder; INIT_CWD is where `npm test` was typed.
const given = process.argv.slice(2).map((f) => relative(ROOT, resolve(process.env.INIT_CWD ?? process.cwd(), f)));
const files = given.length > 0 ? given : globSync("test/**/*.test.ts", { cwd: ROOT }).sort();

/** `seconds path` per line, as MDS_TEST_TIMES writes it. */
function measuredSeconds(): Map<string, number> {
  const text = readFileSync(join(ROOT, "test/file-seconds.txt"), "utf8");
  const seconds = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^\s*([\d.]+)\s+(\S+)\s*$/.exec(line);
    if (m) seconds.set(m[2]!, Number(m[1]));
  }
  return seconds;
}

/** Longest first, each file to the worker with the least time so far. */
function split(all: string[], workers: number): string[][] {
  const measured = measuredSeconds();
  const known = [...measured.values()].sort((a, b) => a - b);
  const median = known.length > 0 ? known[Math.floor(known.length / 2)]! : 1;
  const cost = (f: string) => measured.get(f) ?? median;
  const shards = Array.from({ length: Math.min(workers, all.length) }, () => ({ files: [] as string[], seconds: 0 }));
  for (const f of [...all].sort((a, b) => cost(b) - cost(a))) {
    const least = shards.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    least.files.push(f);
    least.seconds += cost(f);
  }
  return shards.map((s) => s.files);
}

/** Runs one worker; resolves with its summary (null when it ended without one). */
function runWorker(shard: string[]): Promise<{ summary: WorkerSummary | null; output: string; exit: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(ROOT, "test/file-worker.ts"), ...shard.map((f) => join(ROOT, f))], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    let silent = setTimeout(stuck, SILENT_LIMIT_MS);
    function stuck() {
      output += `\n✖ a worker printed nothing for ${SILENT_LIMIT_MS / 60_000} minutes and was stopped; its files: ${shard.join(", ")}\n`;
      child.kill("SIGKILL");
    }
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      clearTimeout(silent);
      silent = setTimeout(stuck, SILENT_LIMIT_MS);
    });
    child.on("close", (code, signal) => {
      clearTimeout(silent);
      const at = output.lastIndexOf(SUMMARY_MARK);
      const summary = at >= 0 ? (JSON.parse(output.slice(at + SUMMARY_MARK.length)) as WorkerSummary) : null;
      done({ summary, output: at >= 0 ? output.slice(0, at) : output, exit: signal ?? `exit ${code}` });
    });
  });
}

globalSetup();
const started = performance.now();
const shards = split(files, WORKERS);
const total = noCounts();
const failedFiles: string[] = [];
const times: { file: string; seconds: number }[] = [];
await Promise.all(
  shards.map(async (shard) => {
    const { summary, output, exit } = await runWorker(shard);
    process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
    if (!summary) {
      // A worker that died (a file that exited the process, or crashed it) fails all its files: which one did it shows above.
      process.stdout.write(`✖ a worker ended (${exit}) before its files finished: ${shard.join(", ")}\n`);
      failedFiles.push(...shard);
      total.fail++;
      return;
    }
    for (const k of Object.keys(total) as (keyof TestCounts)[]) total[k] += summary.counts[k];
    failedFiles.push(...summary.failedFiles.map((f) => relative(ROOT, f)));
    times.push(...summary.times.map((t) => ({ file: relative(ROOT, t.file), seconds: t.seconds })));
  }),
);

const lines = [
  `ℹ files ${files.length} in ${shards.length} workers`,
  ...(Object.keys(total) as (keyof TestCounts)[]).map((k) => `ℹ ${k} ${total[k]}`),
  `ℹ duration_ms ${(performance.now() - started).toFixed(0)}`,
];
if (failedFiles.length > 0) lines.push(`✖ files with failures:\n${failedFiles.map((f) => `  ${f}`).join("\n")}`);
process.stdout.write(`${lines.join("\n")}\n`);
const out = process.env.MDS_TEST_TIMES;
if (out) writeFileSync(out, times.sort((a, b) => b.seconds - a.seconds).map((t) => `${t.seconds.toFixed(1)} ${t.file}`).join("\n") + "\n");
// No file at all is a mistake (a path that matched nothing); files whose suites are all skipped (no browser) are not.
if (files.length === 0) process.stdout.write("✖ no test files to run\n");
process.exitCode = failedFiles.length > 0 || total.fail > 0 || total.cancelled > 0 || files.length === 0 ? 1 : 0;
