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

/** An attempt's outcome waiting to be recorded, and who waits for it. */
interface PendingOutcome {
  claim: ClaimedDelivery;
  result: AttemptResult;
  endedAt: number;
  resolve: (r: { applied: boolean; endpointDisabled: boolean }) => void;
  reject: (e: unknown) => void;
}

/** Outcomes recorded per transaction at most. */
const RECORD_BATCH = 500;
/** How long the recorder waits for more outcomes to join a small batch, at most. */
const GATHER_MS = 4;
/** Claims on their way to the store at once, at most (see `#claimRoom`). */
const CLAIMS_IN_FLIGHT = 2;

/**
 * Claims due deliveries from the store, sends them, records the outcomes. Any number of
 * workers (in one process or many) can run against one database: the claim is atomic and
 * leased, so each attempt is sent by one worker; a worker killed at any point leaves its
 * claims to expire and be taken over, the interrupted attempt logged as such. Delivery is
 * therefore at least once: an attempt that reached the receiver just before the kill is
 * sent again, with the same event id and a new Service-Delivery.
 *
 * Under `start()` three stages run side by side, so that none waits for another's round
 * trip to the database: the claimer keeps a queue of claimed attempts ahead of the senders,
 * the senders (`concurrency` of them) take from it, and the recorder writes finished
 * outcomes in batches. A sender is free again as soon as its answer is in, not when its
 * outcome is written; the claimer pauses while outcomes wait to be written, so a slow
 * database slows claiming instead of piling up leases it cannot honour.
 */
