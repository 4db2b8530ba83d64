import type { EventSummary } from "../domain/alerts/event-summary.ts";
import type { AlertKind, EventType } from "../domain/alerts/payload.ts";
import type { EndpointStatus, WebhookEndpoint } from "../domain/webhooks/endpoint.ts";

/**
 * Webhook endpoints, the events raised for accounts, and their deliveries. The deliveries
 * table is the queue: fan-out writes rows in the transaction that records the alert, and
 * workers claim due rows with a lease, so a crash loses nothing and two workers never
 * hold the same attempt.
 */

export type { EndpointStatus, WebhookEndpoint };

export type DeliveryStatus = "pending" | "retrying" | "delivered" | "given_up" | "skipped" | "failed";
/** auto: the schedule; manual: an owner's retry; test: "send test event". */
export type Trigger = "auto" | "manual" | "test";
export type AttemptOutcome = "in_flight" | "succeeded" | "failed" | "interrupted";

/** Why an attempt failed, for the log and for receivers' owners to act on. */
export type ErrorClass = "invalid_target" | "blocked_address" | "dns" | "connect" | "tls" | "timeout" | "http_status" | "protocol" | "body_too_large" | "interrupted";

export interface DeliveryAttempt {
  attempt: number;
  /** The `Service-Delivery` header of this attempt. */
  deliveryUuid: string;
  trigger: Trigger;
  outcome: AttemptOutcome;
  startedAt: number;
  durationMs: number | null;
  statusCode: number | null;
  errorClass: ErrorClass | null;
  error: string | null;
  responseSnippet: string | null;
}

export interface Delivery extends EventSummary {
  id: number;
  eventId: number;
  eventType: string;
  endpointId: number;
  status: DeliveryStatus;
  /** Attempt rows logged (numbered 1..attempts without gaps). */
  attempts: number;
  /** Scheduled attempts completed: what counts toward the 8. */
  tries: number;
  nextAttemptAt: number | null;
  createdAt: number;
  updatedAt: number;
  log: DeliveryAttempt[];
}

export interface DeliveryFilter {
  eventId?: number;
  status?: DeliveryStatus;
  from?: number;
  to?: number;
  /** Deliveries with id below this (newest first paging). */
  beforeId?: number;
  limit: number;
}

/** One attempt a worker holds: everything needed to send it, read at claim time (current URL and secrets). */
export interface ClaimedDelivery {
  deliveryId: number;
  attempt: number;
  deliveryUuid: string;
  leaseToken: string;
  trigger: Trigger;
  /** Scheduled attempts completed before this one, and the final state a one-off attempt falls back to. */
  tries: number;
  resumeStatus: DeliveryStatus | null;
  eventId: number;
  eventType: string;
  body: string;
  endpointId: number;
  accountId: string;
  url: string;
  /** Secrets signing this attempt: the current one, and the previous one during a rotation's grace period. */
  secrets: string[];
}

/** An attempt that was sent, with its outcome, for recording. */
export interface CompletedAttempt {
  claim: ClaimedDelivery;
  result: AttemptResult;
  /** When the answer (or the failure) came; the next retry counts from it. */
  endedAt?: number;
}

export interface AttemptResult {
  success: boolean;
  statusCode: number | null;
  errorClass: ErrorClass | null;
  error: string | null;
  durationMs: number;
  responseSnippet: string | null;
}

/** An alert to record, with the body of its event built once the ids are known. */
export interface NewAlert {
  accountId: string;
  type: AlertKind;
  occurredAt: number;
  /** Unique per alert: recording the same alert twice (a replayed outbox read) is a no-op. */
  dedupeKey: string;
  /** Type-specific columns for the alert log (zone id, follow id, mmsi...). */
  detail: Record<string, unknown>;
  body(ids: { alertId: number; eventId: number; created: number }): string;
}

export type CreateEndpointResult = { ok: true; endpoint: WebhookEndpoint } | { ok: false; limit: number };

export type RetryOutcome = { ok: true; delivery: Delivery } | { ok: false; reason: "not_found" | "endpoint_disabled" | "in_flight" };

