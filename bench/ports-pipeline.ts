/**
 * GET /api/v1/ports/{unlocode} through the full pipeline (key, rate limit, credits,
 * rights, envelope) against bare node:http serving a static body of the same size,
 * side by side in one run, on SQLite and (with DATABASE_URL) PostgreSQL, and (with REDIS_URL
 * too) PostgreSQL with the Redis credit ledger and rate limiter of a scaled deployment.
 *
 *   npx node bench/ports-pipeline.ts [seconds-per-round] [rounds]
 *
 * Each server runs in its own process; autocannon drives it from this one with 50 connections.
 * Beside throughput, each row gives the CPU time per request of the server, and of Redis and
 * PostgreSQL together (read from /proc, so Linux only): on a shared machine it moves far less.
 *
 * BENCH_CPU_PROF_DIR=<dir> writes a V8 CPU profile of each pipeline server into <dir> when it
 * stops (node --cpu-prof), to see where a call's time goes.
 */
import { readdirSync, readFileSync } from "node:fs";
import autocannon from "autocannon";
import { startChild, stop } from "./child-server.ts";
import { cpuMs } from "./process-cpu.ts";
import { percentile } from "./percentile.ts";
import { scratchDatabase } from "./scratch-database.ts";

const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 3);
const CONNECTIONS = 50;
// Real ports of each coordinate source (unlocode, wpi, geoapify-withheld); CNSHA is an airport, Shanghai port is CNSGH.
const PORTS = ["NLRTM", "BEANR", "DEHAM", "SGSIN", "CNSGH", "USLAX", "GBFXT", "JPYOK"];

interface Round {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** CPU time per answered request (µs) of the server process, and of Redis and PostgreSQL together. */
  serverCpuUs: number;
  /** The server's CPU per request split: its main thread's user and system time, its other threads'. */
  split: { mainUser: number; mainSystem: number; others: number };
  storesCpuUs: number;
}

/**
 * CPU time (ms) of a process's threads, from /proc (Linux): the main thread's user and system
 * time apart, and the other threads' (V8's garbage collection and compiler helpers, libuv's
 * pool) together. A CPU profile samples the main thread only; this says how much it leaves out.
 */
function threadCpuMs(pid: number): { mainUser: number; mainSystem: number; others: number } {
  const out = { mainUser: 0, mainSystem: 0, others: 0 };
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ");
      const user = Number(fields[11]) * 10;
      const system = Number(fields[12]) * 10;
      if (Number(tid) === pid) {
        out.mainUser += user;
        out.mainSystem += system;
      } else out.others += user + system;
    }
  } catch {
    // The process is gone: nothing to add.
  }
  return out;
}

/** The processes of Redis and PostgreSQL on this machine (they serve the pipeline's stores). */
function storePids(): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return /^(redis-server|postgres)/.test(readFileSync(`/proc/${d}/comm`, "utf8"));
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function load(url: string, keys: string[] | null, serverPid: number): Promise<Round> {
  let i = 0;
  // Per process, so a PostgreSQL backend that exits during the round subtracts nothing.
  const stores0 = new Map(storePids().map((pid) => [pid, cpuMs(pid)]));
  const storesUsed = () => [...stores0].reduce((sum, [pid, before]) => sum + Math.max(0, cpuMs(pid) - before), 0);
  const server0 = cpuMs(serverPid);
  const threads0 = threadCpuMs(serverPid);
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        setupRequest: (req: Record<string, any>) => {
          i++;
          const path = keys ? `/api/v1/ports/${PORTS[i % PORTS.length]}` : "/";
          return { ...req, path, headers: keys ? { authorization: `Bearer ${keys[i % keys.length]}` } : {} };
        },
      },
    ],
  });
  const perRequestUs = (ms: number) => Math.round((ms * 1000) / Math.max(1, r.requests.total));
  const threads1 = threadCpuMs(serverPid);
  const split = { mainUser: perRequestUs(threads1.mainUser - threads0.mainUser), mainSystem: perRequestUs(threads1.mainSystem - threads0.mainSystem), others: perRequestUs(threads1.others - threads0.others) };
  return {
    split, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, serverCpuUs: perRequestUs(cpuMs(serverPid) - server0), storesCpuUs: perRequestUs(storesUsed()) };
}

const median = (xs: number[]) => percentile(xs, 50);

const available = process.env.DATABASE_URL ? ["sqlite", "postgres", ...(process.env.REDIS_URL ? ["postgres+redis"] : [])] : ["sqlite"];
// BENCH_ENGINES=postgres,postgres+redis runs some of them.
const engines = process.env.BENCH_ENGINES ? available.filter((e) => process.env.BENCH_ENGINES!.split(",").includes(e)) : available;
const lines: string[] = [];
for (const engine of engines) {
  // A scratch database per engine beside DATABASE_URL: the bench never migrates a database it was pointed at.
  const scratch = engine === "sqlite" ? null : await scratchDatabase(process.env.DATABASE_URL!);
  const profile = process.env.BENCH_CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
  const svc = await startChild("./pipeline-server.ts", [engine], scratch ? { ...process.env, DATABASE_URL: scratch.url } : process.env, profile);
  const bare = await startChild("./bare-server.ts", [svc.ready.body]);
  const pipe: Round[] = [];
  const base: Round[] = [];
  await load(svc.ready.url, svc.ready.keys, svc.child.pid!); // warm-up
  for (let r = 0; r < rounds; r++) {
    // Alternate so drift in the machine's load hits both sides alike.
    base.push(await load(bare.ready.url, null, bare.child.pid!));
    pipe.push(await load(svc.ready.url, svc.ready.keys, svc.child.pid!));
  }
  await stop(svc.child);
  bare.child.kill("SIGTERM");
  await scratch?.drop();
  const p = {
    rps: median(pipe.map((x) => x.rps)),
    p99: median(pipe.map((x) => x.p99)),
    non2xx: pipe.reduce((a, x) => a + x.non2xx, 0),
    serverCpuUs: median(pipe.map((x) => x.serverCpuUs)),
    storesCpuUs: median(pipe.map((x) => x.storesCpuUs)),
    split: {
      mainUser: median(pipe.map((x) => x.split.mainUser)),
      mainSystem: median(pipe.map((x) => x.split.mainSystem)),
      others: median(pipe.map((x) => x.split.others)),
    },
  };
  const b = { rps: median(base.map((x) => x.rps)), p99: median(base.map((x) => x.p99)), serverCpuUs: median(base.map((x) => x.serverCpuUs)) };
  lines.push(
    `| ${engine} | ${Math.round(p.rps)} | ${p.p99} | ${Math.round(b.rps)} | ${b.p99} | ${((100 * p.rps) / b.rps).toFixed(1)}% | ${p.non2xx} | ${p.serverCpuUs} (${p.split.mainUser} + ${p.split.mainSystem} + ${p.split.others}) | ${p.storesCpuUs} | ${b.serverCpuUs} |`,
  );
}
console.warn(`body ${CONNECTIONS} connections, ${rounds} rounds of ${seconds} s, medians`);
process.stdout.write(
  [
    "| engine | pipeline req/s | pipeline p99 ms | bare node:http req/s | bare p99 ms | ratio | pipeline non-2xx | pipeline CPU µs/req (main thread user + system + other threads) | Redis + PostgreSQL CPU µs/req | bare CPU µs/req |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...lines,
  ].join("\n") + "\n",
);
