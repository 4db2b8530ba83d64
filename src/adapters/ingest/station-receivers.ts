import { parseConnectTarget } from "../../domain/stations/connect-target.ts";
import type { Station } from "../../interfaces/accounts.ts";
import type { IngestPipeline } from "./pipeline.ts";
import { type PlainListener, startPlainListener } from "./plain-listener.ts";
import { ReceiverConnection, type ReceiverConnectionOptions } from "./receiver-connection.ts";
import type { StationDirectory } from "./station-directory.ts";

export interface StationReceiversOptions {
  host: string;
  idleTimeoutMs?: number;
  connect?: ReceiverConnectionOptions;
  /** A port that cannot be bound, a connect target that cannot be parsed: reported, retried at the next round. */
  onProblem?: (message: string) => void;
}

export interface ReceiversStatus {
  plain: { stationId: number; port: number }[];
  connect: { stationId: number; target: string; state: string }[];
}

/** How often `serve` looks for stations created, changed or removed by the command line (another process). */
export const RECEIVERS_RECONCILE_MS = 5_000;

/**
 * Every station's plain port and connect-out, kept in step with the store: `reconcile()`
 * opens what is new, applies changed allow lists, and closes what was removed or moved.
 * Stations are changed from the command line in another process, so `serve` reconciles
 * every few seconds.
 */
export class StationReceivers {
  readonly #pipeline: IngestPipeline;
  readonly #directory: StationDirectory;
  readonly #load: () => Promise<Station[]>;
  readonly #opt: StationReceiversOptions;
  readonly #plain = new Map<number, { port: number; listener: PlainListener }>();
  readonly #connect = new Map<number, { target: string; connection: ReceiverConnection }>();
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #closed = false;

  constructor(pipeline: IngestPipeline, directory: StationDirectory, load: () => Promise<Station[]>, options: StationReceiversOptions) {
    this.#pipeline = pipeline;
    this.#directory = directory;
    this.#load = load;
    this.#opt = options;
  }

  /** Reconciles now, then every `intervalMs`. */
  async start(intervalMs = RECEIVERS_RECONCILE_MS): Promise<void> {
    await this.reconcile();
    this.#timer = setInterval(() => void this.reconcile().catch((e: unknown) => this.#problem(`station receivers: ${e instanceof Error ? e.message : String(e)}`)), intervalMs);
    this.#timer.unref();
  }

  /** One round; concurrent callers share it. */
  reconcile(): Promise<void> {
    this.#running ??= this.#round().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  status(): ReceiversStatus {
    return {
      plain: [...this.#plain].map(([stationId, p]) => ({ stationId, port: p.port })),
      connect: [...this.#connect].map(([stationId, c]) => ({ stationId, target: c.target, state: c.connection.state })),
    };
  }

  /** The connection of a station (tests, status). */
  connection(stationId: number): ReceiverConnection | undefined {
    return this.#connect.get(stationId)?.connection;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running?.catch(() => undefined);
    for (const c of this.#connect.values()) c.connection.close();
    this.#connect.clear();
    await Promise.all([...this.#plain.values()].map((p) => p.listener.close()));
    this.#plain.clear();
  }

  async #round(): Promise<void> {
    if (this.#closed) return;
    const stations = await this.#load();
    const wantPlain = new Map(stations.filter((s) => s.plainPort !== null).map((s) => [s.id, s]));
    const wantConnect = new Map(stations.filter((s) => s.connect !== null).map((s) => [s.id, s]));

    for (const [id, p] of this.#plain) {
      const want = wantPlain.get(id);
      if (!want || want.plainPort !== p.port) {
        this.#plain.delete(id);
        await p.listener.close();
      }
    }
    for (const [id, c] of this.#connect) {
      const want = wantConnect.get(id);
      if (!want || want.connect !== c.target) {
        this.#connect.delete(id);
        c.connection.close();
      }
    }

    for (const s of wantPlain.values()) {
      if (this.#closed) return;
      const station = await this.#directory.byId(s.id);
      if (!station) continue;
      const existing = this.#plain.get(s.id);
      if (existing) {
        existing.listener.update({ station, allowFrom: s.allowFrom });
        continue;
      }
      try {
        const listener = await startPlainListener(this.#pipeline, { station, allowFrom: s.allowFrom }, { host: this.#opt.host, port: s.plainPort!, idleTimeoutMs: this.#opt.idleTimeoutMs });
        if (this.#closed) await listener.close();
        else this.#plain.set(s.id, { port: s.plainPort!, listener });
      } catch (e) {
        this.#problem(`station ${s.id}: cannot listen on plain port ${s.plainPort} (${(e as NodeJS.ErrnoException).code ?? String(e)}); retrying in a few seconds`);
      }
    }

    for (const s of wantConnect.values()) {
      if (this.#closed || this.#connect.has(s.id)) continue;
      const station = await this.#directory.byId(s.id);
      if (!station) continue;
      let target;
      try {
        target = parseConnectTarget(s.connect!);
      } catch (e) {
        this.#problem(`station ${s.id}: ${(e as Error).message}`);
        continue;
      }
      const connection = new ReceiverConnection(this.#pipeline, station, target, this.#opt.connect);
      this.#connect.set(s.id, { target: s.connect!, connection });
      connection.start();
    }
  }

  #problem(message: string): void {
    this.#opt.onProblem?.(message);
  }
}
