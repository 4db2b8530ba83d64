import { backoffDelay, RATE_LIMITED_COOLDOWN_MS } from "../../../domain/feeds/backoff.ts";
import { FEED_KIND_INFO } from "../../../domain/feeds/kinds.ts";
import type { FeedReport } from "../../../domain/feeds/report.ts";
import type { Clock } from "../../../interfaces/clock.ts";
import type { Feed, FeedStatus } from "../../../interfaces/feeds.ts";
import type { IngestStation } from "../../../interfaces/positions.ts";
import type { IngestPipeline } from "../pipeline.ts";
import type { FeedMetrics } from "./metrics.ts";

/** Settings the operator (or a test) may change; each kind's defaults otherwise. */
export interface ConnectorTuning {
  /** No message for this long raises the alarm (default: the kind's, FEED_KIND_INFO). */
  silentAfterMs?: number;
  /** First and shortest wait between attempts (default: the kind's). */
  minReconnectMs?: number;
  /** Longest wait between attempts (default 15 minutes). */
  maxReconnectMs?: number;
  /** Wait after a 429 (default 10 minutes). */
  rateLimitedCooldownMs?: number;
  /** AISHub: time between polls (default 60 s, the service's own limit). */
  pollIntervalMs?: number;
  /** Digitraffic: the `Digitraffic-User` header, `<organisation>/<application>`. */
  digitrafficUser?: string;
}

export interface ConnectorDeps {
  feed: Feed;
  key: string | null;
  station: IngestStation;
  pipeline: IngestPipeline;
  metrics: FeedMetrics;
  /** Timestamps users see (last message, status time). */
  clock: Clock;
  tuning: ConnectorTuning;
  random?: () => number;
  log?: (message: string) => void;
}

const RATE_WINDOW_S = 60;

/**
 * The life of one feed connection, whatever its transport: connect, take messages, notice
 * failure or silence, wait (exponential backoff with jitter, a long cooldown after a 429,
 * never faster than the feed's own limit) and connect again. Subclasses open and close the
 * transport and call `opened`, `lines`/`reports`, `rejected` and `lost`.
 *
 * Silence: a connection that is open but delivers nothing for `silentAfterMs` raises the
 * `silent` alarm and is recycled (aisstream.io is known to accept a subscription and then
 * send nothing); the alarm stays up until a message arrives, so a quiet sea is never
 * assumed. Not connected for as long raises `down`.
 */
export abstract class FeedConnector {
  protected readonly deps: ConnectorDeps;
  protected readonly silentAfterMs: number;
  readonly #minMs: number;
  readonly #maxMs: number;
  readonly #cooldownMs: number;
  #state: FeedStatus["state"] = "stopped";
  #failures = 0;
  #retry: NodeJS.Timeout | null = null;
  #watch: NodeJS.Timeout | null = null;
  #running = false;
  /** Monotonic ms of the last message, or of the moment we started waiting for one. */
  #quietSince = 0;
  /** Monotonic ms since when we are not connected (null while connected). */
  #downSince: number | null = null;
  #lastMessageAt: number | null = null;
  #alarm: FeedStatus["alarm"] = null;
  #alarmSince: number | null = null;
  #lastError: string | null = null;
  #gotMessage = false;
  readonly #perSecond = new Map<number, number>();
  #generation = 0;

  constructor(deps: ConnectorDeps) {
    this.deps = deps;
    const info = FEED_KIND_INFO[deps.feed.kind];
    this.silentAfterMs = deps.tuning.silentAfterMs ?? info.silentAfterMs;
    this.#minMs = deps.tuning.minReconnectMs ?? info.minReconnectMs;
    this.#maxMs = Math.max(this.#minMs, deps.tuning.maxReconnectMs ?? 15 * 60_000);
    this.#cooldownMs = deps.tuning.rateLimitedCooldownMs ?? RATE_LIMITED_COOLDOWN_MS;
  }

