/**
 * At-least-once under kill -9 (checklist in part): a worker process is
 * killed in the middle of a burst, a new one is started on the same store; every event
 * reaches the receiver at least once, every delivery ends delivered, and each delivery's
 * log is numbered 1..n without gaps, the killed attempts marked interrupted.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { NewAlert } from "../../../src/interfaces/webhooks.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { HOOK_HOST, type Receiver, startReceiver, testPki, wait } from "../../helpers/webhooks.ts";

const EVENTS = 150;
const LEASE_MS = 2_000;

describe("killing the delivery worker mid-burst", () => {
  let receiver: Receiver;
  let caFile: string;
  before(async () => {
    receiver = await startReceiver("127.0.0.11", {
      behaviour: async (_req, res) => {
        await wait(5);
        res.statusCode = 204;
        res.end();
      },
    });
    caFile = join(mkdtempSync(join(tmpdir(), "mds-ca-")), "ca.pem");
    writeFileSync(caFile, testPki().ca);
  });
  after(() => receiver.close());

  for (const engine of ENGINES) {
    it(`every event is delivered at least once and the log has no gaps (${engine})`, async (ctx) => {
      const t: TestService = await startTestService({ engine, withData: false });
      const children: ChildProcess[] = [];
      try {
        const { accountId } = await t.key("pro");
        const path = `/crash/${engine}`;
        const ep = await t.service.services.webhooks.createEndpoint(accountId, { url: `https://${HOOK_HOST}:8443${path}`, description: null, events: null }, "whsec_crashcrashcrashcrashcrashcrash00", 5, Date.now());
        assert.ok(ep.ok);
        // The child workers run on the real clock.
        const alerts: NewAlert[] = Array.from({ length: EVENTS }, (_, i) => ({
          accountId,
          type: "sanctions",
          occurredAt: Date.now(),
          dedupeKey: `crash:${engine}:${i}`,
          detail: {},
          body: ({ eventId }) => `{"id":"evt_${eventId}","type":"alert.sanctions"}`,
        }));
        await t.service.services.webhooks.emitAlerts(alerts, Date.now());
        const seen = () => receiver.received.filter((r) => r.url === path);
        const child = () => {
          const env = { ...process.env, RECEIVER_ADDRESS: "127.0.0.11", TEST_CA_FILE: caFile, LEASE_MS: String(LEASE_MS), DATA_DIR: t.service.config.dataDir, DATABASE_URL: t.service.config.databaseUrl ?? "" };
          if (!t.service.config.databaseUrl) delete (env as Record<string, string | undefined>).DATABASE_URL;
          const c = spawn(process.execPath, [join(import.meta.dirname, "worker-child.ts")], { env, stdio: ["ignore", "pipe", "inherit"] });
          children.push(c);
          return c;
        };
        const first = child();
        for (let i = 0; i < 400 && seen().length < 40; i++) await wait(25);
        assert.ok(seen().length >= 40, `the first worker sent ${seen().length}`);
        first.kill("SIGKILL");
        await new Promise((r) => first.once("exit", r));
        const atKill = seen().length;
        assert.ok(atKill < EVENTS, "killed in the middle of the burst");

        child();
        const store = t.service.services.webhooks;
        let deliveries = await store.listDeliveries(accountId, ep.endpoint.id, { limit: EVENTS + 1 });
        for (let i = 0; i < 300 && deliveries.some((d) => d.status !== "delivered"); i++) {
          await wait(100);
          deliveries = await store.listDeliveries(accountId, ep.endpoint.id, { limit: EVENTS + 1 });
        }
        assert.equal(deliveries.length, EVENTS);
        assert.deepEqual([...new Set(deliveries.map((d) => d.status))], ["delivered"]);
        const received = new Set(seen().map((r) => String(r.headers["service-event-id"])));
        for (const d of deliveries) assert.ok(received.has(`evt_${d.eventId}`), `evt_${d.eventId} reached the receiver`);
        let interrupted = 0;
        for (const d of deliveries) {
          assert.deepEqual(d.log.map((a) => a.attempt), Array.from({ length: d.log.length }, (_, i) => i + 1), `delivery ${d.id} numbered without gaps`);
          assert.equal(d.log.at(-1)!.outcome, "succeeded");
          for (const a of d.log.slice(0, -1)) assert.equal(a.outcome, "interrupted");
          interrupted += d.log.length - 1;
        }
        ctx.diagnostic(`killed after ${atKill} requests; ${interrupted} attempts interrupted; ${seen().length} requests for ${EVENTS} events`);
        // Duplicates at the receiver come only from attempts the kill interrupted; each carried a new Service-Delivery.
        assert.ok(seen().length - EVENTS <= interrupted, `${seen().length - EVENTS} duplicates, ${interrupted} interrupted`);
        assert.equal(new Set(seen().map((r) => r.headers["service-delivery"])).size, seen().length);
      } finally {
        for (const c of children) c.kill("SIGKILL");
        await t.close();
      }
    });
  }
});
