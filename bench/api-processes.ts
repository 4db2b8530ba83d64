/**
 * One API process against two, on PostgreSQL + Redis (the scaled deployment): the same
 * port-page calls through the full pipeline, 50 connections in all, split evenly over the
 * processes; rounds alternate between one and two, medians of the rounds. On two cores the
 * load generator, PostgreSQL and Redis share the machine with the API processes, so this
 * shows how far a second process helps here, not on a machine with room for it.
 *
 *   DATABASE_URL=postgres://... REDIS_URL=redis://... npx node bench/api-processes.ts [seconds-per-round] [rounds]
 */
import type { ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import { startChild, stop } from "./child-server.ts";
import { percentile } from "./percentile.ts";
import { scratchDatabase } from "./scratch-database.ts";

if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
  process.stderr.write("api-processes: set DATABASE_URL and REDIS_URL\n");
  process.exit(1);
}
const seconds = Number(process.argv[2] ?? 8);
const rounds = Number(process.argv[3] ?? 3);
const CONNECTIONS = 50;
const PORTS = ["NLRTM", "BEANR", "DEHAM", "SGSIN", "CNSGH", "USLAX", "GBFXT", "JPYOK"];
// One scratch database and one Redis namespace for the processes of the run, as one deployment has.
const scratch = await scratchDatabase(process.env.DATABASE_URL);
const env = { ...process.env, DATABASE_URL: scratch.url, BENCH_REDIS_PREFIX: `mds-bench-api-${process.pid}` };

async function start(): Promise<{ child: ChildProcess; url: string; keys: string[] }> {
  const { child, ready } = await startChild("./pipeline-server.ts", ["postgres+redis"], env);
  return { child, url: ready.url as string, keys: ready.keys as string[] };
}

async function load(targets: { url: string; keys: string[] }[]): Promise<{ rps: number; p99: number; non2xx: number }> {
  const results = await Promise.all(
    targets.map((t) => {
      let i = 0;
      return autocannon({
        url: t.url,
        connections: CONNECTIONS / targets.length,
        duration: seconds,
        requests: [{ setupRequest: (req: Record<string, any>) => ({ ...req, path: `/api/v1/ports/${PORTS[++i % PORTS.length]}`, headers: { authorization: `Bearer ${t.keys[i % t.keys.length]}` } }) }],
      });
    }),
  );
  return { rps: results.reduce((a, r) => a + r.requests.average, 0), p99: Math.max(...results.map((r) => r.latency.p99)), non2xx: results.reduce((a, r) => a + r.non2xx, 0) };
}

const a = await start();
const b = await start();
await load([a, b]); // warm-up
const one: Awaited<ReturnType<typeof load>>[] = [];
const two: Awaited<ReturnType<typeof load>>[] = [];
for (let r = 0; r < rounds; r++) {
  one.push(await load([a]));
  two.push(await load([a, b]));
}
await Promise.all([a, b].map(({ child }) => stop(child)));
await scratch.drop();
const row = (name: string, xs: typeof one) =>
  `| ${name} | ${Math.round(percentile(xs.map((x) => x.rps), 50))} | ${percentile(xs.map((x) => x.p99), 50)} | ${xs.reduce((s, x) => s + x.non2xx, 0)} |`;
console.warn(`${CONNECTIONS} connections in all, ${rounds} rounds of ${seconds} s, medians`);
process.stdout.write(["| API processes | req/s (sum) | p99 ms (worst) | non-2xx |", "|---|---|---|---|", row("1", one), row("2", two)].join("\n") + "\n");
