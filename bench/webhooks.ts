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
 * work shares the CPU with the sender's: the absolute figures are a floor.
 *
 *   npx node bench/webhooks.ts [deliveries=5000] [rounds=3]
 *   DATABASE_URL=postgres://... npx node bench/webhooks.ts     # also on PostgreSQL
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
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
import { percentile } from "./percentile.ts";
import { scratchDatabase } from "./scratch-database.ts";

const N = Number(process.argv[2] ?? 5000);
const ROUNDS = Number(process.argv[3] ?? 3);
const CONCURRENCY = 64;
const ADDRESS = "127.0.0.12";
const URL_ = `https://hooks.example.test:8443/bench`;
const BODY = JSON.stringify({ id: "evt_1", type: "alert.zone_enter", data: { alert: { text: "x".repeat(900) } } });

async function pool(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

async function baseline(ca: string): Promise<number> {
  const agent = new Agent({ connect: { ca, lookup: (_h, _o, cb) => cb(null, [{ address: ADDRESS, family: 4 }]) } });
  const t0 = performance.now();
  await pool(N, CONCURRENCY, async () => {
    const r = await request(URL_, { method: "POST", dispatcher: agent, body: BODY, headers: { "content-type": "application/json" } });
    await r.body.dump();
    if (r.statusCode !== 204) throw new Error(`baseline got ${r.statusCode}`);
  });
  const rate = N / ((performance.now() - t0) / 1000);
  await agent.close();
  return rate;
}

async function clientOnly(transport: DeliveryTransport): Promise<number> {
  const claim: ClaimedDelivery = { deliveryId: 1, attempt: 1, deliveryUuid: "", leaseToken: "", trigger: "auto", tries: 0, resumeStatus: null, eventId: 1, eventType: "alert.zone_enter", body: BODY, endpointId: 1, accountId: "a", url: URL_, secrets: ["whsec_benchbenchbenchbenchbenchbench01"] };
  const t0 = performance.now();
  await pool(N, CONCURRENCY, async (i) => {
    const r = await transport.send({ url: URL_, body: BODY, headers: deliveryHeaders({ ...claim, deliveryUuid: String(i) }, Date.now(), "Service-Webhooks/1 (bench)") });
    if (!r.success) throw new Error(`client got ${r.statusCode} ${r.error}`);
  });
  return N / ((performance.now() - t0) / 1000);
}

async function worker(location: StoreLocation, transport: DeliveryTransport, round: number): Promise<{ rate: number; emitMs: number }> {
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
    const t0 = performance.now();
    w.start();
    await finished;
    const rate = N / ((performance.now() - t0) / 1000);
    await w.stop();
    return { rate, emitMs };
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
const base: number[] = [];
const client: number[] = [];
const work = new Map<string, number[]>(engines.map((e) => [e.name, []]));
const emits = new Map<string, number[]>(engines.map((e) => [e.name, []]));
await baseline(pki.ca); // warm-up: TLS sessions, JIT
for (let round = 0; round < ROUNDS; round++) {
  base.push(await baseline(pki.ca));
  client.push(await clientOnly(transport));
  for (const e of engines) {
    const r = await worker(e.location, transport, round);
    work.get(e.name)!.push(r.rate);
    emits.get(e.name)!.push(r.emitMs);
  }
  process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
}
const b = median(base);
rows.push(`| baseline: plain undici POST | ${Math.round(b)} | 100% |`);
rows.push(`| delivery client (checks + HMAC), no store | ${Math.round(median(client))} | ${((median(client) / b) * 100).toFixed(0)}% |`);
for (const e of engines) {
  const w = median(work.get(e.name)!);
  rows.push(`| worker on ${e.name}: claim, sign, send, record | ${Math.round(w)} | ${((w / b) * 100).toFixed(0)}% |`);
}
process.stdout.write(`${N} deliveries per run, concurrency ${CONCURRENCY}, median of ${ROUNDS} rounds\n\n| path | deliveries/s | of baseline |\n|---|---|---|\n${rows.join("\n")}\n`);
for (const e of engines) process.stdout.write(`recording ${N} alerts with their deliveries (${e.name}): median ${Math.round(median(emits.get(e.name)!))} ms\n`);
await transport.close();
await receiver.close();
for (const e of engines) await e.drop?.();
rmSync(dir, { recursive: true, force: true });
