/**
 * Keeps the sanctions lists fresh while `serve` runs: a first round at start fetches every
 * list that is due (on a fresh data dir: all of them), then a round every interval (daily by
 * default, SANCTIONS_REFRESH). A failed list (download error, timeout, guard) is recorded and
 * logged, keeps its stored version, and is tried again after the shorter retry delay; it
 * never stops the service or the other lists. Rounds never overlap: the next one is
 * scheduled when the previous has finished.
 *
 * Several processes of one deployment (workers) each run a refresher. With `exclusive` (a
 * job lock across processes) each list is fetched by one of them at a time, and a process
 * that waited for the lock skips a list another process attempted meanwhile: the lists are
 * fetched once per deployment, not once per process.
 */
import { SANCTIONS_LISTS, type SanctionsListKey } from "../../domain/sanctions/designation.ts";
import type { SanctionsFetchState } from "../../interfaces/sanctions.ts";
import { type ConfiguredSanctionsSources, describeImport, importAllSanctions, type ListOutcome, type SanctionsImportDeps } from "./sanctions-import.ts";
import type { ReadSourcesOptions } from "./sanctions/source.ts";

export interface RefreshLog {
  info(message: string): void;
  error(message: string): void;
}

/** The timer functions the refresher schedules with; tests pass their own to run rounds without waiting. */
export interface RefreshTimers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const HOUR_MS = 3_600_000;

export const systemRefreshTimers: RefreshTimers = {
  setTimeout(run, ms) {
    // unref: a pending refresh must not keep a stopping process alive.
    return setTimeout(run, ms).unref();
  },
  clearTimeout(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

export interface SanctionsRefreshOptions {
  /** Time between rounds (ms). */
  intervalMs: number;
  /** Time before a round that follows a failed list (ms); default the interval, at most an hour. */
  retryMs?: number;
  sources?: ConfiguredSanctionsSources;
  log: RefreshLog;
  timers?: RefreshTimers;
  /** Deadline of each download (ms). */
  timeoutMs?: number;
  /** Download progress for one list, e.g. bars on a terminal. */
  progressFor?: (list: SanctionsListKey) => ReadSourcesOptions["progressFor"];
  /**
   * Runs `run` while no other process of the deployment runs the same job, waiting for it
   * (`serve`: a PostgreSQL advisory lock). Unset: this process is the only one.
   */
  exclusive?: <T>(job: string, run: () => Promise<T>) => Promise<T>;
}

/**
 * Whether a list is fetched in this round: never fetched successfully, failed last time, or
 * its last success is at least half an interval old (a restart soon after a fetch does not
 * fetch again, a daily round always does).
 */
export function isDue(state: SanctionsFetchState | undefined, now: number, intervalMs: number): boolean {
  if (!state || state.succeededAt === null || state.outcome === "failed") return true;
  return now - state.succeededAt >= intervalMs / 2;
}

export class SanctionsRefresher {
  readonly #deps: SanctionsImportDeps;
  readonly #options: SanctionsRefreshOptions;
  readonly #timers: RefreshTimers;
  readonly #retryMs: number;
  #timer: unknown = null;
  #round: Promise<ListOutcome[]> | null = null;
  #stopped = false;
  /** Set by a round that skipped a list because another process's attempt at it had just failed. */
  #othersFailed = false;

  constructor(deps: SanctionsImportDeps, options: SanctionsRefreshOptions) {
    if (!(Number.isFinite(options.intervalMs) && options.intervalMs >= 60_000)) {
      throw new RangeError(`refresh interval must be at least one minute, got ${options.intervalMs} ms`);
    }
    this.#deps = deps;
    this.#options = options;
    this.#timers = options.timers ?? systemRefreshTimers;
    this.#retryMs = options.retryMs ?? Math.min(options.intervalMs, HOUR_MS);
  }

  /** Runs a first round now (every list that is due), then one every interval. Returns the first round. */
  start(): Promise<ListOutcome[]> {
    this.#stopped = false;
    return this.#run();
  }

  /** One round: every due list with a source, one after the other. */
  async runOnce(): Promise<ListOutcome[]> {
    this.#othersFailed = false;
    const states = await this.#deps.sanctions.fetchStates();
    const now = this.#deps.clock.now();
    const due = SANCTIONS_LISTS.filter((list) => isDue(states.find((s) => s.list === list), now, this.#options.intervalMs));
    const outcomes: ListOutcome[] = [];
    const exclusive = this.#options.exclusive ?? ((_job, run) => run());
    // One list at a time, so each gets its own progress bars.
    for (const list of due) {
      const seen = states.find((s) => s.list === list)?.attemptedAt ?? null;
      const listOutcomes = await exclusive(`sanctions-fetch:${list}`, async (): Promise<ListOutcome[]> => {
        // Another process may have fetched it while this one waited for the lock: its attempt is recorded.
        const fresh = (await this.#deps.sanctions.fetchStates()).find((s) => s.list === list);
        if (fresh?.attemptedAt != null && fresh.attemptedAt !== seen) {
          // Its failure is retried as this process's own would be: after the shorter delay.
          if (fresh.outcome === "failed") this.#othersFailed = true;
          return [{ list, status: "skipped", reason: `fetched by another process of this deployment at ${new Date(fresh.attemptedAt).toISOString()} (${fresh.outcome})` }];
        }
        const download = { timeoutMs: this.#options.timeoutMs, progressFor: this.#options.progressFor?.(list) };
        return importAllSanctions(this.#deps, this.#options.sources ?? {}, { download }, [list]);
      });
      outcomes.push(...listOutcomes);
    }
    for (const o of outcomes) {
      if (o.status === "imported") this.#options.log.info(`sanctions refresh: ${describeImport(o.result)}`);
      else if (o.status === "failed") this.#options.log.error(`sanctions refresh: ${o.list} not imported, the stored version stays: ${o.error.message}`);
    }
    return outcomes;
  }

  #run(): Promise<ListOutcome[]> {
    let failed = false;
    const round = this.runOnce()
      .then((outcomes) => {
        failed = outcomes.some((o) => o.status === "failed") || this.#othersFailed;
        return outcomes;
      })
      .catch((e: unknown) => {
        failed = true;
        this.#options.log.error(`sanctions refresh failed: ${e instanceof Error ? e.message : String(e)}`);
        return [] as ListOutcome[];
      })
      .finally(() => {
        this.#round = null;
        if (this.#stopped) return;
        this.#timer = this.#timers.setTimeout(() => void this.#run(), failed ? this.#retryMs : this.#options.intervalMs);
      });
    this.#round = round;
    return round;
  }

  /** The round under way, if any (tests and `serve` wait on it). */
  get running(): Promise<ListOutcome[]> | null {
    return this.#round;
  }

  /** Cancels the next round and waits for a running one, so the store can be closed after. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#round) await this.#round;
  }
}