export interface WebhookStore {
  /** Inserts unless the account has `limit` endpoints already; the count and the insert are one atomic step. */
  createEndpoint(accountId: string, input: { url: string; description: string | null; events: string[] | null }, secret: string, limit: number, now: number): Promise<CreateEndpointResult>;
  listEndpoints(accountId: string): Promise<WebhookEndpoint[]>;
  getEndpoint(accountId: string, id: number): Promise<WebhookEndpoint | null>;
  updateEndpoint(accountId: string, id: number, patch: { url?: string; description?: string | null; events?: string[] | null }, now: number): Promise<WebhookEndpoint | null>;
  /** Deletes the endpoint with its deliveries and their log. */
  deleteEndpoint(accountId: string, id: number): Promise<boolean>;
  /** New current secret; the old one keeps signing until `previousUntil` (now or earlier: revoked at once). */
  rotateSecret(accountId: string, id: number, secret: string, previousUntil: number, now: number): Promise<WebhookEndpoint | null>;
  /** Turns a turned-off endpoint on again and clears its failure streak. */
  enableEndpoint(accountId: string, id: number, now: number): Promise<WebhookEndpoint | null>;
  /** Turns an endpoint off (its owner's choice, `reason` saying so); alerts meanwhile are logged as skipped. */
  disableEndpoint(accountId: string, id: number, reason: string, now: number): Promise<WebhookEndpoint | null>;

  /**
   * Records alerts, one event each, and fans each out to the account's endpoints (a pending
   * delivery per active endpoint whose filter takes the type, a `skipped` one per turned-off
   * endpoint), all in one transaction together with moving `cursor` when given.
   */
  emitAlerts(alerts: readonly NewAlert[], now: number, cursor?: { name: string; value: number }): Promise<{ alerts: number; deliveries: number }>;
  /** An event of `type` for one endpoint only (test events), delivered once, never retried. */
  createSingleDelivery(accountId: string, endpointId: number, type: EventType, body: (eventId: number, created: number) => string, trigger: Trigger, now: number): Promise<number | null>;

  /**
   * Claims up to `limit` due deliveries of active endpoints (or just `onlyDeliveryId`):
   * one atomic step sets a lease, numbers the attempt and logs it as in flight. An attempt
   * whose worker died (lease expired) is logged as interrupted and the delivery claimed anew.
   */
  claimDue(now: number, leaseMs: number, limit: number, onlyDeliveryId?: number): Promise<ClaimedDelivery[]>;
  /**
   * Records the outcome: the attempt's log row, the delivery's next state (delivered, next
   * retry, given up) and the endpoint's failure streak (turning it off after 15 failures
   * spanning 24 h). Ignored when the lease was taken over meanwhile. Returns whether the
   * endpoint was turned off by this failure.
   */
  completeAttempt(claim: ClaimedDelivery, result: AttemptResult, now: number): Promise<{ applied: boolean; endpointDisabled: boolean }>;
  /**
   * The same for many attempts in one transaction (a worker's group commit); results in order.
   * Each retry is scheduled from its attempt's `endedAt` (default `now`), the end of the
   * attempt that failed, however long its outcome waited to be written.
   */
  completeAttempts(items: readonly CompletedAttempt[], now: number): Promise<{ applied: boolean; endpointDisabled: boolean }[]>;
  /**
   * Hands back claims that were never sent (a worker stopping with attempts queued): the
   * lease is freed and the in-flight log row removed, as if the claim had not been made.
   * Claims whose lease was taken over meanwhile are left alone.
   */
  releaseClaims(claims: readonly ClaimedDelivery[], now: number): Promise<void>;

  listDeliveries(accountId: string, endpointId: number, filter: DeliveryFilter): Promise<Delivery[]>;
  getDelivery(accountId: string, deliveryId: number): Promise<Delivery | null>;
  /** One more attempt now, with the same event id (a one-off after a final state; sooner when a retry is pending). */
  retryDelivery(accountId: string, deliveryId: number, now: number): Promise<RetryOutcome>;
}

export interface TestSendResult {
  eventId: number;
  deliveryId: number;
  attempt: DeliveryAttempt | null;
}

/** What operations ask of the delivery side of this process. */
export interface WebhookDispatch {
  /** Sends a test event to one endpoint now, through the same client, signing and log. */
  sendTest(accountId: string, endpointId: number): Promise<TestSendResult | null>;
  /** Deliveries became due (new events, a retry): a worker of this process looks now. */
  wake(): void;
}
