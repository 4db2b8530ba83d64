import type { Clock } from "../../interfaces/clock.ts";
import type { ArchiveStore, RecentPositions } from "../../interfaces/tracks.ts";
import type { VesselStore } from "../../interfaces/vessels.ts";
import { compact } from "./compact.ts";

export interface MaintenanceOptions {
  /** Registry refresh (AIS identities, sanctions lists): how often. */
  refreshMs?: number;
  /** Archive compaction: how often, and the delay of the first run after start. */
  compactMs?: number;
  firstCompactMs?: number;
}

interface Log {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * The background jobs of `serve` for vessels and tracks: link what sanctions imports
 * learned into the vessel registry every minute (station reports are linked as they are
 * stored; this refresh is their safety net after a failed link or a crash), and move positions past 90 days
 * to the archive every hour. A job never overlaps itself; a failed run is logged and the
 * next one tries again (the archive being down delays compaction, it loses nothing).
 */
export class VesselMaintenance {
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #abort = new AbortController();
  readonly #running = new Set<Promise<unknown>>();
  #refreshing = false;
  #compacting = false;

  readonly deps: {
    vessels: VesselStore;
    tracks: RecentPositions;
    archive: ArchiveStore;
    clock: Clock;
    log: Log;
    /**
     * Runs a job unless another process of the deployment is running it (resolving to null
     * then): with several workers on one database, each round runs once. One process: runs it.
     */
    exclusive?: <T>(job: string, run: () => Promise<T>) => Promise<T | null>;
  };

  constructor(deps: VesselMaintenance["deps"], options: MaintenanceOptions = {}) {
    this.deps = deps;
    const refreshMs = options.refreshMs ?? 60_000;
    const compactMs = options.compactMs ?? 3_600_000;
    // A first refresh at start links what was imported or heard while the service was down.
    this.#track(this.refresh());
    this.#timers.push(setInterval(() => this.#track(this.refresh()), refreshMs).unref());
    this.#timers.push(setTimeout(() => this.#track(this.compact()), options.firstCompactMs ?? 60_000).unref());
    this.#timers.push(setInterval(() => this.#track(this.compact()), compactMs).unref());
  }

  #track(p: Promise<unknown>): void {
    this.#running.add(p);
    void p.finally(() => this.#running.delete(p));
  }

  #exclusive<T>(job: string, run: () => Promise<T>): Promise<T | null> {
    return this.deps.exclusive ? this.deps.exclusive(job, run) : run();
  }

  async refresh(): Promise<void> {
    if (this.#refreshing) return;
    this.#refreshing = true;
    try {
      const r = await this.#exclusive("registry-refresh", () => this.deps.vessels.refresh(this.deps.clock.now()));
      if (r && r.aisIdentities + r.sanctionsDesignations > 0) this.deps.log.info({ registry: r }, "vessel registry refreshed");
    } catch (err) {
      this.deps.log.error({ err }, "vessel registry refresh failed; the next one retries");
    } finally {
      this.#refreshing = false;
    }
  }

  async compact(): Promise<void> {
    if (this.#compacting) return;
    this.#compacting = true;
    try {
      const r = await this.#exclusive("archive-compaction", () => compact(this.deps.tracks, this.deps.archive, this.deps.clock.now(), { signal: this.#abort.signal }));
      if (r && r.fixes > 0) this.deps.log.info({ compaction: r }, "positions older than 90 days moved to the archive");
    } catch (err) {
      this.deps.log.error({ err }, "archive compaction failed; nothing was deleted that is not archived, the next run retries");
    } finally {
      this.#compacting = false;
    }
  }

  /** Stops the timers and waits for a running job (a compaction stops after its current vessel). */
  async stop(): Promise<void> {
    for (const t of this.#timers) clearTimeout(t);
    this.#abort.abort();
    await Promise.allSettled([...this.#running]);
  }
}
