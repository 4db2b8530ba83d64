import type { Logger } from "pino";

/** Hourly: what these sweeps delete is refused or unread anyway; the sweep only keeps tables small. */
export const SWEEP_EVERY_MS = 3_600_000;

/**
 * Runs a sweep once now, then every hour, in the processes that do upkeep. Two workers
 * sweeping at once delete the same rows, which costs nothing, so no lock is taken. A failed
 * sweep is logged and the next hour tries again. `first` settles when the first sweep is done;
 * `stop` ends the timer.
 */
export function startHourlySweep(log: Logger, what: string, sweep: () => Promise<number>): { first: Promise<void>; stop: () => void } {
  const run = () =>
    sweep().then(
      (n) => {
        if (n > 0) log.info({ swept: n }, `${what} swept`);
      },
      (err: unknown) => log.warn({ err }, `${what} could not be swept; the next hour tries again`),
    );
  const first = run();
  const timer = setInterval(() => void run(), SWEEP_EVERY_MS).unref();
  return { first, stop: () => clearInterval(timer) };
}
