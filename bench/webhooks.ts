/**
 * Webhook delivery throughput: signed deliveries per second from the deliveries table to a
 * local HTTPS receiver, side by side with baselines against the same receiver:
 *
 *   baseline   plain undici POSTs (keep-alive Agent, the same concurrency), no signing, no store
 *   client     the delivery client alone: URL checks, connect-time address checks, HMAC per request
 *   worker     the whole path: claim with a lease, sign, send, record the outcome, on the store
 *
 * The receiver runs in this process on 127.0.0.12:8443 with a test CA made by openssl, like
 * the tests (test/helpers/webhooks.ts), and answers 204. One process, so the receiver's
 * work shares the CPU with the sender's: the absolute figures are a floor. Beside each rate
 * goes the CPU time it cost per 1,000 deliveries, of this process and (for the worker on
 * PostgreSQL) of the database's backends: on a shared machine the rates move with the load,
 * the CPU per delivery much less.
 *
 *   npx node bench/webhooks.ts [deliveries=5000] [rounds=3]
 *   DATABASE_URL=postgres://... npx node bench/webhooks.ts     # also on PostgreSQL
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import { DeliveryTransport } from "../src/adapters/webhooks/http-client.ts";
import { deliveryHeaders, DeliveryWorker } from "../src/adapters/webhooks/worker.ts";
import { openStore, type Store, type StoreLocation } from "../src/adapters/storage/database.ts";
import { SqlWebhookStore } from "../src/adapters/storage/alerts/webhooks-store.ts";
import { SecretBox } from "../src/adapters/storage/accounts/secret-box.ts";
import { SqlAccountStore } from "../src/adapters/storage/accounts/accounts-store.ts";
import { systemClock } from "../src/interfaces/clock.ts";
import type { ClaimedDelivery, NewAlert } from "../src/interfaces/webhooks.ts";
import { mapResolver, policyAllowing, startReceiver, testPki } from "../test/helpers/webhooks.ts";
import { cpuMs } from "./process-cpu.ts";
import { percentile } from "./percentile.ts";
import { scratchDatabase } from "./scratch-database.ts";

const N = Number(process.argv[2] ?? 5000);
const ROUNDS = Number(process.argv[3] ?? 3);
const CONCURRENCY = 64;
const ADDRESS = "127.0.0.12";
const URL_ = `https://hooks.example.test:8443/bench`;
const BODY = JSON.stringify({ id: "evt_1", type: "alert.zone_enter", data: { alert: { text: "x".repeat(900) } } });

/** The PostgreSQL backends connected to database `name`. */
function backendPids(name: string): number[] {
  try {
    return readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/comm`, "utf8").startsWith("postgres") && readFileSync(`/proc/${d}/cmdline`, "utf8").includes(` ${name} `);
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

/** CPU (ms) this process, and the backends of database `db` if given, use from now on; per backend, so one that exits subtracts nothing. */
function cpuMeter(db: string | null): () => { own: number; db: number } {
  const own0 = process.cpuUsage();
  const db0 = new Map(db === null ? [] : backendPids(db).map((pid) => [pid, cpuMs(pid)]));
  return () => {
    const own = process.cpuUsage(own0);
    const used = db === null ? 0 : backendPids(db).reduce((sum, pid) => sum + Math.max(0, cpuMs(pid) - (db0.get(pid) ?? 0)), 0);
    return { own: (own.user + own.system) / 1000, db: used };
  };
}

interface Run {
  rate: number;
  /** CPU ms per 1,000 deliveries: this process, the database's backends. */
  cpu: { own: number; db: number };
}

const perThousand = (c: { own: number; db: number }): { own: number; db: number } => ({ own: (c.own / N) * 1000, db: (c.db / N) * 1000 });

async function pool(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

/**
 * One keep-alive pool for every baseline run, as the delivery transport keeps one for all of
 * its runs: a pool per run paid its TLS handshakes again in every round, which the worker's
 * rows did not, and so flattered them.
 */
async function baseline(agent: Agent): Promise<Run> {
  const cpu = cpuMeter(null);
  const t0 = performance.now();
  await pool(N, CONCURRENCY, async () => {
    const r = await request(URL_, { method: "POST", dispatcher: agent, body: BODY, headers: { "content-type": "application/json" } });
    await r.body.dump();
    if (r.statusCode !== 204) throw new Error(`baseline got ${r.statusCode}`);
  });
  const rate = N / ((performance.now() - t0) / 1000);
  return { rate, cpu: perThousand(cpu()) };
}

async function clientOnly(transport: DeliveryTransport): Promise<Run> {
  const claim: ClaimedDelivery = { deliveryId: 1, attempt: 1, deliveryUuid: "", leaseToken: "", trigger: "auto", tries: 0, resumeStatus: null, eventId: 1, eventType: "alert.zone_enter", body: BODY, endpointId: 1, accountId: "a", url: URL_, secrets: ["whsec_benchbenchbenchbenchbenchbench01"] };
  const cpu = cpuMeter(null);
  const t0 = performance.now();
  await pool(N, CONCURRENCY, async (i) => {
    const r = await transport.send({ url: URL_, body: BODY, headers: deliveryHeaders({ ...claim, deliveryUuid: String(i) }, Date.now(), "Service-Webhooks/1 (bench)") });
    if (!r.success) throw new Error(`client got ${r.statusCode} ${r.error}`);
  });
  const rate = N / ((performance.now() - t0) / 1000);
  return { rate, cpu: perThousand(cpu()) };
}

async function worker(location: StoreLocation, transport: DeliveryTransport, round: number): Promise<Run & { emitMs: number }> {
  const store: Store = await openStore(location);
  try {
    const webhooks = new SqlWebhookStore(store.db, store.dialect, new SecretBox(randomBytes(32)));
    const account = await new SqlAccountStore(store.db, systemClock).createAccount({ name: `bench ${round}`, webPlan: "pro", apiPlan: null });
    const ep = await webhooks.createEndpoint(account.id, { url: URL_, description: null, events: null }, "whsec_benchbenchbenchbenchbenchbench01", 5, Date.now());
    if (!ep.ok) throw new Error("no endpoint");
    const e0 = performance.now();
    for (let i = 0; i < N; i += 500) {
      const alerts: NewAlert[] = Array.from({ length: Math.min(500, N - i) }, (_, k) => ({
        accountId: account.id,
        type: "zone_enter",
        occurredAt: Date.now(),
        dedupeKey: `bench:${round}:${randomBytes(6).toString("hex")}:${i + k}`,
        detail: {},
        body: ({ eventId }) => BODY.replace("evt_1", `evt_${eventId}`),
      }));
      await webhooks.emitAlerts(alerts, Date.now());
    }
    const emitMs = performance.now() - e0;
    let done = 0;
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((r) => (finish = r));
    const w = new DeliveryWorker(webhooks, transport, systemClock, {
      userAgent: "Service-Webhooks/1 (bench)",
      concurrency: CONCURRENCY,
      batchSize: 100,
      pollMs: 20,
      onAttempt: (_c, r) => {
        if (!r.success) throw new Error(`worker got ${r.statusCode} ${r.error}`);
        if (++done === N) finish();
      },
    });
    const cpu = cpuMeter(location.engine === "postgres" ? new URL(location.url).pathname.slice(1) : null);
    const t0 = performance.now();
    w.start();
    await finished;
    const rate = N / ((performance.now() - t0) / 1000);
    const used = cpu();
    await w.stop();
    return { rate, cpu: perThousand(used), emitMs };
  } finally {
    await store.close();
  }
}

const pki = testPki();
const receiver = await startReceiver(ADDRESS);
const transport = new DeliveryTransport({ resolver: mapResolver({ "hooks.example.test": ADDRESS }), policy: policyAllowing(`${ADDRESS}/32`), ca: pki.ca });
const dir = mkdtempSync(join(tmpdir(), "mds-bench-webhooks-"));
const engines: { name: string; location: StoreLocation; drop?: () => Promise<void> }[] = [{ name: "sqlite", location: { engine: "sqlite", file: join(dir, "mds.sqlite") } }];
if (process.env.DATABASE_URL) {
  const db = await scratchDatabase(process.env.DATABASE_URL);
  engines.push({ name: "postgres", location: { engine: "postgres", url: db.url }, drop: db.drop });
}

const median = (xs: number[]) => percentile(xs, 50);
const rows: string[] = [];
const base: Run[] = [];
const client: Run[] = [];
const work = new Map<string, Run[]>(engines.map((e) => [e.name, []]));
const emits = new Map<string, number[]>(engines.map((e) => [e.name, []]));
const baselineAgent = new Agent({ connect: { ca: pki.ca, lookup: (_h, _o, cb) => cb(null, [{ address: ADDRESS, family: 4 }]) } });
await baseline(baselineAgent); // warm-up: TLS sessions, JIT
for (let round = 0; round < ROUNDS; round++) {
  base.push(await baseline(baselineAgent));
  client.push(await clientOnly(transport));
  for (const e of engines) {
    const r = await worker(e.location, transport, round);
    work.get(e.name)!.push(r);
    emits.get(e.name)!.push(r.emitMs);
  }
  process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
}
const row = (name: string, runs: Run[], b: number): string => {
  const rate = median(runs.map((r) => r.rate));
  const own = Math.round(median(runs.map((r) => r.cpu.own)));
  const db = Math.round(median(runs.map((r) => r.cpu.db)));
  return `| ${name} | ${Math.round(rate)} | ${((rate / b) * 100).toFixed(0)}% | ${own} | ${db || "-"} |`;
};
const b = median(base.map((r) => r.rate));
rows.push(row("baseline: plain undici POST", base, b));
rows.push(row("delivery client (checks + HMAC), no store", client, b));
for (const e of engines) rows.push(row(`worker on ${e.name}: claim, sign, send, record`, work.get(e.name)!, b));
process.stdout.write(
  `${N} deliveries per run, concurrency ${CONCURRENCY}, median of ${ROUNDS} rounds; CPU ms per 1,000 deliveries of this process (sender and receiver) and of the database's backends\n\n| path | deliveries/s | of baseline | CPU ms / 1k, process | CPU ms / 1k, PostgreSQL |\n|---|---|---|---|---|\n${rows.join("\n")}\n`,
);
for (const e of engines) process.stdout.write(`recording ${N} alerts with their deliveries (${e.name}): median ${Math.round(median(emits.get(e.name)!))} ms\n`);
await transport.close();
await baselineAgent.close();
await receiver.close();
for (const e of engines) await e.drop?.();
rmSync(dir, { recursive: true, force: true });
