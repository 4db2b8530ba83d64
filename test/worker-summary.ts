/** What a test worker (test/file-worker.ts) tells the runner (test/run.ts) at its end. */
export interface TestCounts {
  tests: number;
  pass: number;
  fail: number;
  skipped: number;
  todo: number;
  cancelled: number;
}

export interface WorkerSummary {
  counts: TestCounts;
  /** Each file's wall time, from its first test event to its last. */
  times: { file: string; seconds: number }[];
  /** Files with a failed or cancelled test. */
  failedFiles: string[];
}

/** Starts the summary line; the runner takes it off the report. */
export const SUMMARY_MARK = "\u0000mds-test-summary ";
export const TEST_TIMEOUT_MS = 120_000;

export const noCounts = (): TestCounts => ({ tests: 0, pass: 0, fail: 0, skipped: 0, todo: 0, cancelled: 0 });
