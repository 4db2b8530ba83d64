import { SESSION_IDLE_MS } from "../domain/people/session-rules.ts";
import type { ServiceCore } from "./services.ts";

/** Hourly: an ended session is refused at once anyway (domain/people/session-rules.ts); the sweep only keeps the table small. */
export const SESSION_SWEEP_EVERY_MS = 3_600_000;

/** Deletes the sign-in sessions past their absolute end (30 days) or idle end (7 days unused); returns how many. */
export function sweepSessions(core: Pick<ServiceCore, "people" | "services">): Promise<number> {
  return core.people.sessions.deleteExpired(core.services.clock.now(), SESSION_IDLE_MS);
}

/**
 * Sweeps ended sessions once now, then every hour, in the processes that do upkeep. Two
 * workers sweeping at once delete the same rows, which costs nothing, so no lock is taken.
 * `first` settles when the first sweep is done; `stop` ends the timer.
 */
export function startSessionSweep(core: Pick<ServiceCore, "people" | "services" | "log">): { first: Promise<void>; stop: () => void } {
  const run = () =>
    sweepSessions(core).then(
      (n) => {
        if (n > 0) core.log.info({ sessions: n }, "ended sign-in sessions swept");
      },
      (err: unknown) => core.log.warn({ err }, "ended sign-in sessions could not be swept; the next hour tries again"),
    );
  const first = run();
  const timer = setInterval(() => void run(), SESSION_SWEEP_EVERY_MS).unref();
  return { first, stop: () => clearInterval(timer) };
}
