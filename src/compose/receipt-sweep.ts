import { retentionCutoff } from "../domain/screenings/retention.ts";
import { startHourlySweep } from "./hourly-sweep.ts";
import type { ServiceCore } from "./services.ts";

/** Deletes the screening receipts older than SCREENING_RETENTION; returns how many. */
export function sweepReceipts(core: Pick<ServiceCore, "config" | "services">): Promise<number> {
  return core.services.screenings.deleteScreenedBefore(retentionCutoff(core.services.clock.now(), core.config.screeningRetention));
}

/** Sweeps receipts past their retention once now, then every hour: a receipt is kept at least the period, at most an hour more. */
export function startReceiptSweep(core: Pick<ServiceCore, "config" | "services" | "log">): { first: Promise<void>; stop: () => void } {
  return startHourlySweep(core.log, "screening receipts past SCREENING_RETENTION", () => sweepReceipts(core));
}
