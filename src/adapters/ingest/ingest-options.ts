export interface IngestOptions {
  /** Position rows per write; a write starts as soon as this many are waiting. */
  batchSize?: number;
  /** Longest a received line waits before its batch is written (ms). */
  flushIntervalMs?: number;
  /** Rows waiting above which senders are slowed (TCP paused) or dropped and counted (UDP). */
  maxBuffered?: number;
  /** Fixes stamped further ahead of the receive time than this (a wrong tag-block clock) are not stored. */
  futureToleranceMs?: number;
  /** Incomplete multi-part messages are dropped after this long (decoder option). */
  fragmentTimeoutMs?: number;
}

const DEFAULTS: Required<IngestOptions> = {
  batchSize: 5_000,
  flushIntervalMs: 200,
  maxBuffered: 200_000,
  futureToleranceMs: 10 * 60_000,
  fragmentTimeoutMs: 10_000,
};

/** The options given, with the defaults for those not given (or given as undefined). */
export function ingestOptions(options: IngestOptions): Required<IngestOptions> {
  return { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
}
