import { alertEventBody, type AlertSubject, vesselLabel } from "../../domain/alerts/payload.ts";
import { formatId } from "../../domain/ids.ts";
import { ZoneIndex } from "../../domain/alerts/zone-index.ts";
import { ZoneTracker } from "../../domain/alerts/zone-tracker.ts";
import { entitlements } from "../../domain/plans.ts";
import type { SourceRegistry } from "../../domain/rights/source.ts";
import type { AccountStore } from "../../ports/accounts.ts";
import type { AlertStore } from "../../ports/alerts.ts";
import type { Clock } from "../../ports/clock.ts";
import type { IngestStation, PositionFix, PositionStore } from "../../ports/positions.ts";
import type { NewAlert, WebhookStore } from "../../ports/webhooks.ts";

export interface ZoneAlertsDeps {
  alerts: AlertStore;
  webhooks: WebhookStore;
  positions: PositionStore;
  accounts: AccountStore;
  sources: SourceRegistry;
  clock: Clock;
  /** Station by id, cached (the ingest station directory). */
  station(id: number): Promise<IngestStation | null>;
  baseUrl: string;
  /** New deliveries were written. */
  onEmitted?: (deliveries: number) => void;
  onError?: (err: unknown) => void;
}

/** Vessels not heard for this long are forgotten; when heard again they set a new baseline. */
const FORGET_AFTER_MS = 6 * 3_600_000;

/**
 * `alert.zone_enter`, evaluated on the ingest path: every committed batch of fixes is
 * tested against the zones through a grid index (zone-index.ts), so a fix costs one map
 * lookup when no zone is near, whatever the number of zones. Entry detection with
 * hysteresis is zone-tracker.ts, one tracker per account: a fix counts for an account
 * only when it comes from that account's own station or a shared one, so another
 * account's private station never raises (or feeds) anyone else's zone alert.
 *
 * Batches are processed one after another, off the ingest writer: the pipeline hands a
 * committed batch over and goes on; alerts are recorded (with their deliveries) a moment
 * later. A process stopped in between loses that moment's entries, which are derived
 * facts and not a delivery already promised.
 */
export class ZoneAlerts {
  readonly #d: ZoneAlertsDeps;
  readonly #index = new ZoneIndex();
  readonly #trackers = new Map<string, ZoneTracker>();
  #queue: Promise<void> = Promise.resolve();
  #loaded: Promise<void> | null = null;
  #lastPrune = 0;

  constructor(deps: ZoneAlertsDeps) {
    this.#d = deps;
  }

  get zones(): number {
    return this.#index.size;
  }

  /** Loads every zone; called once, and again by `reload` after changes. */
  load(): Promise<void> {
    this.#loaded ??= this.#reloadAll();
    return this.#loaded;
  }

