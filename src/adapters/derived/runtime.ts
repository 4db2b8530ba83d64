import { type DeriveContext, deriveFix, derivedStateTime, newVesselDerivedState, type VesselDerivedState } from "../../domain/derived/derive.ts";
import { encountersBetween } from "../../domain/derived/encounter-detector.ts";
import { cellsAround, gapHours, gapId, gapOf } from "../../domain/derived/gap-detector.ts";
import type { ShoreIndex } from "../../domain/derived/shore.ts";
import type { Silence, SlowEpisode } from "../../domain/derived/slow-episode.ts";
import type { VesselEvent } from "../../domain/derived/vessel-event.ts";
import type { DerivedFix } from "../../domain/derived/fix.ts";
import { PortAreaIndex, portArea } from "../../domain/derived/port-areas.ts";
import type { PortCall, PortCallEvent } from "../../domain/derived/port-call-detector.ts";
import type { GateCrossing, GateSet } from "../../domain/derived/transit-detector.ts";
import type { BehaviourLookups, DerivedCommit, DerivedStore, StoredEpisode } from "../../interfaces/derived.ts";
import type { NewAlert } from "../../interfaces/webhooks.ts";
import { SerialTasks } from "../shared/serial-tasks.ts";
import { judgeOpenGaps } from "./open-gaps.ts";

/** Queued fixes evaluated and committed together (one ingest batch holds at most 5,000). */
const PAGE = 5_000;
/** How long fixes gather after a batch before they are derived. */
const GATHER_MS = 200;
/** Detector states kept in memory between pages (the rest are read back from the store). */
const STATE_CACHE_MAX = 50_000;
/** How soon a drain that found the port areas not loaded yet looks again. */
const NOT_READY_RETRY_MS = 1_000;
/**
 * How often live derivation looks for AIS gaps that opened: a gap is news once its vessel has
 * been silent for hours, so a few minutes late costs nothing and the sweep stays rare.
 */
export const OPEN_GAP_SWEEP_MS = 5 * 60_000;

export interface DerivedFactsDeps {
  store: DerivedStore;
  gates: GateSet;
  /** Coastline for loitering's distance from shore. */
  shore: ShoreIndex;
  /** Silence that makes a candidate AIS gap (AIS_GAP_HOURS). */
  minSilenceMs: number;
  /**
   * The version of the port areas' data (when the ports dataset was last imported, by any
   * process), or null while it has never been imported. Read before every drain: a fix judged
   * against missing ports would be "at sea" and its port call lost for good.
   */
  portsVersion(): Promise<number | null>;
  now(): number;
  /** Alerts the page's port-call and behaviour events raise (followed vessels, ports and zones); none when absent. */
  alertsFor?: (calls: readonly PortCallEvent[], events: readonly VesselEvent[]) => Promise<NewAlert[]>;
  onError?: (err: unknown) => void;
  onEmitted?: (deliveries: number) => void;
}

/**
 * Live derivation: drains the queue ingest fills in its transaction (`derived_feed`),
 * applies each fix to its (station, vessel) detectors, and records the page's calls,
 * crossings, coverage, alerts and states with the queue deletion in one transaction,
 * as the zone evaluator does (docs/webhooks.md): a crash never loses a fact or an alert
 * nor raises one twice. Within a page each vessel's fixes are applied in time order.
 */
export class DerivedFacts {
  readonly #d: DerivedFactsDeps;
  #ports: Promise<PortAreaIndex> | null = null;
  #portsVersion: number | null = null;
  #retry: ReturnType<typeof setTimeout> | null = null;
  readonly #states = new Map<string, VesselDerivedState>();
  /** Drains run one at a time; wake-ups while one waits to start join it. */
  readonly #tasks: SerialTasks;
  #wake: ReturnType<typeof setTimeout> | null = null;
  /** Looks for open gaps now and then, heard or not: a gap opens by silence, not by a fix. */
  readonly #sweeps: ReturnType<typeof setInterval>;