  get name(): string {
    return this.deps.feed.name;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#downSince = performance.now();
    this.#attempt();
    const every = Math.max(20, Math.min(5_000, Math.floor(this.silentAfterMs / 5)));
    this.#watch = setInterval(() => this.#checkSilence(), every);
    this.#watch.unref();
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#generation++;
    if (this.#retry) clearTimeout(this.#retry);
    if (this.#watch) clearInterval(this.#watch);
    this.#retry = null;
    this.#watch = null;
    await this.close();
    this.#state = "stopped";
    this.deps.metrics.connected.set({ feed: this.name }, 0);
  }

  status(): FeedStatus {
    return {
      state: this.#state,
      lastMessageAt: this.#lastMessageAt,
      ratePerSecond: this.#rate(),
      alarm: this.#alarm,
      alarmSince: this.#alarmSince,
      lastError: this.#lastError,
      reportedAt: this.deps.clock.now(),
    };
  }

  /** Opens the transport; calls `opened()` once it is up and `lost()` when it fails or ends. */
  protected abstract open(generation: number): void;
  /** Closes the transport at once; no `lost()` is expected afterwards. */
  protected abstract close(): Promise<void>;

  /** True while `generation` is the current attempt: events of an abandoned socket are ignored. */
  protected current(generation: number): boolean {
    return this.#running && generation === this.#generation;
  }

  protected opened(generation: number): void {
    if (!this.current(generation)) return;
    this.#state = "connected";
    this.#downSince = null;
    this.#quietSince = performance.now();
    this.#gotMessage = false;
    if (this.#alarm === "down") this.#setAlarm(null);
    this.deps.metrics.connects.inc({ feed: this.name, outcome: "opened" });
    this.deps.metrics.connected.set({ feed: this.name }, 1);
  }

  /** NMEA lines of this connection into the pipeline (their decoding counts them). */
  protected lines(generation: number, lines: string[], source: string): void {
    if (!this.current(generation) || lines.length === 0) return;
    const r = this.deps.pipeline.submit(this.deps.station, lines, { source, transport: "feed" }, { detail: true, wait: false });
    this.#received(lines.length);
    for (const [reason, n] of Object.entries(r.reasons)) this.deps.metrics.rejected.inc({ feed: this.name, reason }, n);
  }

  /** Decoded reports of this connection into the pipeline. */
  protected reports(generation: number, reports: FeedReport[], messages: number): void {
    if (!this.current(generation) || messages === 0) return;
    if (reports.length > 0) this.deps.pipeline.submitReports(this.deps.station, reports, { wait: false });
    this.#received(messages);
  }

  /**
   * Collects decoded reports of one connection and hands them to the pipeline once per
   * event-loop turn, so a burst of WebSocket or MQTT messages is one submit, not thousands.
   */
  protected batcher(generation: number): (reports: readonly FeedReport[]) => void {
    let batch: FeedReport[] = [];
    let messages = 0;
    let scheduled = false;
    const flush = () => {
      scheduled = false;
      const reports = batch;
      const n = messages;
      batch = [];
      messages = 0;
      this.reports(generation, reports, n);
    };
    return (reports) => {
      for (const r of reports) batch.push(r);
      messages++;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    };
  }

  /** A message counted and dropped (not JSON, unknown topic, ...): it proves the feed alive, but carries nothing. */
  protected rejected(generation: number, reason: string, n = 1): void {
    if (!this.current(generation)) return;
    this.deps.metrics.rejected.inc({ feed: this.name, reason }, n);
    this.deps.pipeline.count(this.deps.station, `feed_rejected:${reason}`, n);
    this.#received(n);
  }

  /** The feed said why it refuses us (aisstream's `error`, AISHub's ERROR_MESSAGE). */
  protected feedError(message: string): void {
    this.#lastError = message;
  }

  /** The connection failed or ended; a reconnect is scheduled. */
  protected lost(generation: number, why: string, options: { rateLimited?: boolean } = {}): void {
    if (!this.current(generation)) return;
    this.#generation++;
    const wasConnected = this.#state === "connected";
    this.#lastError = why;
    this.deps.metrics.connected.set({ feed: this.name }, 0);
    if (!wasConnected) this.deps.metrics.connects.inc({ feed: this.name, outcome: options.rateLimited ? "rate_limited" : "failed" });
    // A connection that delivered messages was healthy: start the backoff from the bottom.
    if (this.#gotMessage) this.#failures = 0;
    this.#failures++;
    this.#downSince ??= performance.now();
    void this.close();
    const wait = options.rateLimited ? Math.max(this.#cooldownMs, this.#minMs) : backoffDelay({ minMs: this.#minMs, maxMs: this.#maxMs }, this.#failures, (this.deps.random ?? Math.random)());
    this.#state = "waiting";
    this.deps.log?.(`feed ${this.name}: ${why}; reconnecting in ${Math.round(wait / 1000)} s`);
    this.#retry = setTimeout(() => {
      this.#retry = null;
      this.#attempt();
    }, wait);
    this.#retry.unref();
  }

  #attempt(): void {
    if (!this.#running) return;
    this.#state = "connecting";
    const generation = ++this.#generation;
    try {
      this.open(generation);
    } catch (e) {
      this.lost(generation, e instanceof Error ? e.message : String(e));
    }
  }

  #received(n: number): void {
    const now = performance.now();
    this.#quietSince = now;
    this.#gotMessage = true;
    this.#lastMessageAt = this.deps.clock.now();
    if (this.#alarm !== null) this.#setAlarm(null);
    const sec = Math.floor(now / 1000);
    this.#perSecond.set(sec, (this.#perSecond.get(sec) ?? 0) + n);
    if (this.#perSecond.size > RATE_WINDOW_S * 2) for (const k of this.#perSecond.keys()) if (k <= sec - RATE_WINDOW_S) this.#perSecond.delete(k);
    this.deps.metrics.messages.inc({ feed: this.name }, n);
    this.deps.metrics.lastMessage.set({ feed: this.name }, this.#lastMessageAt / 1000);
  }

  #rate(): number {
    const sec = Math.floor(performance.now() / 1000);
    let sum = 0;
    for (const [k, n] of this.#perSecond) if (k > sec - RATE_WINDOW_S) sum += n;
    return Math.round((sum / RATE_WINDOW_S) * 100) / 100;
  }

  #checkSilence(): void {
    if (!this.#running) return;
    const now = performance.now();
    this.deps.metrics.rate.set({ feed: this.name }, this.#rate());
    if (this.#state === "connected" && now - this.#quietSince >= this.silentAfterMs) {
      if (this.#alarm !== "silent") this.#setAlarm("silent");
      this.deps.metrics.connects.inc({ feed: this.name, outcome: "silent_recycled" });
      // The alarm stays `silent` (not `down`) while the recycled connection comes back: it is about the data.
      this.#downSince = now;
      this.lost(this.#generation, `connected but no message for ${Math.round(this.silentAfterMs / 1000)} s; alarm raised`);
    } else if (this.#state !== "connected" && this.#alarm === null && this.#downSince !== null && now - this.#downSince >= this.silentAfterMs) {
      this.#setAlarm("down");
    }
  }

  #setAlarm(alarm: FeedStatus["alarm"]): void {
    if (this.#alarm !== null) this.deps.metrics.alarm.set({ feed: this.name, alarm: this.#alarm }, 0);
    this.#alarm = alarm;
    this.#alarmSince = alarm === null ? null : this.deps.clock.now();
    if (alarm !== null) this.deps.metrics.alarm.set({ feed: this.name, alarm }, 1);
  }
}
