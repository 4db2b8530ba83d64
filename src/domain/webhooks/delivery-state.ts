import { MAX_ATTEMPTS, nextAttemptAt } from "./schedule.ts";

export type DeliveryStatus = "pending" | "retrying" | "delivered" | "given_up" | "skipped" | "failed";
/** auto: the schedule; manual: an owner's retry; test: "send test event". */
export type Trigger = "auto" | "manual" | "test";

/** What the claim of an attempt read from its delivery. */
export interface AttemptedDelivery {
  trigger: Trigger;
  /** Scheduled attempts that failed before this one. */
  tries: number;
  /** For a one-off retry of a delivery that had ended: the state it goes back to unless it succeeds. */
  resumeStatus: DeliveryStatus | null;
}

export interface NextDeliveryState {
  status: DeliveryStatus;
  tries: number;
  /** When the next attempt is due; null when none is scheduled. */
  next: number | null;
}

/**
 * What an attempt's outcome makes of its delivery (spec 3): a success delivers it; a failed
 * test stays failed; an owner's one-off retry goes back to where it was; a scheduled attempt
 * that failed is retried on the schedule until none is left, then given up.
 */
export function nextDeliveryState(delivery: AttemptedDelivery, success: boolean, endedAt: number): NextDeliveryState {
  if (success) return { status: "delivered", tries: delivery.tries, next: null };
  if (delivery.trigger === "test") return { status: "failed", tries: delivery.tries, next: null };
  if (delivery.trigger === "manual") return { status: delivery.resumeStatus ?? "given_up", tries: delivery.tries, next: null };
  const tries = delivery.tries + 1;
  const next = nextAttemptAt(tries, endedAt);
  return next === null || tries >= MAX_ATTEMPTS ? { status: "given_up", tries, next: null } : { status: "retrying", tries, next };
}
