/** What `npm test`'s runner (test/run.ts) and its workers (test/file-worker.ts) tell each other. */
export interface TestCounts {
  tests: number;
  pass: number;
  fail: number;
  skipped: number;
  todo: number;
  cancelled: number;
}

/** One test file's outcome, as its worker ran it. */
export interface FileResult {
  file: string;
  counts: TestCounts;
  /** A test or a suite (its hooks included) of the file failed or was cancelled. */
  failed: boolean;
  /** Wall time from the file's start to its last report. */
  seconds: number;
  /** node:test's spec report of the file, without its closing summary. */
  report: string;
}

/** A worker asks for a file; `done` is the file it has just run (null for its first ask). */
export interface WorkerMessage {
  done: FileResult | null;
}

/** The runner's answer: the next file, or null when none is left (the worker then ends). */
export interface RunnerMessage {
  file: string | null;
}

export const TEST_TIMEOUT_MS = 120_000;

export const noCounts = (): TestCounts => ({ tests: 0, pass: 0, fail: 0, skipped: 0, todo: 0, cancelled: 0 });