export class DeliveryWorker {
  readonly #store: WebhookStore;
  readonly #transport: DeliveryTransport;
  readonly #clock: Clock;
  readonly #opt: ResolvedOptions;
  /** Claimed and not yet sent, oldest first. */
  #ready: ClaimedDelivery[] = [];
  /** Requests on the wire, each until its outcome is queued for recording. */
  readonly #sending = new Set<Promise<void>>();
  #running = false;
  #loop: Promise<void> | null = null;
  #wakeUp: (() => void) | null = null;
  #woken = false;
  /** The last claim filled what it asked for, so more may be due: a freed slot is worth a claim at once. */
  #moreDue = false;
  /** Claims on their way to the store, and how many attempts they asked for together. */
  readonly #claims = new Set<Promise<void>>();
  #claiming = 0;
  #outcomes: PendingOutcome[] = [];
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
    const result = await this.#send(claim);
    const { applied, endpointDisabled } = await this.#record(claim, result, this.#clock.now());
    this.#opt.onAttempt?.(claim, result, endpointDisabled);
    return { result, applied, endpointDisabled };
  }

  #send(claim: ClaimedDelivery): Promise<AttemptResult> {
    const headers = deliveryHeaders(claim, this.#clock.now(), this.#opt.userAgent);
    return this.#transport.send({ url: claim.url, body: claim.body, headers });
  }

  /**
   * Group commit: outcomes finishing close together are recorded in one transaction. One
   * transaction per attempt would cap the embedded store at a few hundred deliveries a
   * second; a batch costs little more than one.
   */
  #record(claim: ClaimedDelivery, result: AttemptResult, endedAt: number): Promise<{ applied: boolean; endpointDisabled: boolean }> {
    return new Promise((resolve, reject) => {
      this.#outcomes.push({ claim, result, endedAt, resolve, reject });
      this.#recording ??= this.#recordQueued();
    });
  }

  async #recordQueued(): Promise<void> {
    // Let attempts finishing in this turn of the event loop join the batch.
    await new Promise((r) => setImmediate(r));
    // While requests are on the wire, give their answers a few milliseconds to join too: with
    // the senders running on, outcomes arrive a few at a time, and each batch is a transaction.
    for (let waited = 0; waited < GATHER_MS && this.#sending.size > 0 && this.#outcomes.length < this.#opt.concurrency / 2; waited++) {
      await new Promise((r) => setTimeout(r, 1));
    }
    while (this.#outcomes.length > 0) {
      const batch = this.#outcomes.splice(0, RECORD_BATCH);
      try {
        const done = await this.#store.completeAttempts(batch, this.#clock.now());
        batch.forEach((b, i) => b.resolve(done[i]!));
      } catch (e) {
        // Nothing of the batch was recorded: its leases expire and the attempts are made again.
        for (const b of batch) b.reject(e);
      }
      // Written: the claimer may have paused for this.
      if (this.#moreDue) this.#wakeUp?.();
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

  /**
   * Stops claiming, hands back what was claimed and not yet sent (as if never claimed: no
   * attempt is logged for it), and waits for the attempts in flight (each ends within its
   * deadline) and for their outcomes to be written.
   */
  async stop(): Promise<void> {
    this.#running = false;
    this.wake();
    await this.#loop;
    // A claim still on its way lands in the queue below and is handed back with it.
    while (this.#claims.size > 0) await Promise.all(this.#claims);
    const unsent = this.#ready.splice(0);
    if (unsent.length > 0) await this.#store.releaseClaims(unsent, this.#clock.now()).catch((e: unknown) => this.#opt.onError?.(e, "handing back unsent claims"));
    while (this.#sending.size > 0) await Promise.all(this.#sending);
    while (this.#recording) await this.#recording;
  }

  /**
   * How many to claim now. The queue of claimed attempts (counting what claims on their way
   * asked for) is refilled once it falls to one round of the senders, by a whole batch, up to
   * three rounds. A claim is a round trip and a transaction, 9 to 36 ms on average on PostgreSQL under
   * bench/webhooks.ts on a loaded machine; refilled at half a round (as before), the queue ran
   * dry meanwhile and 21 to 53 of 64 senders were busy on average. Three rounds at most, so an
   * attempt waits at most three deadlines for a sender (30 s) before its own (10 s), inside
   * its 60 s lease. Up to CLAIMS_IN_FLIGHT claims run at once when a batch is smaller than a
   * round, so that one claim's round trip does not leave the queue short. Few claims still
   * matter: each is a transaction, and on SQLite claims of half a round cost 333-353 ms of CPU
   * per 1,000 deliveries against 254-320 with whole batches. Nothing is claimed while four
   * rounds of the senders' outcomes wait to be written: a write costs about the same for
   * 50 outcomes as for 250 (on PostgreSQL it is mostly round trips and the commit), so the
   * recorder keeps up by writing larger batches, and only a database that cannot keep up
   * at all holds claiming back.
   */
  #claimRoom(): number {
    const { concurrency, batchSize } = this.#opt;
    if (this.#claims.size >= CLAIMS_IN_FLIGHT) return 0;
    const queued = this.#ready.length + this.#claiming;
    if (queued > concurrency) return 0;
    if (this.#outcomes.length >= Math.max(batchSize, 4 * concurrency)) return 0;
    return Math.min(batchSize, 3 * concurrency - queued);
  }

  /**
   * Claims while there is room: after a poll interval or a wake-up, and again at once while
   * claims come back full (more may be due). A claim runs in the background, so a second one
   * can start while the first is on its way; the store's claim is atomic and leased (rows
   * another claim holds are passed over or no longer due), so two never take the same attempt.
   */
  async #run(): Promise<void> {
    let look = true;
    while (this.#running) {
      const room = this.#claimRoom();
      if (room > 0 && (look || this.#moreDue)) {
        look = false;
        this.#claim(room);
        continue;
      }
      await this.#sleep();
      look = true;
    }
  }

  #claim(room: number): void {
    this.#claiming += room;
    const p: Promise<void> = this.#store
      .claimDue(this.#clock.now(), this.#opt.leaseMs, room)
      .then(
        (claims) => {
          this.#ready.push(...claims);
          this.#moreDue = claims.length === room;
        },
        (e: unknown) => {
          this.#moreDue = false;
          this.#opt.onError?.(e, "claiming deliveries");
        },
      )
      .finally(() => {
        this.#claiming -= room;
        this.#claims.delete(p);
        this.#fill();
        if (this.#moreDue) this.#wakeUp?.();
      });
    this.#claims.add(p);
  }

  /** Starts claimed attempts while senders are free. */
  #fill(): void {
    while (this.#running && this.#sending.size < this.#opt.concurrency && this.#ready.length > 0) {
      const claim = this.#ready.shift()!;
      const p: Promise<void> = this.#send(claim)
        .then((result) => {
          // The sender is free once the answer is in; the outcome is written with the next batch.
          this.#record(claim, result, this.#clock.now())
            .then(({ endpointDisabled }) => this.#opt.onAttempt?.(claim, result, endpointDisabled))
            .catch((e: unknown) => this.#opt.onError?.(e, "recording a delivery attempt"));
        })
        .catch((e: unknown) => this.#opt.onError?.(e, "sending a delivery attempt"))
        .finally(() => {
          this.#sending.delete(p);
          this.#fill();
          if (this.#moreDue && this.#claimRoom() > 0) this.#wakeUp?.();
        });
      this.#sending.add(p);
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
