/**
 * `npm test`: every test file, run by a few worker processes (test/file-worker.ts) that each
 * load the service's modules once and run files one after another. The files wait in one
 * queue, longest first by their measured time (`test/file-seconds.txt`; a file not listed
 * counts as the median), and a worker takes the next as soon as it ends one, so the long
 * browser suites start at once and no worker is left alone at the end. Each file's report is
 * printed whole when it ends, then one summary for the suite.
 *
 *   npm test                               # the whole suite
 *   npm test -- test/cli/*.test.ts         # some files
 *   MDS_TEST_WORKERS=4 npm test            # worker processes (default below)
 *   MDS_TEST_TIMES=times.txt npm test      # also writes each file's seconds, to refresh the list
 */
import { type ChildProcess, fork } from "node:child_process";
import { globSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { globalSetup } from "./global-setup.ts";
import { noCounts, type RunnerMessage, type TestCounts, type WorkerMessage } from "./worker-messages.ts";

const ROOT = join(import.meta.dirname, "..");
/**
 * Worker processes at once. Most files wait on something (a database, a child process, a
 * browser, a socket) for much of their time, so on two cores more workers than cores keep
 * both busy; too many lose CPU to contention. With the queue, on this project's 2-core
 * machine: 6 workers took 168 s, 8 took 172 and 175 s, 10 took 185 s (bench/README.md,
 * "The test suite").
 */
const WORKERS = Number(process.env.MDS_TEST_WORKERS ?? 6);
if (!Number.isInteger(WORKERS) || WORKERS < 1) {
  process.stderr.write(`npm test: MDS_TEST_WORKERS must be a whole number of 1 or more, not "${process.env.MDS_TEST_WORKERS}"\n`);
  process.exit(2);
}
/** A file running this long is stuck (a test's own time-out is 2 minutes; the longest file takes under 2). */
const FILE_LIMIT_MS = 10 * 60_000;

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

/** Longest first: the files that take longest start first, while every worker is free. */
function queue(all: string[]): string[] {
  const measured = measuredSeconds();
  const known = [...measured.values()].sort((a, b) => a - b);
  const median = known.length > 0 ? known[Math.floor(known.length / 2)]! : 1;
  const cost = (f: string) => measured.get(f) ?? median;
  return [...all].sort((a, b) => cost(b) - cost(a));
}

globalSetup();
const started = performance.now();
const waiting = queue(files);
const total = noCounts();
const failedFiles: string[] = [];
const times: { file: string; seconds: number }[] = [];
const seconds = () => ((performance.now() - started) / 1000).toFixed(0);

/**
 * Runs a worker until the queue is empty; resolves when it has ended. A worker that dies (a
 * file that exited the process, or crashed it) fails the file it was running, and a fresh
 * worker takes the rest of the queue. A file still running after FILE_LIMIT_MS is stopped
 * with its worker. A worker that dies before asking for a file fails the run and is not replaced.
 */
function runWorker(): Promise<void> {
  return new Promise((done) => {
    const child: ChildProcess = fork(join(ROOT, "test/file-worker.ts"), [], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let asked = false;
    let current: string | null = null;
    let limit: NodeJS.Timeout | undefined;
    const fail = (why: string) => {
      process.stdout.write(`\n✖ ${why}\n`);
      total.fail++;
    };
    child.on("message", (m: WorkerMessage) => {
      clearTimeout(limit);
      asked = true;
      if (m.done) {
        const r = m.done;
        process.stdout.write(r.report.endsWith("\n") ? r.report : `${r.report}\n`);
        for (const k of Object.keys(total) as (keyof TestCounts)[]) total[k] += r.counts[k];
        if (r.failed) failedFiles.push(relative(ROOT, r.file));
        times.push({ file: relative(ROOT, r.file), seconds: r.seconds });
      }
      const next = waiting.shift() ?? null;
      current = next;
      child.send({ file: next && join(ROOT, next) } satisfies RunnerMessage);
      if (next) limit = setTimeout(() => child.kill("SIGKILL"), FILE_LIMIT_MS);
    });
    child.on("exit", (code, signal) => {
      clearTimeout(limit);
      const how = signal ?? `exit ${code}`;
      if (!asked) {
        fail(`a worker could not start (${how})`);
        return done();
      }
      if (current === null) return done();
      fail(`a worker ended (${how}) before its file finished, ${current}${signal === "SIGKILL" ? ` (stopped after ${FILE_LIMIT_MS / 60_000} minutes)` : ""}`);
      failedFiles.push(current);
      if (waiting.length > 0) runWorker().then(done);
      else done();
    });
  });
}

const ended: string[] = [];
await Promise.all(Array.from({ length: Math.min(WORKERS, files.length) }, () => runWorker().then(() => ended.push(seconds()))));

const lines = [
  `ℹ files ${files.length} in ${ended.length} workers, which ended at ${ended.join(", ")} s`,
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
