import { createAisDecoder, type DecodedAisMessage } from "../../domain/ais/index.ts";
import { JumpFilter } from "../../domain/tracks/position-jump.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { FeedReport } from "../../domain/feeds/report.ts";
import type { IngestStation, PositionFix, PositionStore, VesselIdentityUpdate } from "../../interfaces/positions.ts";
import { identityUpdate, mergeIdentity } from "./identity-update.ts";
import { type IngestOptions, ingestOptions } from "./ingest-options.ts";
import type { IngestMetrics, Transport } from "./metrics.ts";
import { addCount, STATION_COUNTERS, type StationState, takeCounters } from "./station-counters.ts";
import { addDecoderDetail, FIX_FUTURE, FIX_INVALID, FIX_JUMP, FIX_QUEUED, type FixOutcome, type SubmitContext, type SubmitResult, SubmitTally } from "./submit-result.ts";

interface Waiter {
  /** Position rows enqueued (in total) when the submit finished. */
  rows: number;
  /** Flushes started before the submit; it needs a later one (which takes its identities and counters). */
  startedFlushes: number;
  resolve: () => void;
}

const RESOLVED = Promise.resolve();

/**
 * Lines from authenticated stations -> decoder (one per station) -> fixes and identities
 * -> bounded batches written by one writer at a time.
 *
 * The batch and its waiters are one state machine (a line is acknowledged only once the batch
 * holding it is written); the per-station counters (station-counters.ts), what a submit
 * answers (submit-result.ts) and what a report says of a vessel (identity-update.ts) are apart.
 *
 * Why batches: a row per statement would cap SQLite at a few thousand rows/s and keep
 * PostgreSQL's pool busy; one transaction per batch writes tens of thousands per second
 * and keeps each SQLite statement short (positions-store.ts). Senders learn that their
 * lines are stored through `stored` (TCP ACKs and the HTTP answer wait on it), so an
 * acknowledged line is never lost by a crash afterwards.
 */
export class IngestPipeline {
  readonly #store: PositionStore;
  readonly #clock: Clock;
  readonly #metrics: IngestMetrics;
  readonly #opt: Required<IngestOptions>;
  readonly #stations = new Map<number, StationState>();
  readonly #touched = new Set<StationState>();
  /** Each ship's last accepted fix per station, so an impossible jump is kept out. */
  readonly #jumps = new JumpFilter();

  #positions: PositionFix[] = [];
  #latest = new Map<string, PositionFix>();
  #identities = new Map<string, VesselIdentityUpdate>();
  #waiters: Waiter[] = [];
  /** Rows ever enqueued / ever committed (only rows in the buffer are between the two). */
  #rowsEnqueued = 0;
  #rowsCommitted = 0;
  #flushesStarted = 0;
  #flushing: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #immediate: NodeJS.Immediate | null = null;
  #retryMs = 0;
  #drainWaiters: (() => void)[] = [];
  #closed = false;
  #onError: (e: unknown) => void;
  /** Called with each batch of fixes once it is committed (zone alerts); must return at once. */
  onPositions: ((fixes: readonly PositionFix[]) => void) | null = null;
  /** Called with the (station, MMSI) pairs of each batch's static reports once committed (registry links); must return at once. */
  onIdentities: ((keys: readonly { stationId: number; mmsi: number }[]) => void) | null = null;

  constructor(store: PositionStore, clock: Clock, metrics: IngestMetrics, options: IngestOptions = {}, onError: (e: unknown) => void = () => {}) {
    this.#store = store;
    this.#clock = clock;
    this.#metrics = metrics;
    this.#opt = ingestOptions(options);
    this.#onError = onError;
  }

  get metrics(): IngestMetrics {
    return this.#metrics;
  }

  /** Rows waiting to be written. */
  get buffered(): number {
    return this.#positions.length;
  }

  /** True while senders should be slowed: TCP sockets pause, UDP datagrams are dropped and counted. */
  get overloaded(): boolean {
    return this.#positions.length >= this.#opt.maxBuffered;
  }

