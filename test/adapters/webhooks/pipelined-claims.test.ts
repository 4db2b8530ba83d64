/**
 * Issue 31: the background worker keeps claims on their way to the store while senders
 * work through what was claimed before, up to two claims at once. With batches smaller than
 * a round of senders both run together; whatever the interleaving, every delivery is sent
 * once (one attempt, one request with its event id), never more than two claims run at
 * once, and the claimed and not yet sent attempts stay within three rounds of the senders,
 * the bound that keeps an attempt's wait inside its lease.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DeliveryWorker } from "../../../src/adapters/webhooks/worker.ts";
import type { ClaimedDelivery, NewAlert, WebhookStore } from "../../../src/interfaces/webhooks.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { HOOK_HOST, type Receiver, startReceiver, transportFor, wait } from "../../helpers/webhooks.ts";

const ADDRESS = "127.0.0.16";
const EVENTS = 120;
const CONCURRENCY = 4;
/** Smaller than a round of senders, so that a second claim starts while the first is out. */
const BATCH = 3;

describe("pipelined claiming", () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver(ADDRESS);
  });
  after(() => receiver.close());

  for (const engine of ENGINES) {
    describe(engine, () => {
      let t: TestService;
      before(async () => {
        t = await startTestService({ engine, withData: false, webhooks: { transport: transportFor(ADDRESS) } });
      });
      after(() => t.close());

      it("sends every delivery once, with at most two claims out and at most three rounds of senders claimed ahead", async () => {
        const { key, accountId } = await t.key("pro");
        const path = `/${engine}/pipelined`;
        const res = await t.service.app.inject({ method: "POST", url: "/api/v1/account/webhooks", headers: { authorization: `Bearer ${key}` }, payload: { url: `https://${HOOK_HOST}:8443${path}` } });
        assert.equal(res.statusCode, 200, res.body);
        const alerts: NewAlert[] = Array.from({ length: EVENTS }, (_, i) => ({
          accountId,
          type: "sanctions",
          occurredAt: t.clock.now(),
          dedupeKey: `pipelined:${engine}:${i}`,
          detail: {},
          body: ({ eventId }) => `{"id":"evt_${eventId}","type":"alert.sanctions"}`,
        }));
        await t.service.services.webhooks.emitAlerts(alerts, t.clock.now());

        // The store as the worker sees it, counting what is out and what is claimed ahead.
        const store = t.service.services.webhooks;
        let claimsOut = 0;
        let mostClaimsOut = 0;
        let claimedAhead = 0;
        let mostClaimedAhead = 0;
        const claimedIds: number[] = [];
        const watched: WebhookStore = Object.assign(Object.create(store) as WebhookStore, {
          completeAttempts: store.completeAttempts.bind(store),
          releaseClaims: store.releaseClaims.bind(store),
          claimDue: async (now: number, leaseMs: number, limit: number, only?: number) => {
            mostClaimsOut = Math.max(mostClaimsOut, ++claimsOut);
            try {
              const claims: ClaimedDelivery[] = await store.claimDue(now, leaseMs, limit, only);
              claimedIds.push(...claims.map((c) => c.deliveryId));
              claimedAhead += claims.length;
              mostClaimedAhead = Math.max(mostClaimedAhead, claimedAhead);
              return claims;
            } finally {
              claimsOut--;
            }
          },
        });
        const transport = t.service.webhooks.transport;
        const sending = Object.assign(Object.create(transport) as typeof transport, {
          send: (req: Parameters<typeof transport.send>[0]) => {
            claimedAhead--;
            return transport.send(req);
          },
        });

        let attempts = 0;
        const errors: unknown[] = [];
        const worker = new DeliveryWorker(watched, sending, t.clock, { userAgent: "test", concurrency: CONCURRENCY, batchSize: BATCH, pollMs: 10, onAttempt: () => attempts++, onError: (e) => errors.push(e) });
        worker.start();
        while (attempts < EVENTS && errors.length === 0) await wait(10);
        await worker.stop();
        assert.deepEqual(errors, []);

        const heard = receiver.received.filter((r) => r.url === path);
        assert.equal(heard.length, EVENTS, "one request per delivery");
        assert.equal(new Set(heard.map((r) => r.headers["service-event-id"])).size, EVENTS, "each event once");
        assert.equal(new Set(claimedIds).size, claimedIds.length, "no delivery claimed twice");
        assert.equal(claimedIds.length, EVENTS);
        assert.ok(mostClaimsOut <= 2, `at most two claims out at once, saw ${mostClaimsOut}`);
        assert.ok(mostClaimsOut === 2, "batches smaller than a round: a second claim starts while one is out");
        assert.ok(mostClaimedAhead <= 3 * CONCURRENCY, `claimed ahead of the senders at most three rounds, saw ${mostClaimedAhead}`);

        const deliveries = await store.listDeliveries(accountId, Number(String(res.json().data.id).slice(3)), { limit: EVENTS });
        assert.equal(deliveries.length, EVENTS);
        for (const d of deliveries) {
          assert.equal(d.status, "delivered");
          assert.deepEqual(
            d.log.map((x) => [x.attempt, x.outcome]),
            [[1, "succeeded"]],
          );
        }
      });
    });
  }
});
