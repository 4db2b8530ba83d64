/**
 * Re-imports the sanctions lists every SANCTIONS_REFRESH_MINUTES while `serve` runs.
 * A failed list (download error, delisting guard) is logged and retried at the next
 * round; it never stops the service or the other lists. Rounds never overlap: the next
 * one is scheduled when the previous has finished.
 */
import { type ConfiguredSanctionsSources, describeImport, importAllSanctions, type ListOutcome, type SanctionsImportDeps } from "./sanctions-import.ts";

export interface RefreshLog {
  info(message: string): void;
  error(message: string): void;
}

export interface SanctionsRefreshOptions {
  minutes: number;
  sources?: ConfiguredSanctionsSources;
  log: RefreshLog;
}

export class SanctionsRefresher {
  readonly #deps: SanctionsImportDeps;
  readonly #options: SanctionsRefreshOptions;
  #timer: NodeJS.Timeout | null = null;
  #round: Promise<ListOutcome[]> | null = null;
  #stopped = false;

  constructor(deps: SanctionsImportDeps, options: SanctionsRefreshOptions) {
    if (!(Number.isInteger(options.minutes) && options.minutes >= 1)) throw new RangeError(`refresh interval must be a whole number of minutes >= 1, got ${options.minutes}`);
    this.#deps = deps;
    this.#options = options;
  }

  /** Runs a first round now (the lists are current from the start), then one every interval. Returns the first round. */
  start(): Promise<ListOutcome[]> {
    this.#stopped = false;
    return this.#run();
  }

  /** One round: every list with a source, one after the other. */
  async runOnce(): Promise<ListOutcome[]> {
    const outcomes = await importAllSanctions(this.#deps, this.#options.sources ?? {});
    for (const o of outcomes) {
      if (o.status === "imported") this.#options.log.info(`sanctions refresh: ${describeImport(o.result)}`);
      else if (o.status === "failed") this.#options.log.error(`sanctions refresh: ${o.list} not imported, the stored version stays: ${o.error.message}`);
    }
    return outcomes;
  }

  #run(): Promise<ListOutcome[]> {
    const round = this.runOnce()
      .catch((e: unknown) => {
        this.#options.log.error(`sanctions refresh failed: ${e instanceof Error ? e.message : String(e)}`);
        return [] as ListOutcome[];
      })
      .finally(() => {
        this.#round = null;
        if (this.#stopped) return;
        // unref: a pending refresh must not keep a stopping process alive.
        this.#timer = setTimeout(() => void this.#run(), this.#options.minutes * 60_000);
        this.#timer.unref();
      });
    this.#round = round;
    return round;
  }

  /** Cancels the next round and waits for a running one, so the store can be closed after. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#round) await this.#round;
  }
}