  constructor(deps: DerivedFactsDeps) {
    this.#d = deps;
    this.#tasks = new SerialTasks((e) => deps.onError?.(e));
    this.#sweeps = setInterval(() => void this.sweepOpenGaps(), OPEN_GAP_SWEEP_MS);
    this.#sweeps.unref();
  }

  /** The port areas, read from the reference store and kept until the ports dataset's version changes. */
  ports(): Promise<PortAreaIndex> {
    this.#ports ??= this.#d.store.portPlaces().then((places) => new PortAreaIndex(places.map(portArea)));
    return this.#ports;
  }

  /** What apply() needs besides the fixes, with these port areas. */
  context(ports: PortAreaIndex): ApplyContext {
    return { ports, gates: this.#d.gates, shore: this.#d.shore, minSilenceMs: this.#d.minSilenceMs, lookups: this.#d.store };
  }

  /**
   * The port areas of the data as it is now, or null while the ports were never imported.
   * One indexed read per drain tells whether any process imported since the index was built.
   */
  async #currentPorts(): Promise<PortAreaIndex | null> {
    const version = await this.#d.portsVersion();
    if (version === null) return null;
    if (version !== this.#portsVersion) {
      this.#ports = null;
      this.#portsVersion = version;
    }
    return this.ports();
  }

  /**
   * Ingest committed fixes: derive them shortly. Waiting a moment lets one page gather the
   * batches of several connections, so each vessel's state is written once for several of
   * its fixes instead of once per batch (the state write is most of derivation's cost).
   */
  onPositions(count: number): void {
    if (count === 0 || this.#wake) return;
    this.#wake = setTimeout(() => {
      this.#wake = null;
      void this.poll();
    }, GATHER_MS);
  }

  poll(): Promise<void> {
    return this.#tasks.coalesced(() => this.#drain());
  }

  /** Resolves when every fix handed over so far is derived. */
  idle(): Promise<void> {
    if (this.#wake) {
      clearTimeout(this.#wake);
      this.#wake = null;
      return this.poll();
    }
    return this.#tasks.idle();
  }


  /** Stops the retry a drain without port data scheduled (the queue stays for the next start). */
  close(): void {
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
    clearInterval(this.#sweeps);
  }

  async #drain(): Promise<void> {
    // Identity changes need no reference data: their alerts are raised even before the ports are in.
    await this.#alertIdentityChanges();
    const ports = await this.#currentPorts();
    if (ports === null) {
      // Not one queue row is consumed without the ports: the import (here or in another process) is awaited.
      this.#retry ??= setTimeout(() => {
        this.#retry = null;
        void this.poll();
      }, NOT_READY_RETRY_MS);
      this.#retry.unref();
      return;
    }
    for (;;) {
      const page = await this.#d.store.queued(PAGE);
      if (page.length === 0) break;
      try {
        const applied = await apply(
          page.map((q) => q.fix),
          (keys) => this.#load(keys),
          this.context(ports),
        );
        const alerts = this.#d.alertsFor ? await this.#d.alertsFor(applied.events, applied.commit.events) : [];
        const r = await this.#d.store.commit({ first: page[0]!.id, last: page[page.length - 1]!.id, count: page.length, ...applied.commit, alerts }, this.#d.now());
        if (!r.consumed) this.#states.clear();
        else for (const s of applied.commit.states) this.#cache(`${s.stationId}:${s.mmsi}`, s.state);
        if (r.deliveries > 0) this.#d.onEmitted?.(r.deliveries);
      } catch (e) {
        this.#states.clear();
        throw e;
      }
    }
  }

  /**
   * Records the AIS gaps opened since the last sweep, with their alerts, in one transaction,
   * after the fixes queued so far are derived (a vessel heard again has no open gap). Refused
   * when ingest moved one of their vessels on meanwhile: the next sweep judges again.
   */
  sweepOpenGaps(): Promise<void> {
    return this.#tasks.run(async () => {
      await this.#drain();
      const now = this.#d.now();
      const judged = await judgeOpenGaps(this.#d.store, now, this.#d.minSilenceMs);
      if (judged.events.length === 0) return;
      const alerts = this.#d.alertsFor ? await this.#d.alertsFor([], judged.events) : [];
      const r = await this.#d.store.commit({ ...emptyDerivedCommit(), basis: judged.basis, events: judged.events, alerts }, now);
      if (r.deliveries > 0) this.#d.onEmitted?.(r.deliveries);
    });
  }

  /**
   * The alerts of identity changes ingest recorded (and queued in its transaction): raised and
   * taken off the queue in one transaction, as the page's own alerts are.
   */
  async #alertIdentityChanges(): Promise<void> {
    for (;;) {
      const events = await this.#d.store.queuedIdentityEvents(PAGE);
      if (events.length === 0) return;
      const alerts = this.#d.alertsFor ? await this.#d.alertsFor([], events) : [];
      const r = await this.#d.store.commitIdentityAlerts(
        events.map((e) => e.id),
        alerts,
        this.#d.now(),
      );
      if (r.deliveries > 0) this.#d.onEmitted?.(r.deliveries);
    }
  }

  /** States of these vessels: from memory, else from the store, else new. Copies, so a refused commit leaves the cache as it was. */
  async #load(keys: readonly { stationId: number; mmsi: number }[]): Promise<Map<string, VesselDerivedState>> {
    const out = new Map<string, VesselDerivedState>();
    const missing: { stationId: number; mmsi: number }[] = [];
    for (const k of keys) {
      const cached = this.#states.get(`${k.stationId}:${k.mmsi}`);
      if (cached) out.set(`${k.stationId}:${k.mmsi}`, structuredClone(cached));
      else missing.push(k);
    }
    if (missing.length > 0) for (const [key, s] of await this.#d.store.states(missing)) out.set(key, s);
    return out;
  }

  #cache(key: string, state: VesselDerivedState): void {
    if (this.#states.size >= STATE_CACHE_MAX && !this.#states.has(key)) this.#states.delete(this.#states.keys().next().value!);
    this.#states.set(key, state);
  }
}

