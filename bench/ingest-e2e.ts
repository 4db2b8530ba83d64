// End-to-end AIS ingest: a simulated station sends NMEA into the running service over TCP
// and over signed UDP, and as an off-the-shelf receiver would, plain NMEA to the station's
// own port over UDP and TCP (no AUTH, no signature); we count the positions stored per second, on SQLite and (when
// DATABASE_URL is set) PostgreSQL, side by side in one run.
//
//   npx node bench/ingest-e2e.ts [--positions 200000] [--udp-lines 10] [--udp-rate 40000] [--engine sqlite|postgres]
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx node bench/ingest-e2e.ts
//
// The service is the real one (createService: pipeline, listeners, store) in this process;
// the station is a worker thread, so sender and receiver do not share an event loop.
// Input: `--positions` Class A reports from 20,000 vessels, each line with a tag-block
// time (so every fix has its own (mmsi, time) key and none is a duplicate), encoded with
// src/domain/ais/encode.ts. TCP: AUTH, every line, half-close, wait for the final ACK
// (sent after the last batch is committed); stored must equal acknowledged. UDP: signed
// datagrams of `--udp-lines` lines, once paced at `--udp-rate` positions/s and once as
// fast as the worker can send; losses (kernel drops) are counted from the datagrams
// received and the fixes stored.

import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

interface Job {
  kind: "tcp" | "udp" | "plain-udp" | "plain-tcp";
  port: number;
  stationId: number;
  secret: string;
  lines: string[];
  udpLines: number;
  /** Positions per second the UDP sender keeps to; 0: as fast as it can. */
  udpRate: number;
}

interface Sent {
  sent: number;
  acked: number;
  datagrams: number;
  /** When the first byte went out (epoch ms, high resolution): the worker's start-up is not timed. */
  startedAt: number;
}

const clock = () => performance.timeOrigin + performance.now();

async function station(job: Job): Promise<Sent> {
  let startedAt = 0;
  if (job.kind === "plain-tcp") {
    // AIS-catcher -P: connect, write lines, nothing to read.
    const { connect } = await import("node:net");
    return new Promise((resolve, reject) => {
      const s = connect({ host: "127.0.0.1", port: job.port, noDelay: true });
      s.on("error", reject);
      s.on("close", () => resolve({ sent: job.lines.length, acked: 0, datagrams: 0, startedAt }));
      s.on("connect", async () => {
        startedAt = clock();
        for (let at = 0; at < job.lines.length; at += 1_000) {
          const ok = s.write(`${job.lines.slice(at, at + 1_000).join("\r\n")}\r\n`);
          if (!ok) await new Promise((r) => s.once("drain", r));
        }
        s.end();
      });
    });
  }
  if (job.kind === "tcp") {
    const { connect } = await import("node:net");
    return new Promise((resolve, reject) => {
      const s = connect({ host: "127.0.0.1", port: job.port, noDelay: true });
      let text = "";
      let acked = 0;
      s.setEncoding("latin1");
      s.on("data", (d: string) => {
        text += d;
        const m = [...text.matchAll(/ACK (\d+)\n/g)];
        if (m.length > 0) acked = Number(m.at(-1)![1]);
        text = text.slice(text.lastIndexOf("\n") + 1);
      });
      s.on("error", reject);
      s.on("close", () => resolve({ sent: job.lines.length, acked, datagrams: 0, startedAt }));
      s.on("connect", async () => {
        startedAt = clock();
        s.write(`AUTH ${job.secret}\n`);
        // Writes of ~64 KB, waiting for 'drain' as a forwarder would.
        for (let at = 0; at < job.lines.length; at += 1_000) {
          const ok = s.write(`${job.lines.slice(at, at + 1_000).join("\r\n")}\r\n`);
          if (!ok) await new Promise((r) => s.once("drain", r));
        }
        s.end();
      });
    });
  }
  const { createSocket } = await import("node:dgram");
  const { signDatagram, udpKeyFromSecret } = await import("../src/adapters/ingest/udp-signature.ts");
  const sock = createSocket("udp4");
  const key = udpKeyFromSecret(job.secret);
  let datagrams = 0;
  let inflight = 0;
  startedAt = clock();
  const t0 = performance.now();
  for (let at = 0, seq = 0; at < job.lines.length; at += job.udpLines, seq++) {
    const chunk = job.lines.slice(at, at + job.udpLines);
    const msg = job.kind === "plain-udp" ? Buffer.from(`${chunk.join("\r\n")}\r\n`, "latin1") : signDatagram(key, job.stationId, Math.floor(Date.now() / 1000), seq, chunk);
    inflight++;
    sock.send(msg, job.port, "127.0.0.1", () => inflight--);
    datagrams++;
    // Let the socket drain its send queue now and then, as a real sender's loop would,
    // and keep to the rate when one is set.
    if (datagrams % 16 === 0) {
      if (job.udpRate > 0) {
        const due = t0 + ((at + job.udpLines) / job.udpRate) * 1000;
        const wait = due - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        else await new Promise((r) => setImmediate(r));
      } else await new Promise((r) => setImmediate(r));
    }
  }
  while (inflight > 0) await new Promise((r) => setImmediate(r));
  sock.close();
  return { sent: job.lines.length, acked: 0, datagrams, startedAt };
}

