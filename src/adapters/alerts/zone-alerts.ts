import { type AlertSubject, vesselLabel } from "../../domain/alerts/payload.ts";
import { formatId } from "../../domain/ids.ts";
import { ZoneIndex } from "../../domain/alerts/zone-index.ts";
import { ZoneTracker } from "../../domain/alerts/zone-tracker.ts";
import type { SourceRegistry } from "../../domain/rights/source.ts";
import type { AccountStore } from "../../interfaces/accounts.ts";
import type { AlertStore, ZonePresence, ZoneStateStore } from "../../interfaces/alerts.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { IngestStation, PositionFix, PositionStore } from "../../interfaces/positions.ts";
import type { NewAlert, WebhookStore } from "../../interfaces/webhooks.ts";
import { SerialTasks } from "../shared/serial-tasks.ts";
import { commercialUse, newAlert } from "./new-alert.ts";

export interface ZoneAlertsDeps {
  alerts: AlertStore;
  webhooks: WebhookStore;
  positions: PositionStore;
  /** The queue of committed fixes and the saved vessel states. */
  zoneState: ZoneStateStore;
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
/** Queued fixes evaluated and committed together (one ingest batch holds at most 5,000). */
const PAGE = 5_000;

/**
 * `alert.zone_enter`. Ingest queues every committed batch of fixes in the same transaction
 * as the positions (`zone_feed`); this evaluator drains the queue in id order, tests each
 * fix against the zones through a grid index (zone-index.ts), so a fix costs one map
 * lookup when no zone is near, whatever the number of zones. Entry detection with
 * hysteresis is zone-tracker.ts, one tracker per account: a fix counts for an account
 * only when it comes from that account's own station or a shared one, so another
 * account's private station never raises (or feeds) anyone else's zone alert.
 *
 * A page's alerts (with their deliveries), the vessel states it changed and its removal
 * from the queue are one transaction. A process stopped after ingest acknowledged a fix
 * but before evaluating it leaves the fix queued, and the next start (or another process)
 * evaluates it from the saved state; an alert is never lost nor raised twice (its dedupe
 * key is zone, vessel and fix time). The trackers in memory are a cache of the saved
 * state: after a failed or refused commit they are read again.
 */
export class ZoneAlerts {
  readonly #d: ZoneAlertsDeps;
  readonly #index = new ZoneIndex();
  readonly #trackers = new Map<string, ZoneTracker>();
  /** Batches, zone re-reads and drains run one at a time, in order; wake-ups while a drain waits to start join it. */
  readonly #tasks: SerialTasks;
  #loaded: Promise<void> | null = null;
  /** The trackers hold the saved state (false at start and after a commit failed or was refused). */
  #stateLoaded = false;
  /** The saved state's version the trackers hold (stateVersion()). */
  #stateVersion = 0;
  #lastPrune = 0;
  #zonesRead = false;

  constructor(deps: ZoneAlertsDeps) {
    this.#d = deps;
    this.#tasks = new SerialTasks((e) => deps.onError?.(e));
  }

  get zones(): number {
    return this.#index.size;
  }

  /**
   * Whether ingest must queue its fixes for this evaluator: until the zones are read, and
   * while any exists. A zone made through another process counts here once `refresh` has
   * read it (within a minute), as it did when fixes were evaluated straight from ingest.
   */
  get wantsFixes(): boolean {
    return !this.#zonesRead || this.#index.size > 0;
  }

  /** Loads every zone; called once, and again by `reload` after changes. */
  load(): Promise<void> {
    this.#loaded ??= this.#reloadAll();
    return this.#loaded;
  }

  async #reloadAll(): Promise<void> {
    const zones = await this.#d.alerts.allZones();
    for (const z of zones) this.#index.add({ id: z.id, accountId: z.accountId, name: z.name, polygon: z.geometry, bbox: z.bbox });
    this.#zonesRead = true;
  }

