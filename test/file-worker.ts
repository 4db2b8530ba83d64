/**
 * One of `npm test`'s worker processes (test/run.ts starts them): it runs the test files it is
 * given, one after another, inside this process (node:test's `isolation: "none"`), writes the
 * spec report to stdout, and ends with one summary line for the runner.
 *
 *   node test/file-worker.ts <file>...
 *
 * Why not a process per file (node:test's default): nearly every file loads the service's
 * modules, about 0.65 s of CPU each even with the compile cache, and on two cores the suite's
 * 150-odd files spent over a minute and a half of CPU on that alone. A worker loads them once.
 * What a file leaves behind (module state, a timer it forgot) can reach a later file of the
 * same worker; the files close what they open, and a file that needs a process of its own
 * (`mds` as a user runs it) spawns one, as before.
 *
 * In this mode node:test ends the run when the event loop has nothing left to do, so the
 * worker has no channel of its own that would keep it open: the summary goes out on stdout.
 */
import { run } from "node:test";
import { spec } from "node:test/reporters";
import { noCounts, SUMMARY_MARK, TEST_TIMEOUT_MS, type WorkerSummary } from "./worker-summary.ts";

/** A test's outcome event, as node:test gives it. */
interface TestEvent {
  file?: string;
  details?: { type?: string; error?: { failureType?: string } };
  skip?: boolean | string;
  todo?: boolean | string;
}

async function main(files: string[]): Promise<void> {
  const counts = noCounts();
  const seen = new Map<string, { first: number; last: number }>();
  const failed = new Set<string>();
  const stream = run({ files, isolation: "none", timeout: TEST_TIMEOUT_MS });
  const touch = (e: TestEvent) => {
    if (!e.file) return;
    const now = performance.now();
    const t = seen.get(e.file) ?? { first: now, last: now };
    t.last = now;
    seen.set(e.file, t);
  };
  stream.on("test:dequeue", touch);
  // Suites are counted apart by node:test; only tests are counted here, as its summary does.
  const isTest = (e: TestEvent) => e.details?.type !== "suite";
  stream.on("test:pass", (e: TestEvent) => {
    touch(e);
    if (!isTest(e)) return;
    counts.tests++;
    if (e.skip) counts.skipped++;
    else if (e.todo) counts.todo++;
    else counts.pass++;
  });
  stream.on("test:fail", (e: TestEvent) => {
    touch(e);
    if (e.todo) {
      if (isTest(e)) {
        counts.tests++;
        counts.todo++;
      }
      return;
    }
    if (e.file) failed.add(e.file);
    if (!isTest(e)) return;
    counts.tests++;
    if (e.details?.error?.failureType === "cancelledByParent") counts.cancelled++;
    else counts.fail++;
  });
  await new Promise<void>((resolve, reject) => {
    stream
      .compose(spec)
      .on("data", (chunk: string | Buffer) => {
        // The reporter's closing summary (ℹ lines) is the runner's to print once, for the whole suite.
        const text = chunk.toString();
        if (!/^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /.test(text)) process.stdout.write(text);
      })
      .on("end", resolve)
      .on("error", reject);
  });
  const summary: WorkerSummary = {
    counts,
    times: [...seen].map(([file, t]) => ({ file, seconds: (t.last - t.first) / 1000 })),
    failedFiles: [...failed],
  };
  process.stdout.write(`\n${SUMMARY_MARK}${JSON.stringify(summary)}\n`);
}

await main(process.argv.slice(2));
