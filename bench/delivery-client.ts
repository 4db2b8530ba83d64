/**
 * What the webhook delivery client costs above a plain POST: CPU per delivery of this process
 * (sender and a local HTTPS receiver) for plain undici POSTs and for signed deliveries through
 * `DeliveryTransport`, in short runs that alternate many times in one process, medians.
 *
 *   npx node bench/delivery-client.ts [deliveries-per-run=2000] [runs-each=15]
 *
 * bench/webhooks.ts measures the whole worker in rates; on a shared machine those move by a
 * quarter from run to run. CPU per delivery, taken in alternating runs after a warm-up, moves
 * much less, so a change of a few microseconds to the client shows here. The receiver is
 * in this process: its work is counted on both sides (more of it for the client's requests,
 * which carry more headers).
 */
import { Agent, request } from "undici";
import { DeliveryTransport } from "../src/adapters/webhooks/http-client.ts";
import { deliveryHeaders } from "../src/adapters/webhooks/worker.ts";
import type { ClaimedDelivery } from "../src/interfaces/webhooks.ts";
import { mapResolver, policyAllowing, startReceiver, testPki } from "../test/helpers/webhooks.ts";
import { percentile } from "./percentile.ts";

const N = Number(process.argv[2] ?? 2000);
const RUNS = Number(process.argv[3] ?? 15);
const CONCURRENCY = 16;
const ADDRESS = "127.0.0.17";
const URL_ = "https://hooks.example.test:8443/bench";
const BODY = JSON.stringify({ id: "evt_1", type: "alert.zone_enter", data: { alert: { text: "x".repeat(900) } } });

const pki = testPki();
const receiver = await startReceiver(ADDRESS);
const agent = new Agent({ connect: { ca: pki.ca, lookup: (_h, _o, cb) => cb(null, [{ address: ADDRESS, family: 4 }]) } });
const transport = new DeliveryTransport({ resolver: mapResolver({ "hooks.example.test": ADDRESS }), policy: policyAllowing(`${ADDRESS}/32`), ca: pki.ca });
const claim: ClaimedDelivery = { deliveryId: 1, attempt: 1, deliveryUuid: "", leaseToken: "", trigger: "auto", tries: 0, resumeStatus: null, eventId: 1, eventType: "alert.zone_enter", body: BODY, endpointId: 1, accountId: "a", url: URL_, secrets: ["whsec_benchbenchbenchbenchbenchbench01"] };

const sides: [string, (i: number) => Promise<void>][] = [
  [
    "plain undici POST",
    async () => {
      const r = await request(URL_, { method: "POST", dispatcher: agent, body: BODY, headers: { "content-type": "application/json" } });
      await r.body.dump();
      if (r.statusCode !== 204) throw new Error(`plain POST got ${r.statusCode}`);
    },
  ],
  [
    "delivery client: checks, signed headers, send",
    async (i) => {
      const r = await transport.send({ url: URL_, body: BODY, headers: deliveryHeaders({ ...claim, deliveryUuid: String(i) }, Date.now(), "Service-Webhooks/1 (bench)") });
      if (!r.success) throw new Error(`delivery failed: ${r.errorClass} ${r.error}`);
    },
  ],
];

async function pool(n: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < n) await fn(next++);
  }));
}

try {
  // Warm-up: connections, TLS sessions, JIT; the first alternations after it are still counted.
  for (const [, send] of sides) await pool(Math.max(200, N / 4), send);
  const cpu = sides.map(() => [] as number[]);
  for (let run = 0; run < RUNS; run++) {
    for (const [k, [, send]] of sides.entries()) {
      const before = process.cpuUsage();
      await pool(N, send);
      const used = process.cpuUsage(before);
      cpu[k]!.push((used.user + used.system) / N);
    }
  }
  const base = percentile(cpu[0]!, 50);
  console.warn(`${RUNS} alternating runs of ${N} deliveries each, concurrency ${CONCURRENCY}`);
  process.stdout.write(
    [
      "| path | CPU µs per delivery, median | p25 to p75 | of plain POST |",
      "|---|---|---|---|",
      ...sides.map(([name], k) => `| ${name} | ${percentile(cpu[k]!, 50).toFixed(1)} | ${percentile(cpu[k]!, 25).toFixed(0)} to ${percentile(cpu[k]!, 75).toFixed(0)} | ${((100 * percentile(cpu[k]!, 50)) / base).toFixed(0)}% |`),
    ].join("\n") + "\n",
  );
} finally {
  await agent.close();
  await transport.close();
  await receiver.close();
}
