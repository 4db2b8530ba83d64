import { connect } from "node:net";
import { encodePositionA, encodeStatic, type EncodePositionA, type EncodeStatic, toSentences } from "../../src/domain/ais/encode.ts";
import type { PlanId } from "../../src/domain/plans.ts";
import { type Engine, startTestService, type TestService } from "./service.ts";

export interface IngestTestService extends TestService {
  tcpPort: number;
  udpPort: number;
}

/** A service on a fresh store (no reference data: ingest needs none) with both listeners on free ports. */
export async function startIngestService(engine: Engine = "sqlite"): Promise<IngestTestService> {
  const t = await startTestService({ engine, withData: false });
  const ports = await t.service.ingest.listen({ host: "127.0.0.1", tcpPort: 0, udpPort: 0 });
  return Object.assign(t, { tcpPort: ports.tcpPort!, udpPort: ports.udpPort! });
}

/** A service with both listeners and one station on a Pro account (the usual start of an ingest suite). */
export async function startWithStation(engine: Engine = "sqlite"): Promise<{ t: IngestTestService; st: TestStation }> {
  const t = await startIngestService(engine);
  return { t, st: await stationFor(t) };
}

export interface TestStation {
  id: number;
  secret: string;
  key: string;
  accountId: string;
}

/** An account on `plan` with an API key and one station. */
export async function stationFor(t: TestService, plan: PlanId = "pro", name = "roof"): Promise<TestStation> {
  const { key, accountId } = await t.key(plan);
  const { station, secret } = await t.service.services.stations.createStation(accountId, name);
  return { id: station.id, secret, key, accountId };
}

/** A Class A position report as one sentence (with a tag-block time when `time` is given). */
export function positionLine(p: Partial<EncodePositionA> & { mmsi: number; lat: number; lon: number }, time?: number): string {
  return toSentences(encodePositionA({ sog: 10, cog: 90, heading: 90, navStatus: 0, ...p }), time === undefined ? {} : { time })[0]!;
}

/** A type 5 report: two sentences. */
export function staticLines(s: Partial<EncodeStatic> & { mmsi: number }, sequenceId = 1): string[] {
  return toSentences(
    encodeStatic({ imo: null, callsign: "", shipname: "", shipType: 70, toBow: 0, toStern: 0, toPort: 0, toStarboard: 0, destination: "", ...s }),
    { sequenceId },
  );
}

export interface TcpExchange {
  /** Everything the server wrote. */
  output: string;
  /** The last ACK count, or -1. */
  acked: number;
}

/**
 * One TCP connection: writes `payload` (in the given pieces, to exercise chunk boundaries),
 * half-closes, and collects the server's answer until it closes.
 */
export function tcpExchange(port: number, pieces: (string | Buffer)[], options: { end?: boolean; timeoutMs?: number } = {}): Promise<TcpExchange> {
  return new Promise((resolve, reject) => {
    const s = connect({ port, host: "127.0.0.1" });
    let output = "";
    const timer = setTimeout(() => {
      s.destroy();
      resolve(result());
    }, options.timeoutMs ?? 10_000);
    const result = (): TcpExchange => {
      const acks = [...output.matchAll(/ACK (\d+)\n/g)];
      return { output, acked: acks.length > 0 ? Number(acks.at(-1)![1]) : -1 };
    };
    s.setEncoding("latin1");
    s.on("data", (d: string) => {
      output += d;
    });
    s.on("error", () => {});
    s.on("close", () => {
      clearTimeout(timer);
      resolve(result());
    });
    s.on("connect", async () => {
      try {
        for (const p of pieces) {
          s.write(p);
          await new Promise((r) => setImmediate(r));
        }
        if (options.end !== false) s.end();
      } catch (e) {
        reject(e);
      }
    });
  });
}

/** Deterministic pseudo-random bytes (xorshift), so a failing garbage test can be replayed. */
export function garbage(seed: number, length: number): Buffer {
  let x = seed >>> 0 || 1;
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 255;
  }
  return out;
}

export async function positionsOf(t: TestService, stationId: number): Promise<number> {
  await t.service.ingest.pipeline.flush();
  return t.service.services.positions.countPositions(stationId);
}

export async function totalPositions(t: TestService): Promise<number> {
  await t.service.ingest.pipeline.flush();
  const r = await t.service.store.db.selectFrom("positions").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function metricsText(t: TestService): Promise<string> {
  return (await t.service.app.inject({ method: "GET", url: "/metrics" })).body;
}

/** The value of one Prometheus series (0 when absent). */
export function metric(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}
