import type { FeedKind } from "../../../domain/feeds/kinds.ts";
import type { Clock } from "../../../interfaces/clock.ts";
import type { Feed, FeedStore } from "../../../interfaces/feeds.ts";
import type { IngestStation } from "../../../interfaces/positions.ts";
import type { IngestPipeline } from "../pipeline.ts";
import { AishubConnector } from "./aishub.ts";
import { AisstreamConnector } from "./aisstream.ts";
import { type ConnectorDeps, type ConnectorTuning, type FeedConnector } from "./connector.ts";
import { DigitrafficConnector } from "./digitraffic.ts";
import { KystverketConnector } from "./kystverket.ts";
import { FeedMetrics } from "./metrics.ts";

const CONNECTORS: Record<FeedKind, new (deps: ConnectorDeps) => FeedConnector> = {
  kystverket: KystverketConnector,
  digitraffic: DigitrafficConnector,
  aisstream: AisstreamConnector,
  aishub: AishubConnector,
};

export interface FeedRunnerOptions {
  /** How often the feed list is read again, so `feeds add` / `remove` take effect without a restart (default 30 s). */
  reconcileMs?: number;
  /** How often each feed's status is written for the status operation (default 10 s). */
  statusMs?: number;
  tuning?: ConnectorTuning;
  log?: (message: string) => void;
}

export interface FeedRunnerDeps {
  feeds: FeedStore;
  pipeline: IngestPipeline;
  /** The feed's station as ingest needs it. */
  station(id: number): Promise<IngestStation | null>;
  clock: Clock;
  /** Called before a feed starts, so its station's source is bound before its first position. */
  beforeStart?: () => Promise<unknown>;
}

/**
 * Runs every feed added with `mds feeds add` (in `serve`): one connector each, started
 * and stopped as the feed list changes, each feed's status written to the store so every
 * process can report it.
 */
export class FeedRunner {
  readonly metrics: FeedMetrics;
  readonly #deps: FeedRunnerDeps;
  readonly #opt: FeedRunnerOptions;
  readonly #running = new Map<string, { feed: Feed; connector: FeedConnector }>();
  #timers: NodeJS.Timeout[] = [];
  #reconciling: Promise<void> | null = null;
  /** The run queued behind the one in flight, shared by every call made meanwhile. */
  #queued: Promise<void> | null = null;
  #stopped = true;

  constructor(deps: FeedRunnerDeps, metrics: FeedMetrics, options: FeedRunnerOptions = {}) {
    this.#deps = deps;
    this.metrics = metrics;
    this.#opt = options;
  }

  /** Starts the feeds there are now; resolves once each has begun connecting. */
  async start(): Promise<void> {
    if (!this.#stopped) return;
    this.#stopped = false;
    await this.reconcile();
    const every = (ms: number, f: () => Promise<unknown>) => {
      const t = setInterval(() => void f().catch((e: unknown) => this.#opt.log?.(`feeds: ${e instanceof Error ? e.message : String(e)}`)), ms);
      t.unref();
      this.#timers.push(t);
    };
    every(this.#opt.reconcileMs ?? 30_000, () => this.reconcile());
    every(this.#opt.statusMs ?? 10_000, () => this.writeStatuses());
  }

  /** Names of the feeds running now. */
  names(): string[] {
    return [...this.#running.keys()].sort();
  }

  connector(name: string): FeedConnector | undefined {
    return this.#running.get(name)?.connector;
  }

  /**
   * Starts added feeds, stops removed ones (and ones whose address or kind changed). A run in
   * flight may have read the feeds before the caller's change, so a call made meanwhile waits
   * for one more run after it (shared by all such calls), never for the stale one alone.
   */
  reconcile(): Promise<void> {
    if (this.#reconciling) {
      this.#queued ??= this.#reconciling
        .catch(() => undefined)
        .then(() => {
          this.#queued = null;
          return this.reconcile();
        });
      return this.#queued;
    }
    this.#reconciling = this.#reconcile().finally(() => {
      this.#reconciling = null;
    });
    return this.#reconciling;
  }

  async #reconcile(): Promise<void> {
    if (this.#stopped) return;
    const feeds = await this.#deps.feeds.list();
    const wanted = new Map(feeds.map((f) => [f.name, f]));
    for (const [name, r] of this.#running) {
      const w = wanted.get(name);
      if (!w || w.stationId !== r.feed.stationId || w.url !== r.feed.url) {
        this.#running.delete(name);
        await r.connector.stop();
        this.metrics.forget(name);
      }
    }
    const fresh = feeds.filter((f) => !this.#running.has(f.name));
    if (fresh.length > 0) await this.#deps.beforeStart?.();
    for (const feed of fresh) {
      const station = await this.#deps.station(feed.stationId);
      if (!station || this.#stopped) continue;
      const key = feed.hasKey ? await this.#deps.feeds.key(feed.name) : null;
      const Connector = CONNECTORS[feed.kind];
      const connector = new Connector({ feed, key, station, pipeline: this.#deps.pipeline, metrics: this.metrics, clock: this.#deps.clock, tuning: this.#opt.tuning ?? {}, log: this.#opt.log });
      this.#running.set(feed.name, { feed, connector });
      connector.start();
    }
  }

  async writeStatuses(): Promise<void> {
    for (const [name, r] of this.#running) await this.#deps.feeds.writeStatus(name, r.connector.status());
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const t of this.#timers) clearInterval(t);
    this.#timers = [];
    await this.#queued?.catch(() => undefined);
    await this.#reconciling?.catch(() => undefined);
    for (const [name, r] of this.#running) {
      await r.connector.stop();
      await this.#deps.feeds.writeStatus(name, r.connector.status()).catch(() => undefined);
    }
    this.#running.clear();
  }
}