  /** An account's zones changed (created or deleted here or in another process): re-read them, in order with the batches. */
  accountChanged(accountId: string): Promise<void> {
    return this.#tasks.run(async () => {
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
    return this.#tasks.run(async () => {
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

  /** The ingest hook: a batch of fixes is committed (and queued). Returns at once. */
  onPositions(fixes: readonly PositionFix[]): void {
    if (fixes.length === 0) return;
    void this.poll();
  }

  /** Evaluates every queued fix; wake-ups while one waits to start share it. */
  poll(): Promise<void> {
    return this.#tasks.coalesced(() => this.#drain());
  }

  /** Resolves when every batch handed over so far is evaluated and its alerts recorded. */
  idle(): Promise<void> {
    return this.#tasks.idle();
  }


  async #drain(): Promise<void> {
    await this.load();
    for (;;) {
      if (!this.#stateLoaded) await this.#loadState();
      const page = await this.#d.zoneState.queued(PAGE);
      if (page.length === 0) return;
      const now = this.#d.clock.now();
      let r: { consumed: boolean; deliveries: number };
      try {
        const hits = await this.#evaluate(page.map((q) => q.fix), now);
        const alerts = await this.#alerts(hits);
        const save: ZonePresence[] = [];
        const forget: { accountId: string; mmsi: number }[] = [];
        for (const [accountId, tracker] of this.#trackers) {
          const c = tracker.changes();
          for (const v of c.save) save.push({ accountId, ...v });
          for (const mmsi of c.forget) forget.push({ accountId, mmsi });
        }
        r = await this.#d.zoneState.commit({ first: page[0]!.id, last: page[page.length - 1]!.id, count: page.length, alerts, save, forget, version: this.#stateVersion }, now);
      } catch (e) {
        this.#stateLoaded = false;
        throw e;
      }
      // Refused: the page changed under this evaluation; read state and queue again.
      if (!r.consumed) this.#stateLoaded = false;
      else this.#stateVersion++;
      if (r.deliveries > 0) this.#d.onEmitted?.(r.deliveries);
    }
  }

  /** Replaces the trackers by the saved state, keeping only zones that still exist. */
  async #loadState(): Promise<void> {
    // The version first: a commit landing between the two reads makes ours refused, never stale.
    this.#stateVersion = await this.#d.zoneState.stateVersion();
    const saved = await this.#d.zoneState.presence();
    this.#trackers.clear();
    for (const p of saved) {
      const zones = p.zones?.filter(([id]) => this.#index.get(id)?.accountId === p.accountId) ?? null;
      this.#tracker(p.accountId).restore({ mmsi: p.mmsi, lastTime: p.lastTime, lastSeen: p.lastSeen, zones });
    }
    this.#stateLoaded = true;
  }

  #tracker(accountId: string): ZoneTracker {
    let tracker = this.#trackers.get(accountId);
    if (!tracker) {
      tracker = new ZoneTracker();
      this.#trackers.set(accountId, tracker);
    }
    return tracker;
  }

  async #evaluate(batch: readonly PositionFix[], now: number): Promise<Hit[]> {
    if (now - this.#lastPrune > 600_000) {
      this.#lastPrune = now;
      for (const t of this.#trackers.values()) t.prune(now - FORGET_AFTER_MS);
    }
    if (this.#index.size === 0) return [];
    // Fixes arrive in receive order; a vessel's state machine wants its own fixes in time order.
    const fixes = [...batch].sort((a, b) => a.time - b.time);
    const stations = new Map<number, IngestStation | null>();
    for (const f of fixes) if (!stations.has(f.stationId)) stations.set(f.stationId, await this.#d.station(f.stationId));

    const hits: Hit[] = [];
    for (const f of fixes) {
      const st = stations.get(f.stationId);
      if (!st) continue;
      let viewers: Iterable<string>;
      if (st.shared) viewers = this.#index.accounts();
      else if (this.#index.hasAccount(st.accountId)) viewers = [st.accountId];
      else continue;
      const containing = this.#index.containing(f.lon, f.lat);
      for (const accountId of viewers) {
        const inside = containing.length === 0 ? NONE : containing.filter((z) => z.accountId === accountId).map((z) => z.id);
        for (const zoneId of this.#tracker(accountId).observe(f.mmsi, f.time, inside, now)) hits.push({ accountId, zoneId, fix: f });
      }
    }
    return hits;
  }

  async #alerts(hits: readonly Hit[]): Promise<NewAlert[]> {
    const rights = new Map<string, boolean>();
    const alerts: NewAlert[] = [];
    for (const h of hits) {
      const zone = this.#index.get(h.zoneId);
      if (!zone) continue;
      if (!rights.has(h.accountId)) rights.set(h.accountId, await commercialUse(this.#d.accounts, h.accountId));
      // Identity as heard by the station that reported the fix (which this account may see).
      const [identity] = await this.#d.positions.identities([h.fix.stationId], [h.fix.mmsi]);
      const subject: AlertSubject = { kind: "vessel", imo: identity?.imo ?? null, mmsi: h.fix.mmsi, unlocode: null, name: identity?.name ?? null };
      const fix = h.fix;
      const zoneRef = { id: formatId("zone", zone.id), name: zone.name };
      alerts.push(
        newAlert(
          { accountId: h.accountId, type: "zone_enter", occurredAt: fix.time, dedupeKey: `zone_enter:${zone.id}:${fix.mmsi}:${fix.time}`, detail: { zoneId: zone.id, mmsi: fix.mmsi, stationId: fix.stationId } },
          {
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
          { sources: this.#d.sources, rights: { commercialUse: rights.get(h.accountId)!, accountId: h.accountId }, baseUrl: this.#d.baseUrl },
        ),
      );
    }
    return alerts;
  }
}

interface Hit {
  accountId: string;
  zoneId: number;
  fix: PositionFix;
}

const NONE: number[] = [];
