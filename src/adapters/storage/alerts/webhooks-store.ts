import type { Kysely } from "kysely";
import type { EventType } from "../../../domain/alerts/payload.ts";
import type {
  AttemptResult,
  ClaimedDelivery,
  CompletedAttempt,
  CreateEndpointResult,
  Delivery,
  DeliveryFilter,
  NewAlert,
  RetryOutcome,
  Trigger,
  WebhookEndpoint,
  WebhookStore,
} from "../../../interfaces/webhooks.ts";
import type { SecretBox } from "../accounts/secret-box.ts";
import type { SqlDialect } from "../dialect/dialect.ts";
import type { Database } from "../schema.ts";
import { SqlDeliveryLog } from "./webhook-delivery-log.ts";
import { SqlDeliveryQueue } from "./webhook-delivery-queue.ts";
import { SqlWebhookEndpoints } from "./webhook-endpoints.ts";
import { SqlWebhookOutbox } from "./webhook-outbox.ts";

/**
 * Webhook endpoints, events and deliveries (SQLite or PostgreSQL) as the one object the
 * WebhookStore port asks for: endpoints, the outbox that fans events out to deliveries,
 * the delivery queue workers claim from, and the delivery log owners read.
 */
export class SqlWebhookStore implements WebhookStore {
  readonly #endpoints: SqlWebhookEndpoints;
  readonly #outbox: SqlWebhookOutbox;
  readonly #queue: SqlDeliveryQueue;
  readonly #log: SqlDeliveryLog;

  /** `box` seals the endpoints' signing secrets at rest; call sealSecrets() once at start. */
  constructor(db: Kysely<Database>, dialect: SqlDialect, box: SecretBox) {
    this.#endpoints = new SqlWebhookEndpoints(db, dialect, box);
    this.#outbox = new SqlWebhookOutbox(db, dialect);
    this.#queue = new SqlDeliveryQueue(db, dialect, box);
    this.#log = new SqlDeliveryLog(db, dialect);
  }

  /** Seals plaintext secrets and re-seals those under a previous key; the count it changed. */
  sealSecrets(): Promise<number> {
    return this.#endpoints.sealSecrets();
  }

  createEndpoint(accountId: string, input: { url: string; description: string | null; events: string[] | null }, secret: string, limit: number, now: number): Promise<CreateEndpointResult> {
    return this.#endpoints.createEndpoint(accountId, input, secret, limit, now);
  }

  listEndpoints(accountId: string): Promise<WebhookEndpoint[]> {
    return this.#endpoints.listEndpoints(accountId);
  }

  getEndpoint(accountId: string, id: number): Promise<WebhookEndpoint | null> {
    return this.#endpoints.getEndpoint(accountId, id);
  }

  updateEndpoint(accountId: string, id: number, patch: { url?: string; description?: string | null; events?: string[] | null }, now: number): Promise<WebhookEndpoint | null> {
    return this.#endpoints.updateEndpoint(accountId, id, patch, now);
  }

  deleteEndpoint(accountId: string, id: number): Promise<boolean> {
    return this.#endpoints.deleteEndpoint(accountId, id);
  }

  rotateSecret(accountId: string, id: number, secret: string, previousUntil: number, now: number): Promise<WebhookEndpoint | null> {
    return this.#endpoints.rotateSecret(accountId, id, secret, previousUntil, now);
  }

  enableEndpoint(accountId: string, id: number, now: number): Promise<WebhookEndpoint | null> {
    return this.#endpoints.enableEndpoint(accountId, id, now);
  }

  disableEndpoint(accountId: string, id: number, reason: string, now: number): Promise<WebhookEndpoint | null> {
    return this.#endpoints.disableEndpoint(accountId, id, reason, now);
  }

  emitAlerts(alerts: readonly NewAlert[], now: number, cursor?: { name: string; value: number }): Promise<{ alerts: number; deliveries: number }> {
    return this.#outbox.emitAlerts(alerts, now, cursor);
  }

  createSingleDelivery(accountId: string, endpointId: number, type: EventType, body: (eventId: number, created: number) => string, trigger: Trigger, now: number): Promise<number | null> {
    return this.#outbox.createSingleDelivery(accountId, endpointId, type, body, trigger, now);
  }

  claimDue(now: number, leaseMs: number, limit: number, onlyDeliveryId?: number): Promise<ClaimedDelivery[]> {
    return this.#queue.claimDue(now, leaseMs, limit, onlyDeliveryId);
  }

  completeAttempt(claim: ClaimedDelivery, result: AttemptResult, now: number): Promise<{ applied: boolean; endpointDisabled: boolean }> {
    return this.#queue.completeAttempt(claim, result, now);
  }

  completeAttempts(items: readonly CompletedAttempt[], now: number): Promise<{ applied: boolean; endpointDisabled: boolean }[]> {
    return this.#queue.completeAttempts(items, now);
  }

  releaseClaims(claims: readonly ClaimedDelivery[], now: number): Promise<void> {
    return this.#queue.releaseClaims(claims, now);
  }

  listDeliveries(accountId: string, endpointId: number, filter: DeliveryFilter): Promise<Delivery[]> {
    return this.#log.listDeliveries(accountId, endpointId, filter);
  }

  getDelivery(accountId: string, deliveryId: number): Promise<Delivery | null> {
    return this.#log.getDelivery(accountId, deliveryId);
  }

  retryDelivery(accountId: string, deliveryId: number, now: number): Promise<RetryOutcome> {
    return this.#log.retryDelivery(accountId, deliveryId, now);
  }
}
