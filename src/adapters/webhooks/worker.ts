import { formatId } from "../../domain/ids.ts";
import { signatureHeader } from "../../domain/webhooks/signature.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { AttemptResult, ClaimedDelivery, WebhookStore } from "../../interfaces/webhooks.ts";
import type { DeliveryTransport } from "./http-client.ts";

export interface WorkerOptions {
  /** Requests in flight at once, over all endpoints. */
  concurrency?: number;
  /** Deliveries claimed per query. */
  batchSize?: number;
  /**
   * How long a claim is held. Longer than an attempt can take (the 10 s deadline plus the
   * write of its outcome), so a live worker never loses its lease; a dead worker's attempts
   * are taken over this long after it died.
   */
  leaseMs?: number;
  /** How often an idle worker looks for due deliveries (new events in this process wake it at once). */
  pollMs?: number;
  /** `User-Agent`: `Service-Webhooks/1 (<info url>)`. */
  userAgent: string;
  onError?: (err: unknown, what: string) => void;
  /** Called after each attempt is recorded (metrics, logs, tests). */
  onAttempt?: (claim: ClaimedDelivery, result: AttemptResult, endpointDisabled: boolean) => void;
}

type ResolvedOptions = Required<Omit<WorkerOptions, "onError" | "onAttempt">> & Pick<WorkerOptions, "onError" | "onAttempt">;

const DEFAULTS = { concurrency: 64, batchSize: 100, leaseMs: 60_000, pollMs: 1_000 };

export const USER_AGENT_PRODUCT = "Service-Webhooks/1";

/** The request headers of spec 6.1 for one attempt; the signature is made now, with `t` of now. */
export function deliveryHeaders(claim: ClaimedDelivery, nowMs: number, userAgent: string): Record<string, string> {
  const t = Math.floor(nowMs / 1000);
  return {
    "content-type": "application/json",
    "user-agent": userAgent,
    "service-event-id": formatId("evt", claim.eventId),
    "service-delivery": claim.deliveryUuid,
    "service-event-type": claim.eventType,
    "service-signature": signatureHeader(claim.secrets, t, claim.body),
  };
}

/**
 * Claims due deliveries from the store, sends them, records the outcomes. Any number of
 * workers (in one process or many) can run against one database: the claim is atomic and
 * leased, so each attempt is sent by one worker; a worker killed at any point leaves its
 * claims to expire and be taken over, the interrupted attempt logged as such. Delivery is
 * therefore at least once: an attempt that reached the receiver just before the kill is
 * sent again, with the same event id and a new Service-Delivery.
 */
export class DeliveryWorker {
  readonly #store: WebhookStore;
  readonly #transport: DeliveryTransport;
  readonly #clock: Clock;
  readonly #opt: ResolvedOptions;
  readonly #inflight = new Set<Promise<void>>();
  #running = false;
  #loop: Promise<void> | null = null;
  #wakeUp: (() => void) | null = null;
  #woken = false;
  #outcomes: { claim: ClaimedDelivery; result: AttemptResult; resolve: (r: { applied: boolean; endpointDisabled: boolean }) => void; reject: (e: unknown) => void }[] = [];
  #recording: Promise<void> | null = null;

  constructor(store: WebhookStore, transport: DeliveryTransport, clock: Clock, options: WorkerOptions) {
    this.#store = store;
    this.#transport = transport;
    this.#clock = clock;
    this.#opt = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) } as ResolvedOptions;
  }

  /**
   * Sends everything due now and waits for the outcomes, until nothing more is due: the
   * deterministic tick of tests and of one-shot runs. Returns the number of attempts made.
   */
  async runDue(): Promise<number> {
    let n = 0;
    for (;;) {
      const claims = await this.#store.claimDue(this.#clock.now(), this.#opt.leaseMs, this.#opt.batchSize);
      if (claims.length === 0) return n;
      n += claims.length;
      await mapLimit(claims, this.#opt.concurrency, (c) => this.attempt(c).then(() => undefined));
    }
  }

  /** Sends one claimed attempt and records it. */
  async attempt(claim: ClaimedDelivery): Promise<{ result: AttemptResult; applied: boolean; endpointDisabled: boolean }> {
    const headers = deliveryHeaders(claim, this.#clock.now(), this.#opt.userAgent);
    const result = await this.#transport.send({ url: claim.url, body: claim.body, headers });
    const { applied, endpointDisabled } = await this.#record(claim, result);
    this.#opt.onAttempt?.(claim, result, endpointDisabled);
    return { result, applied, endpointDisabled };
  }

  /**
   * Group commit: outcomes finishing close together are recorded in one transaction. One
   * transaction per attempt would cap the embedded store at a few hundred deliveries a
   * second; a batch costs little more than one.
   */
  #record(claim: ClaimedDelivery, result: AttemptResult): Promise<{ applied: boolean; endpointDisabled: boolean }> {
    return new Promise((resolve, reject) => {
      this.#outcomes.push({ claim, result, resolve, reject });
      this.#recording ??= this.#recordQueued();
    });
  }

  async #recordQueued(): Promise<void> {
    // Let attempts finishing in this turn of the event loop join the batch.
    await new Promise((r) => setImmediate(r));
    while (this.#outcomes.length > 0) {
      const batch = this.#outcomes.splice(0, 200);
      try {
        const done = await this.#store.completeAttempts(batch, this.#clock.now());
        batch.forEach((b, i) => b.resolve(done[i]!));
      } catch (e) {
        // Nothing of the batch was recorded: its leases expire and the attempts are made again.
        for (const b of batch) b.reject(e);
      }
    }
    this.#recording = null;
  }

  /** Starts the background loop (`serve`). */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** New deliveries are due: look now instead of at the next poll. */
  wake(): void {
    this.#woken = true;
    this.#wakeUp?.();
  }

  /** Stops claiming and waits for the attempts in flight (each ends within its deadline). */
  async stop(): Promise<void> {
    this.#running = false;
    this.wake();
    await this.#loop;
    await Promise.all(this.#inflight);
    await this.#recording;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      const free = this.#opt.concurrency - this.#inflight.size;
      let claimed = 0;
      if (free > 0) {
        try {
          const claims = await this.#store.claimDue(this.#clock.now(), this.#opt.leaseMs, Math.min(free, this.#opt.batchSize));
          claimed = claims.length;
          for (const c of claims) {
            const p: Promise<void> = this.attempt(c)
              .then(() => undefined)
              .catch((e: unknown) => this.#opt.onError?.(e, "recording a delivery attempt"))
              .finally(() => {
                this.#inflight.delete(p);
                // Refill in batches rather than one claim query per finished attempt.
                if (this.#inflight.size <= this.#opt.concurrency / 2) this.#wakeUp?.();
              });
            this.#inflight.add(p);
          }
        } catch (e) {
          this.#opt.onError?.(e, "claiming deliveries");
        }
      }
      // A full batch means more may be due: claim again at once while there is room.
      if (claimed > 0 && claimed === Math.min(free, this.#opt.batchSize) && this.#inflight.size < this.#opt.concurrency) continue;
      await this.#sleep();
    }
  }

  #sleep(): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.#opt.pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wakeUp = () => {
        this.#wakeUp = null;
        this.#woken = false;
        done();
      };
    });
  }
}

async function mapLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
}
