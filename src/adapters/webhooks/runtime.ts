import { portCallAlerts, type PortCallAlertsDeps } from "./port-call-alerts.ts";
import type { PortCallEvent } from "../../domain/derived/port-call-detector.ts";
import { testEventBody, TEST_EVENT_TYPE } from "../../domain/alerts/payload.ts";
import { AppError } from "../../domain/errors.ts";
import { formatId } from "../../domain/ids.ts";
import type { Services } from "../../operations/services.ts";
import type { AlertsRuntime, ZoneStateStore } from "../../ports/alerts.ts";
import type { Clock } from "../../ports/clock.ts";
import type { NewAlert, TestSendResult, WebhookDispatch, WebhookStore } from "../../ports/webhooks.ts";
import type { PositionFix } from "../../ports/positions.ts";
import { DeliveryTransport, type TransportOptions } from "./http-client.ts";
import { SanctionsAlerts } from "./sanctions-alerts.ts";
import { WebhookMetrics } from "./metrics.ts";
import { DeliveryWorker, USER_AGENT_PRODUCT, type WorkerOptions } from "./worker.ts";
import { ZoneAlerts, type ZoneAlertsDeps } from "./zone-alerts.ts";

export interface WebhooksOptions {
  /** Seams of the HTTP client: resolver, address policy, trust anchors, deadline. Production uses the defaults. */
  transport?: TransportOptions;
  worker?: Partial<Omit<WorkerOptions, "userAgent">>;
  /** How often `serve` reads new sanctions events (ms). */
  sanctionsPollMs?: number;
  /** How often `serve` re-reads the zones, for those made or deleted through another process (ms). */
  zoneRefreshMs?: number;
  /** How often `serve` looks for queued fixes no wake-up announced (ms): those of a stopped ingest process. */
  zoneQueuePollMs?: number;
  /** "Send test event" per account and minute: it makes the service send a request to a URL of the caller's choosing. */
  testEventsPerMinute?: number;
}

/**
 * Zones made through an API process reach the ingest processes' index within this long. Until
 * then their fixes are not queued for a zone they do not know; one read of every zone per
 * interval and process is cheap beside the positions.
 */
const ZONE_REFRESH_MS = 15_000;

interface Log {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Alerts and webhooks of one process: the zone evaluator on the ingest path (always on),
 * the sanctions outbox reader and the delivery worker (started by `serve`), and what
 * operations ask of them (test events, wake-ups, zone changes).
 */
export class WebhooksRuntime implements WebhookDispatch, AlertsRuntime {
  readonly transport: DeliveryTransport;
  readonly worker: DeliveryWorker;
  readonly userAgent: string;
  /** Delivery counters of this process, served on its /metrics. */
  readonly metrics = new WebhookMetrics();
  zones: ZoneAlerts | null = null;
  sanctions: SanctionsAlerts | null = null;
  readonly #store: WebhookStore;
  readonly #clock: Clock;
  readonly #baseUrl: string;
  #portCalls: PortCallAlertsDeps | null = null;
  readonly #options: WebhooksOptions;
  readonly #log: Log | undefined;
  readonly #testSends = new Map<string, number[]>();
  #sanctionsTimer: NodeJS.Timeout | null = null;
  #zonesTimer: NodeJS.Timeout | null = null;
  #zoneQueueTimer: NodeJS.Timeout | null = null;
  #started = false;

  constructor(store: WebhookStore, clock: Clock, config: { baseUrl: string; log?: Log; options?: WebhooksOptions }) {
    this.#store = store;
    this.#clock = clock;
    this.#baseUrl = config.baseUrl;
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

  /**
   * Builds the zone evaluator and the sanctions reader over the stores. The composition
   * root feeds it positions (`onPositions`) and serves the docs page; this runtime
   * reaches into neither the ingest pipeline nor the HTTP app. `zoneState` is the queue the
   * positions store fills (with its `zoneQueue` option) and the saved zone state.
   */
  connectAlerts(services: Services, stationById: ZoneAlertsDeps["station"], zoneState: ZoneStateStore): void {
    const common = { alerts: services.alerts, webhooks: this.#store, accounts: services.accounts, sources: services.sources, clock: this.#clock, baseUrl: this.#baseUrl, onEmitted: () => this.wake() };
    this.zones = new ZoneAlerts({
      ...common,
      positions: services.positions,
      zoneState,
      station: stationById,
      onError: (err) => this.#log?.error({ err }, "zone alerts: queued fixes could not be evaluated (kept for the next try)"),
    });
    this.sanctions = new SanctionsAlerts({ ...common, sanctions: services.sanctions });
    this.#portCalls = { alerts: services.alerts, accounts: services.accounts, positions: services.positions, ports: services.ports, sources: services.sources, station: stationById, baseUrl: this.#baseUrl };
    // Fixes queued before a crash or stop are evaluated now, from the saved state.
    void this.zones.poll();
  }

  /** The `alert.port_call` alerts of derived port-call events; recorded by the derived-facts commit. */
  portCallAlerts(events: readonly PortCallEvent[]): Promise<NewAlert[]> {
    return this.#portCalls ? portCallAlerts(this.#portCalls, events) : Promise.resolve([]);
  }

  /** Positions just written (and queued) by ingest: a wake-up. It runs inside the pipeline's write: nothing thrown here may look like a failed write. */
  onPositions(fixes: readonly PositionFix[]): void {
    try {
      this.zones?.onPositions(fixes);
    } catch (err) {
      this.#log?.error({ err }, "zone alerts: a batch could not be queued");
    }
  }

  /** `serve`: the delivery worker and the sanctions reader run in the background, and the zone upkeep (startZones). */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.worker.start();
    const every = this.#options.sanctionsPollMs ?? 30_000;
    const tick = () => {
      this.sanctions
        ?.poll()
        .catch((err: unknown) => this.#log?.error({ err }, "sanctions alerts: reading new events failed"))
        .finally(() => {
          if (this.#started) this.#sanctionsTimer = setTimeout(tick, every);
        });
    };
    tick();
    this.startZones();
  }

  /**
   * Zone upkeep of a process that writes positions or evaluates them (`serve --role ingest`
   * and the workers): zones made or deleted through another process reach this one's index
   * within `zoneRefreshMs`, and fixes queued by an ingest process that stopped before
   * evaluating them are evaluated here.
   */
  startZones(): void {
    if (this.#zonesTimer) return;
    this.#zonesTimer = setInterval(() => void this.zones?.refresh(), this.#options.zoneRefreshMs ?? ZONE_REFRESH_MS);
    this.#zonesTimer.unref();
    this.#zoneQueueTimer = setInterval(() => void this.zones?.poll(), this.#options.zoneQueuePollMs ?? 10_000);
    this.#zoneQueueTimer.unref();
  }

  async close(): Promise<void> {
    this.#started = false;
    if (this.#sanctionsTimer) clearTimeout(this.#sanctionsTimer);
    if (this.#zonesTimer) clearInterval(this.#zonesTimer);
    if (this.#zoneQueueTimer) clearInterval(this.#zoneQueueTimer);
    await this.worker.stop();
    await this.zones?.idle();
    await this.transport.close();
  }

  wake(): void {
    this.worker.wake();
  }

  zonesChanged(accountId: string): void {
    void this.zones?.accountChanged(accountId);
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
