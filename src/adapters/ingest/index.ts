import type { Clock } from "../../interfaces/clock.ts";
import type { PositionStore } from "../../interfaces/positions.ts";
import { IngestMetrics } from "./metrics.ts";
import type { IngestOptions } from "./ingest-options.ts";
import { IngestPipeline } from "./pipeline.ts";
import { StationDirectory } from "./station-directory.ts";
import { StationReceivers, type StationReceiversOptions } from "./station-receivers.ts";
import type { Station } from "../../interfaces/accounts.ts";
import { startTcpListener, type TcpListener, type TcpListenerOptions } from "./tcp-listener.ts";
import { startUdpListener, type UdpListener } from "./udp-listener.ts";

export interface ListenOptions {
  host: string;
  /** null: off; 0: any free port. */
  tcpPort: number | null;
  udpPort: number | null;
  /** Connection caps and the idle timeout of the TCP listener (its defaults otherwise). */
  tcpLimits?: Pick<TcpListenerOptions, "maxConnections" | "maxPerAddress" | "idleTimeoutMs">;
}

/**
 * AIS ingest of one process: the pipeline (decode, batch, write), the station directory
 * and the listeners. The HTTP route is registered on the API app (http-route.ts, registered by the composition root);
 * the TCP and UDP listeners start only when asked (`serve`, tests, benchmarks).
 */
export class Ingest {
  readonly metrics = new IngestMetrics();
  readonly directory: StationDirectory;
  readonly pipeline: IngestPipeline;
  readonly #clock: Clock;
  tcp: TcpListener | null = null;
  udp: UdpListener | null = null;
  /** Stations' plain ports and connect-outs, once `startReceivers()`ed (`serve`, tests). */
  receivers: StationReceivers | null = null;

  /** `unseal` opens a station's stored UDP signing key (the secret box). */
  constructor(positions: PositionStore, clock: Clock, options: IngestOptions = {}, onError?: (e: unknown) => void, unseal?: (sealed: string) => string) {
    this.#clock = clock;
    this.directory = new StationDirectory(positions, clock, unseal);
    this.pipeline = new IngestPipeline(positions, clock, this.metrics, options, onError);
  }

  async listen(options: ListenOptions): Promise<{ tcpPort: number | null; udpPort: number | null }> {
    if (options.tcpPort !== null && !this.tcp) this.tcp = await startTcpListener(this.pipeline, this.directory, { port: options.tcpPort, host: options.host, ...options.tcpLimits });
    if (options.udpPort !== null && !this.udp) this.udp = await startUdpListener(this.pipeline, this.directory, this.#clock, { port: options.udpPort, host: options.host });
    return { tcpPort: this.tcp?.port ?? null, udpPort: this.udp?.port ?? null };
  }

  /** Listens on every station's plain port and dials every connect-out, and keeps them in step with the store. */
  async startReceivers(load: () => Promise<Station[]>, options: StationReceiversOptions, intervalMs?: number): Promise<StationReceivers> {
    if (!this.receivers) {
      this.receivers = new StationReceivers(this.pipeline, this.directory, load, options);
      await this.receivers.start(intervalMs);
    }
    return this.receivers;
  }

  /** Stops the listeners, then writes what they delivered. */
  async close(): Promise<void> {
    await Promise.all([this.tcp?.close(), this.udp?.close(), this.receivers?.close()]);
    this.receivers = null;
    this.tcp = null;
    this.udp = null;
    await this.pipeline.close();
  }
}
