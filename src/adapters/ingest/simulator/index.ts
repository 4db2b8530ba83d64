import { join } from "node:path";
import type { IngestStation } from "../../../interfaces/positions.ts";
import type { IngestPipeline } from "../pipeline.ts";
import { Fleet, type FleetOptions, loadSeeds, SAMPLE_FILE } from "./fleet.ts";
import { httpSender, type Sender, type Target, tcpSender, udpSender } from "./sender.ts";

export { parseTarget, type Sender, type Target } from "./sender.ts";

export interface SimulatorOptions extends FleetOptions {
  /** The datasets folder holding the sample. */
  datasetsDir: string;
  /** How often the fleet moves and reports (ms). */
  tickMs?: number;
  now?: () => number;
}

export interface Simulator {
  fleet: Fleet;
  sender: Sender;
  stop(): Promise<void>;
}

/** Hands lines straight to the pipeline: the in-process demo when no TCP listener runs. */
export function directSender(pipeline: IngestPipeline, station: IngestStation): Sender {
  let sent = 0;
  return {
    send(lines) {
      if (lines.length === 0) return;
      sent += lines.length;
      pipeline.submit(station, lines, { source: "simulator", transport: "simulator" }, { wait: false });
    },
    sent: () => sent,
    acknowledged: () => sent,
    dropped: () => 0,
    close: async () => {},
  };
}

export function senderFor(target: Target, stationId: number, secret: string, onError?: (message: string) => void, now: () => number = Date.now): Sender {
  if (target.kind === "http") return httpSender(target.url, secret, onError);
  return target.kind === "tcp" ? tcpSender(target, secret, onError) : udpSender(target, stationId, secret, now);
}

/** Runs a simulated station: the sample's vessels move and report, once per tick, through `sender`. */
export function startSimulator(sender: Sender, options: SimulatorOptions): Simulator {
  const now = options.now ?? Date.now;
  const fleet = new Fleet(loadSeeds(join(options.datasetsDir, SAMPLE_FILE)), now(), options);
  const tick = () => sender.send(fleet.step(now()));
  tick();
  const timer = setInterval(tick, options.tickMs ?? 1_000);
  let stopped: Promise<void> | null = null;
  return {
    fleet,
    sender,
    stop() {
      clearInterval(timer);
      stopped ??= sender.close();
      return stopped;
    },
  };
}
