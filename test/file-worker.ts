/**
 * One of `npm test`'s worker processes (test/run.ts forks them): it asks the runner for a test
 * file, runs it inside this process (node:test's `isolation: "none"`), sends back the file's
 * spec report and counts, and asks for the next, until the runner has none left.
 *
 * Why not a process per file (node:test's default): nearly every file loads the service's
 * modules, about 0.65 s of CPU each even with the compile cache, and on two cores the suite's
 * 150-odd files spent over a minute and a half of CPU on that alone. A worker loads them once.
 * What a file leaves behind (module state, a timer it forgot) can reach a later file of the
 * same worker; the files close what they open, and a file that needs a process of its own
 * (`mds` as a user runs it) spawns one, as before.
 *
 * Why a file at a time from the runner rather than a share fixed at the start: a file's time
 * depends on what runs beside it, so a fixed share left some workers running long after the
 * others had ended; taking the next file when one ends keeps every worker busy to the end.
 */
import { run } from "node:test";
import { spec } from "node:test/reporters";
import { type FileResult, noCounts, type RunnerMessage, TEST_TIMEOUT_MS, type WorkerMessage } from "./worker-messages.ts";

/** A test's outcome event, as node:test gives it. */
interface TestEvent {
  details?: { type?: string; error?: { failureType?: string } };
  skip?: boolean | string;
  todo?: boolean | string;
}

/** node:test's own closing summary lines: the runner prints one summary for the suite. */
const SUMMARY_LINE = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /;

async function runFile(file: string): Promise<FileResult> {
  const counts = noCounts();
  let failed = false;
  const started = performance.now();
  const stream = run({ files: [file], isolation: "none", timeout: TEST_TIMEOUT_MS });
  // Suites are counted apart by node:test; only tests are counted here, as its summary does.
  const isTest = (e: TestEvent) => e.details?.type !== "suite";
  stream.on("test:pass", (e: TestEvent) => {
    if (!isTest(e)) return;
    counts.tests++;
    if (e.skip) counts.skipped++;
    else if (e.todo) counts.todo++;
    else counts.pass++;
  });
  stream.on("test:fail", (e: TestEvent) => {
    if (e.todo) {
      if (isTest(e)) {
        counts.tests++;
        counts.todo++;
      }
      return;
    }
    failed = true;
    if (!isTest(e)) return;
    counts.tests++;
    if (e.details?.error?.failureType === "cancelledByParent") counts.cancelled++;
    else counts.fail++;
  });
  let report = "";
  await new Promise<void>((resolve, reject) => {
    stream
      .compose(spec)
      .on("data", (chunk: string | Buffer) => {
        const text = chunk.toString();
        if (!SUMMARY_LINE.test(text)) report += text;
      })
      .on("end", resolve)
      .on("error", reject);
  });
  return { file, counts, failed, seconds: (performance.now() - started) / 1000, report };
}

/** Sends a message and resolves with the runner's answer: the next file, or null when there is none. */
function exchange(message: WorkerMessage): Promise<string | null> {
  return new Promise((resolve) => {
    process.once("message", (m: RunnerMessage) => resolve(m.file));
    process.send!(message);
  });
}

if (!process.send) {
  console.error("test/file-worker.ts is started by test/run.ts (npm test), not by hand");
  process.exit(2);
}
for (let file = await exchange({ done: null }); file !== null; ) file = await exchange({ done: await runFile(file) });
process.disconnect();