if (!isMainThread) {
  station(workerData as Job).then((r) => parentPort!.postMessage(r));
} else {
  await main();
}

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? (process.argv[i + 1] as string) : dflt;
}

async function main() {
  const { encodePositionA, toSentences } = await import("../src/domain/ais/encode.ts");
  const { scratchService } = await import("./scratch-database.ts");
  const total = Number(arg("positions", "200000"));
  const udpLines = Number(arg("udp-lines", "10"));
  const udpRate = Number(arg("udp-rate", "40000"));
  const VESSELS = 20_000;
  const T0 = Date.parse("2026-11-20T00:00:00Z");

  /** Report k of vessel v at T0 + k s: unique keys; positions spread over the Baltic. */
  function lines(firstMmsi: number): string[] {
    const out: string[] = [];
    for (let i = 0; i < total; i++) {
      const v = i % VESSELS;
      const k = Math.floor(i / VESSELS);
      const p = encodePositionA({ mmsi: firstMmsi + v, lat: 55 + (v % 100) / 10 + k * 0.001, lon: 10 + Math.floor(v / 100) / 10, sog: 12.3, cog: 45, heading: 44, navStatus: 0, second: k % 60 });
      out.push(toSentences(p, { time: T0 + k * 1_000 })[0]!);
    }
    return out;
  }

  const only = arg("engine", "");
  const engines: { name: string; url?: string }[] = [{ name: "sqlite" }];
  if (process.env.DATABASE_URL) engines.push({ name: "postgres", url: process.env.DATABASE_URL });
  if (only !== "") engines.splice(0, engines.length, ...engines.filter((e) => e.name === only));
  const w = (s: string) => process.stdout.write(`${s}\n`);
  w(`node ${process.version}; ${total.toLocaleString("en")} position reports per run, ${VESSELS.toLocaleString("en")} vessels; UDP ${udpLines} lines per datagram`);
  w("");
  w("| engine | transport | sent | acknowledged | datagrams sent / received | stored | lost | seconds | positions stored/s |");
  w("|---|---|---|---|---|---|---|---|---|");

  for (const engine of engines) {
    const plainFrom = await freePortRange(4);
    const scratch = await scratchService(engine.url, "ingest", { INGEST_PLAIN_PORTS: `${plainFrom}-${plainFrom + 3}` });
    const service = scratch.service;
    const { tcpPort, udpPort } = await service.ingest.listen({ host: "127.0.0.1", tcpPort: 0, udpPort: 0 });
    const account = await service.services.accounts.createAccount({ name: "bench", webPlan: "pro", apiPlan: null });

    const runs: { kind: Job["kind"]; rate: number }[] = [
      { kind: "tcp", rate: 0 },
      { kind: "plain-tcp", rate: 0 },
      { kind: "udp", rate: udpRate },
      { kind: "plain-udp", rate: udpRate },
      { kind: "udp", rate: 0 },
      { kind: "plain-udp", rate: 0 },
    ];
    for (const [i, { kind, rate }] of runs.entries()) {
      const plain = kind.startsWith("plain");
      const { station: st, secret } = await service.services.stations.createStation(account.id, `bench ${kind}`, { plainPort: plain });
      if (plain) await service.ingest.startReceivers(() => service.services.stations.receiverStations(), { host: "127.0.0.1" }).then((r) => r.reconcile());
      const port = plain ? st.plainPort! : kind === "tcp" ? tcpPort! : udpPort!;
      const job: Job = { kind, port, stationId: st.id, secret, lines: lines(200_000_000 + i * 1_000_000), udpLines, udpRate: rate };
      const before = service.ingest.udp!.datagrams();
      const sent = await new Promise<Sent>((resolve, reject) => {
        const worker = new Worker(new URL(import.meta.url), { workerData: job });
        worker.once("message", resolve);
        worker.once("error", reject);
      });
      // UDP and plain TCP have no ACK: the end is when the last line has been handled and written.
      if (kind !== "tcp") await new Promise((r) => setTimeout(r, 100));
      await service.ingest.pipeline.flush();
      const sec = (clock() - sent.startedAt) / 1000;
      const stored = await service.services.positions.countPositions(st.id);
      const received = service.ingest.udp!.datagrams() - before;
      const lost = sent.sent - stored;
      w(
        `| ${engine.name} | ${kind}${kind.endsWith("udp") ? (rate > 0 ? `, paced ${rate.toLocaleString("en")}/s` : ", unpaced") : ""} | ${sent.sent.toLocaleString("en")} | ${kind === "tcp" ? sent.acked.toLocaleString("en") : "-"} | ${kind === "udp" ? `${sent.datagrams.toLocaleString("en")} / ${received.toLocaleString("en")}` : kind === "plain-udp" ? `${sent.datagrams.toLocaleString("en")} / -` : "-"} | ${stored.toLocaleString("en")} | ${lost.toLocaleString("en")}${lost > 0 ? ` (${((lost / sent.sent) * 100).toFixed(1)}%)` : ""} | ${sec.toFixed(2)} | ${Math.round(stored / sec).toLocaleString("en")} |`,
      );
      if (kind === "tcp" && stored !== sent.acked) w(`  !! ${engine.name}: ${sent.acked - stored} acknowledged lines not stored`);
    }
    await scratch.close();
  }
}

/** The first of `n` consecutive ports free for TCP and UDP on 127.0.0.1 (stations' plain ports are allocated from a range). */
async function freePortRange(n: number): Promise<number> {
  const { createServer } = await import("node:net");
  const { createSocket } = await import("node:dgram");
  const free = async (port: number) => {
    const tcp = createServer();
    const okTcp = await new Promise<boolean>((resolve) => {
      tcp.once("error", () => resolve(false));
      tcp.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (okTcp) await new Promise((r) => tcp.close(r));
    if (!okTcp) return false;
    const udp = createSocket("udp4");
    const okUdp = await new Promise<boolean>((resolve) => {
      udp.once("error", () => resolve(false));
      udp.bind(port, "127.0.0.1", () => resolve(true));
    });
    if (okUdp) await new Promise<void>((r) => udp.close(() => r()));
    return okUdp;
  };
  for (let from = 40_000 + Math.floor(Math.random() * 20_000); ; from += n) {
    let all = true;
    for (let p = from; p < from + n && all; p++) all = await free(p);
    if (all) return from;
  }
}