/** A commit that records nothing: what a sweep or a recompute step fills in. */
export function emptyDerivedCommit(): Omit<DerivedCommit, "alerts"> & { alerts: NewAlert[] } {
  return { first: 0, last: 0, count: 0, states: [], calls: [], crossings: [], coverage: [], events: [], episodes: [], heard: [], alerts: [] };
}

export interface AppliedFixes {
  events: PortCallEvent[];
  commit: Omit<DerivedCommit, "first" | "last" | "count" | "alerts">;
}

/** Reference data and lookups the detectors need besides the fixes. */
export interface ApplyContext extends DeriveContext {
  lookups: BehaviourLookups;
}

/** Another vessel's episode is looked for within this box around an episode's centre (degrees, about 2 km). */
const EPISODE_BOX_DEG = 0.02;
/** Fixes either side of two episodes' overlap that still pair with it (the encounter pairing window). */
const PAIR_MARGIN_MS = 10 * 60_000;

/**
 * Applies fixes to their vessels' detectors, each vessel's in time order: the one path of
 * live derivation and of `mds derive`'s recompute. Then the judgements that look across
 * vessels of one station (docs/vessel-events.md): a silence is an AIS gap only if the station
 * kept hearing others near it, and a slow episode far from port is matched against the other
 * slow episodes there for encounters. Both read stored data and this page's own.
 */
