import { portCallAlerts, type PortCallAlertsDeps } from "./port-call-alerts.ts";
import { vesselEventAlerts } from "./vessel-event-alerts.ts";
import type { VesselEvent } from "../../domain/derived/vessel-event.ts";
import type { PortCallEvent } from "../../domain/derived/port-call-detector.ts";
import type { Services } from "../../operations/services.ts";
import type { AlertsRuntime, ZoneStateStore } from "../../interfaces/alerts.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { NewAlert, WebhookStore } from "../../interfaces/webhooks.ts";
import type { PositionFix } from "../../interfaces/positions.ts";
import { SanctionsAlerts } from "./sanctions-alerts.ts";
import { allWatchers, followWatchers, watchlistWatchers } from "./vessel-watchers.ts";
import { ZoneAlerts, type ZoneAlertsDeps } from "./zone-alerts.ts";

export interface AlertsOptions {
  /** How often `serve` reads new sanctions events (ms). */
  sanctionsPollMs?: number;
  /** How often `serve` re-reads the zones, for those made or deleted through another process (ms). */
  zoneRefreshMs?: number;
  /** How often `serve` looks for queued fixes no wake-up announced (ms): those of a stopped ingest process. */
  zoneQueuePollMs?: number;
}

/**
 * Zones made through an API process reach the ingest processes' index within this long. Until
 * then their fixes are not queued for a zone they do not know; one read of every zone per
 * interval and process is cheap beside the positions.
 */
const ZONE_REFRESH_MS = 15_000;

interface Log {
  error(obj: object, msg: string): void;
}

/**
 * Alert detection of one process: the zone evaluator on the ingest path (always on), the
 * sanctions outbox reader (started by `serve`), the port-call alerts of derived facts, and
 * what operations ask of them (zone changes). Alerts are recorded with their deliveries;
 * `onEmitted` tells the delivery side (the webhooks runtime) that new ones are due.
 */
export class AlertDetection implements AlertsRuntime {
  zones: ZoneAlerts | null = null;
  sanctions: SanctionsAlerts | null = null;
  readonly #store: WebhookStore;
  readonly #clock: Clock;
  readonly #baseUrl: string;
  readonly #onEmitted: () => void;
  #portCalls: PortCallAlertsDeps | null = null;
  readonly #options: AlertsOptions;
  readonly #log: Log | undefined;
  #sanctionsTimer: NodeJS.Timeout | null = null;
  #zonesTimer: NodeJS.Timeout | null = null;
  #zoneQueueTimer: NodeJS.Timeout | null = null;
  #started = false;

  constructor(store: WebhookStore, clock: Clock, config: { baseUrl: string; onEmitted: () => void; log?: Log; options?: AlertsOptions }) {
    this.#store = store;
    this.#clock = clock;
    this.#baseUrl = config.baseUrl;
    this.#onEmitted = config.onEmitted;
    this.#options = config.options ?? {};
    this.#log = config.log;
  }

  /**
   * Builds the zone evaluator and the sanctions reader over the stores. The composition
   * root feeds it positions (`onPositions`); this runtime reaches into neither the ingest
   * pipeline nor the HTTP app. `zoneState` is the queue the positions store fills (with its
   * `zoneQueue` option) and the saved zone state.
   */
  connect(services: Services, stationById: ZoneAlertsDeps["station"], zoneState: ZoneStateStore): void {
    const common = { alerts: services.alerts, webhooks: this.#store, accounts: services.accounts, sources: services.sources, clock: this.#clock, baseUrl: this.#baseUrl, onEmitted: () => this.#onEmitted() };
    this.zones = new ZoneAlerts({
      ...common,
      positions: services.positions,
      zoneState,
      station: stationById,
      onError: (err) => this.#log?.error({ err }, "zone alerts: queued fixes could not be evaluated (kept for the next try)"),
    });
    // Follows and watchlist members: one alert per account, vessel and version, naming why.
    this.sanctions = new SanctionsAlerts({ ...common, sanctions: services.sanctions, watchers: allWatchers(followWatchers(services.alerts), watchlistWatchers(services.watchlists)) });
    this.#portCalls = { alerts: services.alerts, accounts: services.accounts, positions: services.positions, ports: services.ports, sources: services.sources, station: stationById, baseUrl: this.#baseUrl };
    // Fixes queued before a crash or stop are evaluated now, from the saved state.
    void this.zones.poll();
  }

  /** The `alert.port_call` alerts of derived port-call events; recorded by the derived-facts commit. */
  portCallAlerts(events: readonly PortCallEvent[]): Promise<NewAlert[]> {
    return this.#portCalls ? portCallAlerts(this.#portCalls, events) : Promise.resolve([]);
  }

  /** The behaviour-event alerts (encounter, loitering, ais_gap, identity_change); recorded with the events. */
  vesselEventAlerts(events: readonly VesselEvent[]): Promise<NewAlert[]> {
    return this.#portCalls ? vesselEventAlerts(this.#portCalls, events) : Promise.resolve([]);
  }

  /** Positions just written (and queued) by ingest: a wake-up. It runs inside the pipeline's write: nothing thrown here may look like a failed write. */
  onPositions(fixes: readonly PositionFix[]): void {
    try {
      this.zones?.onPositions(fixes);
    } catch (err) {
      this.#log?.error({ err }, "zone alerts: a batch could not be queued");
    }
  }

  /** `serve`: the sanctions reader runs in the background, and the zone upkeep (startZones). */
  start(): void {
    if (this.#started) return;
    this.#started = true;
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
    await this.zones?.idle();
  }

  zonesChanged(accountId: string): void {
    void this.zones?.accountChanged(accountId);
  }
}