  async #reloadAll(): Promise<void> {
    const zones = await this.#d.alerts.allZones();
    for (const z of zones) this.#index.add({ id: z.id, accountId: z.accountId, name: z.name, polygon: z.geometry, bbox: z.bbox });
  }

  /** An account's zones changed (created or deleted here or in another process): re-read them, in order with the batches. */
  accountChanged(accountId: string): Promise<void> {
    return this.#enqueue(async () => {
      await this.load();
      const fresh = await this.#d.alerts.listZones(accountId);
      const keep = new Set(fresh.map((z) => z.id));
      const tracker = this.#trackers.get(accountId);
      for (const id of this.#index.idsOf(accountId)) {
        if (!keep.has(id)) {
          this.#index.remove(id);
          tracker?.dropZone(id);
        }
      }
      for (const z of fresh) this.#index.add({ id: z.id, accountId: z.accountId, name: z.name, polygon: z.geometry, bbox: z.bbox });
      if (!this.#index.hasAccount(accountId)) this.#trackers.delete(accountId);
    });
  }

  /**
   * Re-reads every zone (zones made or deleted through another process's API), in order
   * with the batches. `serve` calls it every minute.
   */
  refresh(): Promise<void> {
    return this.#enqueue(async () => {
      await this.load();
      const fresh = await this.#d.alerts.allZones();
      const keep = new Set(fresh.map((z) => z.id));
      for (const accountId of [...this.#index.accounts()]) {
        for (const id of this.#index.idsOf(accountId)) {
          if (!keep.has(id)) {
            this.#index.remove(id);
            this.#trackers.get(accountId)?.dropZone(id);
          }
        }
      }
      for (const z of fresh) if (!this.#index.get(z.id)) this.#index.add({ id: z.id, accountId: z.accountId, name: z.name, polygon: z.geometry, bbox: z.bbox });
    });
  }

  /** The ingest hook: a batch of fixes is committed. Returns at once. */
  onPositions(fixes: readonly PositionFix[]): void {
    if (fixes.length === 0) return;
    void this.#enqueue(() => this.#process(fixes));
  }

  /** Resolves when every batch handed over so far is evaluated and its alerts recorded. */
  idle(): Promise<void> {
    return this.#queue;
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task).catch((e: unknown) => this.#d.onError?.(e));
    this.#queue = run;
    return run;
  }

  async #process(batch: readonly PositionFix[]): Promise<void> {
    await this.load();
    if (this.#index.size === 0) return;
    const now = this.#d.clock.now();
    // Fixes arrive in receive order; a vessel's state machine wants its own fixes in time order.
    const fixes = [...batch].sort((a, b) => a.time - b.time);
    const stations = new Map<number, IngestStation | null>();
    for (const f of fixes) if (!stations.has(f.stationId)) stations.set(f.stationId, await this.#d.station(f.stationId));

    const hits: { accountId: string; zoneId: number; fix: PositionFix }[] = [];
    for (const f of fixes) {
      const st = stations.get(f.stationId);
      if (!st) continue;
      let viewers: Iterable<string>;
      if (st.shared) viewers = this.#index.accounts();
      else if (this.#index.hasAccount(st.accountId)) viewers = [st.accountId];
      else continue;
      const containing = this.#index.containing(f.lon, f.lat);
      for (const accountId of viewers) {
        let tracker = this.#trackers.get(accountId);
        if (!tracker) {
          tracker = new ZoneTracker();
          this.#trackers.set(accountId, tracker);
        }
        const inside = containing.length === 0 ? NONE : containing.filter((z) => z.accountId === accountId).map((z) => z.id);
        for (const zoneId of tracker.observe(f.mmsi, f.time, inside, now)) hits.push({ accountId, zoneId, fix: f });
      }
    }
    if (now - this.#lastPrune > 600_000) {
      this.#lastPrune = now;
      for (const t of this.#trackers.values()) t.prune(now - FORGET_AFTER_MS);
    }
    if (hits.length > 0) await this.#emit(hits, now);
  }

  async #emit(hits: { accountId: string; zoneId: number; fix: PositionFix }[], now: number): Promise<void> {
    const rights = new Map<string, boolean>();
    const alerts: NewAlert[] = [];
    for (const h of hits) {
      const zone = this.#index.get(h.zoneId);
      if (!zone) continue;
      if (!rights.has(h.accountId)) {
        const a = await this.#d.accounts.getAccount(h.accountId);
        rights.set(h.accountId, a ? entitlements(a.webPlan, a.apiPlan).commercialUse : false);
      }
      // Identity as heard by the station that reported the fix (which this account may see).
      const [identity] = await this.#d.positions.identities([h.fix.stationId], [h.fix.mmsi]);
      const subject: AlertSubject = { kind: "vessel", imo: identity?.imo ?? null, mmsi: h.fix.mmsi, unlocode: null, name: identity?.name ?? null };
      const fix = h.fix;
      const zoneRef = { id: formatId("zone", zone.id), name: zone.name };
      const commercialUse = rights.get(h.accountId)!;
      alerts.push({
        accountId: h.accountId,
        type: "zone_enter",
        occurredAt: fix.time,
        dedupeKey: `zone_enter:${zone.id}:${fix.mmsi}:${fix.time}`,
        detail: { zoneId: zone.id, mmsi: fix.mmsi, stationId: fix.stationId },
        body: ({ alertId, eventId, created }) =>
          alertEventBody(
            {
              alertId,
              eventId,
              type: "zone_enter",
              created,
              occurredAt: fix.time,
              derived: true,
              subject,
              subjectSources: [`station:${fix.stationId}`],
              followId: null,
              zone: zoneRef,
              savedSearch: null,
              factBase: { t: "zone_enter", zoneId: zoneRef.id, zone: zone.name },
              factSources: [],
              text: `${vesselLabel(subject)} entered your zone ${zone.name}.`,
              parts: [
                {
                  field: "position",
                  sources: [`station:${fix.stationId}`],
                  value: { time: new Date(fix.time).toISOString(), lat: fix.lat, lon: fix.lon, sog: fix.sog, cog: fix.cog, source: `station:${fix.stationId}` },
                },
              ],
            },
            { sources: this.#d.sources, rights: { commercialUse }, baseUrl: this.#d.baseUrl },
          ),
      });
    }
    const r = await this.#d.webhooks.emitAlerts(alerts, now);
    if (r.deliveries > 0) this.#d.onEmitted?.(r.deliveries);
  }
}

const NONE: number[] = [];