  /** Resolves once the buffer is back under half its bound. */
  whenDrained(): Promise<void> {
    if (this.#positions.length < this.#opt.maxBuffered / 2) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  /**
   * Decodes lines from one authenticated station and queues what they carry. Synchronous
   * up to the returned promise, so a caller's lines are counted in the order received.
   * With `detail`, the result counts dropped lines by reason (the HTTP answer does); with
   * `wait: false`, `stored` is not tracked (already resolved).
   */
  submit(station: IngestStation, lines: readonly string[], ctx: SubmitContext, options: { detail?: boolean; wait?: boolean } = {}): SubmitResult {
    const detail = options.detail === true;
    const state = this.#state(station);
    const now = this.#clock.now();
    const before = detail ? state.decoder.stats() : null;
    const decoder = state.decoder;
    const feedCtx = { source: ctx.source, receivedAt: now };
    const latestFuture = now + this.#opt.futureToleranceMs;
    let messages = 0;
    const tally = new SubmitTally();
    for (let i = 0; i < lines.length; i++) {
      const m = decoder.feed(lines[i]!, feedCtx);
      if (m === null) continue;
      messages++;
      switch (m.type) {
        case 1:
        case 2:
        case 3:
        case 27: {
          tally.fix(this.#fix(station.id, m.mmsi, m.time, m.lat, m.lon, m.sog, m.cog, m.type === 27 ? null : m.heading, m.navStatus, latestFuture, true));
          break;
        }
        case 9:
        case 18: {
          // A SAR aircraft (type 9) flies faster than any ship: its fixes are not judged by a ship's speed.
          tally.fix(this.#fix(station.id, m.mmsi, m.time, m.lat, m.lon, m.sog, m.cog, m.type === 18 ? m.heading : null, null, latestFuture, m.type === 18));
          break;
        }
        case 19: {
          tally.fix(this.#fix(station.id, m.mmsi, m.time, m.lat, m.lon, m.sog, m.cog, m.heading, null, latestFuture, true));
          this.#identity(m, station.id, now);
          tally.statics++;
          break;
        }
        case 5:
        case 24:
          if (this.#identity(m, station.id, now)) tally.statics++;
          break;
      }
    }
    const stored = this.#submitted(state, now, tally, options.wait !== false);
    const result = tally.result(lines.length, messages, stored);
    if (before) addDecoderDetail(result, before, decoder.stats());
    return result;
  }

  /**
   * Reports of a feed that delivers decoded JSON (Digitraffic, aisstream.io, AISHub), as
   * one station's: the same checks (range, future time), batches and acknowledgement as
   * decoded lines. Counted as `feed_messages` and `feed_positions` besides the usual counters.
   */
  submitReports(station: IngestStation, reports: readonly FeedReport[], options: { wait?: boolean } = {}): SubmitResult {
    const state = this.#state(station);
    const now = this.#clock.now();
    const latestFuture = now + this.#opt.futureToleranceMs;
    const tally = new SubmitTally();
    for (const r of reports) {
      if (r.kind === "position") {
        tally.fix(this.#fix(station.id, r.mmsi, r.time, r.lat, r.lon, r.sog, r.cog, r.heading, r.navStatus, latestFuture, true));
      } else {
        const { kind: _, ...fields } = r;
        const u: VesselIdentityUpdate = { ...fields, stationId: station.id, updatedAt: now };
        const key = `${station.id}:${r.mmsi}`;
        const prev = this.#identities.get(key);
        this.#identities.set(key, prev ? mergeIdentity(prev, u) : u);
        tally.statics++;
      }
    }
    addCount(state, "feed_messages", reports.length);
    const stored = this.#submitted(state, now, tally, options.wait !== false);
    return tally.result(0, reports.length, stored);
  }

  /** Counts a listener-side event against a station (oversized lines, UDP gaps, failed signatures). */
  count(station: IngestStation, counter: string, n = 1): void {
    if (n === 0) return;
    const state = this.#state(station);
    addCount(state, counter, n);
    this.#touched.add(state);
    this.#schedule();
  }

  /** Counts a sender dropped before it could be tied to a station. */
  unauthenticated(transport: Transport, reason: string, station: IngestStation | null = null): void {
    this.#metrics.unauthenticated.inc({ transport, reason });
    if (station) this.count(station, STATION_COUNTERS.unauthenticated);
  }

  /** Counts lines dropped because the sender's address is outside the station's allow list. */
  notAllowed(transport: Transport, station: IngestStation, lines: number): void {
    this.#metrics.unauthenticated.inc({ transport, reason: "address_not_allowed" });
    this.count(station, STATION_COUNTERS.notAllowed, lines);
  }

  overloadDrop(transport: Transport, station: IngestStation | null, lines: number): void {
    this.#metrics.overload.inc({ transport });
    if (station) this.count(station, STATION_COUNTERS.overload, lines);
  }

  /** Writes everything received so far; resolves when it is committed. */
  async flush(): Promise<void> {
    while (this.#flushing || this.#positions.length > 0 || this.#waiters.length > 0 || this.#touched.size > 0) {
      if (this.#flushing) await this.#flushing;
      else await this.#flushOnce();
      if (this.#retryMs > 0 && !this.#flushing) {
        // The store is failing: wait out the retry delay rather than spin. At close there
        // is no later: what could not be written is lost (the error has been reported).
        if (this.#closed) return;
        await new Promise((r) => setTimeout(r, this.#retryMs));
      }
    }
  }

  /** Writes what is buffered and stops the timer. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush().catch(this.#onError);
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Counts what a submit queued, marks the station heard, and returns the promise its sender waits on (none for UDP). */
  #submitted(state: StationState, now: number, n: SubmitTally, wait: boolean): Promise<void> {
    state.heardAt = now;
    this.#touched.add(state);
    addCount(state, STATION_COUNTERS.positions, n.positions);
    addCount(state, STATION_COUNTERS.invalid, n.invalid);
    addCount(state, STATION_COUNTERS.future, n.future);
    addCount(state, STATION_COUNTERS.jump, n.jumps);
    addCount(state, STATION_COUNTERS.statics, n.statics);
    // UDP senders get no answer, so they need no promise: one fewer allocation per datagram.
    const stored = wait
      ? new Promise<void>((resolve) => {
          this.#waiters.push({ rows: this.#rowsEnqueued, startedFlushes: this.#flushesStarted, resolve });
        })
      : RESOLVED;
    this.#schedule();
    return stored;
  }

  /** What became of one position report; `judged`: whether a ship's speed bounds its jumps. */
  #fix(
    stationId: number,
    mmsi: number,
    time: number | null,
    lat: number | null,
    lon: number | null,
    sog: number | null,
    cog: number | null,
    heading: number | null,
    navStatus: number | null,
    latestFuture: number,
    judged: boolean,
  ): FixOutcome {
    // The decoder passes out-of-range positions through raw; they are not positions.
    if (lat === null || lon === null || !(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180) || mmsi === 0 || time === null) return FIX_INVALID;
    if (time > latestFuture) return FIX_FUTURE;
    const key = `${stationId}:${mmsi}`;
    if (judged && !this.#jumps.accept(key, { lat, lon, time })) return FIX_JUMP;
    const fix: PositionFix = { mmsi, time, stationId, lat, lon, sog, cog, heading, navStatus };
    this.#positions.push(fix);
    this.#rowsEnqueued++;
    const prev = this.#latest.get(key);
    if (prev === undefined || prev.time <= time) this.#latest.set(key, fix);
    return FIX_QUEUED;
  }

  /** Merges a static report into the batch's identity of (station, mmsi); false when it carries nothing usable. */
  #identity(m: DecodedAisMessage, stationId: number, now: number): boolean {
    const u = identityUpdate(m, stationId, now);
    if (u === null) return false;
    const key = `${stationId}:${m.mmsi}`;
    const prev = this.#identities.get(key);
    this.#identities.set(key, prev ? mergeIdentity(prev, u) : u);
    return true;
  }

  #state(station: IngestStation): StationState {
    let s = this.#stations.get(station.id);
    if (!s) {
      const decoder = createAisDecoder({ fragmentTimeoutMs: this.#opt.fragmentTimeoutMs, maxPending: 1_000 });
      s = { station, decoder, seen: decoder.stats(), pending: new Map(), heardAt: 0 };
      this.#stations.set(station.id, s);
    }
    return s;
  }

  #schedule(): void {
    this.#metrics.buffered.set(this.#positions.length);
    if (this.#flushing || this.#immediate) return;
    if (this.#positions.length >= this.#opt.batchSize && this.#retryMs === 0) {
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = null;
      // Let the current event finish adding its lines first: one write per burst.
      this.#immediate = setImmediate(() => {
        this.#immediate = null;
        void this.#flushOnce();
      });
      return;
    }
    if (this.#timer === null) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        void this.#flushOnce();
      }, this.#retryMs || this.#opt.flushIntervalMs);
      // Pending writes alone do not keep a process alive; close() writes them.
      this.#timer.unref();
    }
  }

  #flushOnce(): Promise<void> {
    if (this.#flushing) return this.#flushing;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#immediate) clearImmediate(this.#immediate);
    this.#immediate = null;
    this.#flushing = this.#write().finally(() => {
      this.#flushing = null;
      if (this.#positions.length > 0 || this.#waiters.length > 0 || this.#touched.size > 0) this.#schedule();
    });
    return this.#flushing;
  }

  async #write(): Promise<void> {
    const positions = this.#positions.length > this.#opt.batchSize ? this.#positions.slice(0, this.#opt.batchSize) : this.#positions;
    this.#positions = positions === this.#positions ? [] : this.#positions.slice(this.#opt.batchSize);
    const latest = this.#latest;
    const identities = this.#identities;
    this.#latest = new Map();
    this.#identities = new Map();
    this.#flushesStarted++;
    const flushNo = this.#flushesStarted;
    const { counters, heard, apply } = takeCounters(this.#touched, this.#metrics);
    const started = performance.now();
    try {
      const { inserted } = await this.#store.writeBatch({ positions, latest: [...latest.values()], identities: [...identities.values()], counters, heard });
      this.#retryMs = 0;
      this.#rowsCommitted += positions.length;
      this.#metrics.flushSeconds.observe((performance.now() - started) / 1000);
      this.#metrics.positionsWritten.inc(inserted);
      apply();
      this.onPositions?.(positions);
      if (identities.size > 0) this.onIdentities?.([...identities.values()].map((u) => ({ stationId: u.stationId, mmsi: u.mmsi })));
      // Waiters are in submit order: resolve those whose rows are committed and whose
      // identities and counters this (or an earlier) flush took.
      let done = 0;
      while (done < this.#waiters.length) {
        const w = this.#waiters[done]!;
        if (w.rows > this.#rowsCommitted || w.startedFlushes >= flushNo) break;
        w.resolve();
        done++;
      }
      if (done > 0) this.#waiters.splice(0, done);
    } catch (e) {
      // Keep everything for the next attempt; nothing was acknowledged.
      this.#metrics.flushErrors.inc();
      this.#onError(e);
      this.#positions = positions.concat(this.#positions);
      for (const [k, fix] of latest) {
        const cur = this.#latest.get(k);
        if (cur === undefined || cur.time < fix.time) this.#latest.set(k, fix);
      }
      for (const [k, u] of identities) {
        const cur = this.#identities.get(k);
        this.#identities.set(k, cur ? mergeIdentity(u, cur) : u);
      }
      for (const c of counters) {
        const s = this.#stations.get(c.stationId);
        if (s) {
          addCount(s, c.counter, c.delta);
          this.#touched.add(s);
        }
      }
      this.#retryMs = Math.min(30_000, this.#retryMs === 0 ? 500 : this.#retryMs * 2);
    }
    this.#metrics.buffered.set(this.#positions.length);
    if (this.#positions.length < this.#opt.maxBuffered / 2 && this.#drainWaiters.length > 0) {
      const ws = this.#drainWaiters;
      this.#drainWaiters = [];
      for (const w of ws) w();
    }
  }
}
