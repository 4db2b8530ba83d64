import { SESSION_IDLE_MS } from "../domain/people/session-rules.ts";
import { startHourlySweep } from "./hourly-sweep.ts";
import type { ServiceCore } from "./services.ts";

/** Deletes the sign-in sessions past their absolute end (30 days) or idle end (7 days unused); returns how many. */
export function sweepSessions(core: Pick<ServiceCore, "people" | "services">): Promise<number> {
  return core.people.sessions.deleteExpired(core.services.clock.now(), SESSION_IDLE_MS);
}

/** Sweeps ended sessions once now, then every hour; an ended session is refused at once anyway (domain/people/session-rules.ts). */
export function startSessionSweep(core: Pick<ServiceCore, "people" | "services" | "log">): { first: Promise<void>; stop: () => void } {
  return startHourlySweep(core.log, "ended sign-in sessions", () => sweepSessions(core));
}