export async function apply(
  fixes: readonly DerivedFix[],
  load: (keys: readonly { stationId: number; mmsi: number }[]) => Promise<Map<string, VesselDerivedState>>,
  ctx: ApplyContext,
): Promise<AppliedFixes> {
  const byVessel = new Map<string, DerivedFix[]>();
  for (const f of fixes) {
    const key = `${f.stationId}:${f.mmsi}`;
    const list = byVessel.get(key);
    if (list) list.push(f);
    else byVessel.set(key, [f]);
  }
  const states = await load([...byVessel.values()].map((l) => ({ stationId: l[0]!.stationId, mmsi: l[0]!.mmsi })));
  // Taken before the fixes move the states on (deriveFix changes a state in place).
  const basis = [...byVessel.values()].map((l) => {
    const state = states.get(`${l[0]!.stationId}:${l[0]!.mmsi}`);
    return { stationId: l[0]!.stationId, mmsi: l[0]!.mmsi, time: state ? derivedStateTime(state) : null };
  });
  const events: PortCallEvent[] = [];
  const calls: PortCall[] = [];
  const crossings: GateCrossing[] = [];
  const coverage: DerivedCommit["coverage"] = [];
  const saved: DerivedCommit["states"] = [];
  const vesselEvents: VesselEvent[] = [];
  const meetings: SlowEpisode[] = [];
  const silences: Silence[] = [];
  const heard = new Map<string, DerivedCommit["heard"][number]>();
  for (const [key, list] of byVessel) {
    const state = states.get(key) ?? newVesselDerivedState();
    list.sort((a, b) => a.time - b.time);
    for (const f of list) {
      const out = deriveFix(state, f, ctx);
      for (const e of out.calls) {
        events.push(e);
        calls.push(e.call);
      }
      crossings.push(...out.crossings);
      for (const c of out.coverage) coverage.push({ ...c, stationId: f.stationId });
      vesselEvents.push(...out.events);
      if (out.meeting) meetings.push(out.meeting);
      if (out.silence) silences.push(out.silence);
      if (out.heard) heard.set(`${f.stationId}:${out.heard.hour}:${out.heard.cell}`, { stationId: f.stationId, ...out.heard });
    }
    saved.push({ stationId: list[0]!.stationId, mmsi: list[0]!.mmsi, state });
  }
  const episodes = meetings.map(storedEpisode);
  const silencesEnded: string[] = [];
  for (const s of silences) {
    silencesEnded.push(gapId(s.stationId, s.mmsi, s.start));
    const hours = gapHours(s);
    const cells = cellsAround(s.from[0], s.from[1]);
    const heardHours = await ctx.lookups.heardHours(s.stationId, cells, hours);
    for (const h of hours) if (cells.some((c) => heard.has(`${s.stationId}:${h}:${c}`))) heardHours.add(h);
    const gap = gapOf(s, heardHours.size);
    if (gap) vesselEvents.push(gap);
  }
  for (const e of episodes) vesselEvents.push(...(await encountersOf(e, episodes, ctx.lookups)));
  return { events, commit: { states: saved, basis, calls, crossings, coverage, events: vesselEvents, episodes, heard: [...heard.values()], silencesEnded } };
}

function storedEpisode(e: SlowEpisode): StoredEpisode {
  return { stationId: e.stationId, mmsi: e.mmsi, start: e.start, last: e.last, lat: e.sumLat / e.positions, lon: e.sumLon / e.positions };
}

/** Encounters of an episode with the other vessels' episodes at its station and place, stored or of this page. */
async function encountersOf(e: StoredEpisode, page: readonly StoredEpisode[], lookups: BehaviourLookups): Promise<VesselEvent[]> {
  const box = { minLat: e.lat - EPISODE_BOX_DEG, maxLat: e.lat + EPISODE_BOX_DEG, minLon: e.lon - EPISODE_BOX_DEG * 2, maxLon: e.lon + EPISODE_BOX_DEG * 2 };
  const near = (o: StoredEpisode) => o.stationId === e.stationId && o.mmsi !== e.mmsi && o.last >= e.start && o.start <= e.last && o.lat >= box.minLat && o.lat <= box.maxLat && o.lon >= box.minLon && o.lon <= box.maxLon;
  const others = new Map<string, StoredEpisode>();
  for (const o of [...(await lookups.episodesNear(e.stationId, e.start, e.last, box)), ...page]) if (near(o)) others.set(`${o.mmsi}:${o.start}`, o);
  const out: VesselEvent[] = [];
  for (const o of others.values()) {
    // The overlap, widened by the pairing margin: the same window from either vessel's side.
    const from = Math.max(e.start, o.start) - PAIR_MARGIN_MS;
    const to = Math.min(e.last, o.last) + PAIR_MARGIN_MS;
    out.push(...encountersBetween(await lookups.fixes(e.stationId, e.mmsi, from, to), await lookups.fixes(e.stationId, o.mmsi, from, to)));
  }
  return out;
}
