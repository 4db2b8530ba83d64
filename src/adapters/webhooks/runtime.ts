import { testEventBody, TEST_EVENT_TYPE } from "../../domain/alerts/payload.ts";
import { AppError } from "../../domain/errors.ts";
import { formatId } from "../../domain/ids.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { TestSendResult, WebhookDispatch, WebhookStore } from "../../interfaces/webhooks.ts";
import { DeliveryTransport, type TransportOptions } from "./http-client.ts";
import { WebhookMetrics } from "./metrics.ts";
import { DeliveryWorker, USER_AGENT_PRODUCT, type WorkerOptions } from "./worker.ts";

export interface WebhooksOptions {
  /** Seams of the HTTP client: resolver, address policy, trust anchors, deadline. Production uses the defaults. */
  transport?: TransportOptions;
  worker?: Partial<Omit<WorkerOptions, "userAgent">>;
  /** "Send test event" per account and minute: it makes the service send a request to a URL of the caller's choosing. */
  testEventsPerMinute?: number;
}

interface Log {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Webhook delivery of one process: the delivery worker (started by `serve`), its HTTP
 * client and counters, and what operations ask of it (test events, wake-ups). The alerts it
 * delivers are detected elsewhere (src/adapters/alerts/) and recorded with their deliveries.
 */
export class WebhooksRuntime implements WebhookDispatch {
  readonly transport: DeliveryTransport;
  readonly worker: DeliveryWorker;
  readonly userAgent: string;
  /** Delivery counters of this process, served on its /metrics. */
  readonly metrics = new WebhookMetrics();
  readonly #store: WebhookStore;
  readonly #clock: Clock;
  readonly #options: WebhooksOptions;
  readonly #log: Log | undefined;
  readonly #testSends = new Map<string, number[]>();
  #started = false;

  constructor(store: WebhookStore, clock: Clock, config: { baseUrl: string; log?: Log; options?: WebhooksOptions }) {
    this.#store = store;
    this.#clock = clock;
    this.#options = config.options ?? {};
    this.#log = config.log;
    this.userAgent = `${USER_AGENT_PRODUCT} (${config.baseUrl}/docs/webhooks)`;
    this.transport = new DeliveryTransport(this.#options.transport);
    this.worker = new DeliveryWorker(store, this.transport, clock, {
      ...this.#options.worker,
      userAgent: this.userAgent,
      onError: (err, what) => this.#log?.error({ err }, `webhooks: ${what} failed`),
      onAttempt: (claim, result, disabled) => {
        this.metrics.attempt(result, disabled);
        if (disabled) this.#log?.warn({ endpoint: claim.endpointId, account: claim.accountId }, "webhook endpoint turned off after repeated failures");
        this.#options.worker?.onAttempt?.(claim, result, disabled);
      },
    });
  }

  /** `serve`: the delivery worker runs in the background. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.worker.start();
  }

  async close(): Promise<void> {
    this.#started = false;
    await this.worker.stop();
    await this.transport.close();
  }

  wake(): void {
    this.worker.wake();
  }

  async sendTest(accountId: string, endpointId: number): Promise<TestSendResult | null> {
    const now = this.#clock.now();
    const perMinute = this.#options.testEventsPerMinute ?? 10;
    const recent = (this.#testSends.get(accountId) ?? []).filter((t) => t > now - 60_000);
    if (recent.length >= perMinute) {
      const retryAfter = Math.max(1, Math.ceil((recent[0]! + 60_000 - now) / 1000));
      throw new AppError("rate_limited", `At most ${perMinute} test events per minute per account; retry after ${retryAfter} s.`, { retryAfter });
    }
    const deliveryId = await this.#store.createSingleDelivery(accountId, endpointId, TEST_EVENT_TYPE, (eventId, created) => testEventBody(eventId, created, formatId("wh", endpointId)), "test", now);
    if (deliveryId === null) return null;
    recent.push(now);
    this.#testSends.set(accountId, recent);
    const [claim] = await this.#store.claimDue(now, 60_000, 1, deliveryId);
    if (claim) await this.worker.attempt(claim);
    const d = await this.#store.getDelivery(accountId, deliveryId);
    return { eventId: d?.eventId ?? 0, deliveryId, attempt: d?.log[d.log.length - 1] ?? null };
  }
}
