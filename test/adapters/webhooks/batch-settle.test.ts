/**
 * Issue 31: outcomes of many attempts are written in one batch (one statement on
 * PostgreSQL). A batch holding every kind of outcome puts each delivery in its own state,
 * as the delivery log shows it: a 2xx delivered, a 5xx and a timeout retried on the
 * schedule, a last failed attempt given up; a claim whose holder was killed is taken over
 * by exactly one of two racing claimers, and the killed holder's late answer is refused.
 * A stopping worker hands back what it claimed and never sent.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { deliveryHeaders, DeliveryWorker } from "../../../src/adapters/webhooks/worker.ts";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "../../../src/domain/webhooks/schedule.ts";
import type { AttemptResult, ClaimedDelivery, NewAlert } from "../../../src/interfaces/webhooks.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { HOOK_HOST, type Receiver, startReceiver, transportFor, wait } from "../../helpers/webhooks.ts";

const ADDRESS = "127.0.0.15";
/** Short, so the timeout case ends soon; nothing here depends on its length. */
const DEADLINE_MS = 400;

describe("webhook outcomes written in batches", () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver(ADDRESS, {
      behaviour: (req, res) => {
        const path = new URL(req.url, "https://x").pathname;
        if (path.includes("/hang")) return; // never answers; closed with the receiver
        res.statusCode = path.includes("/fail") ? 503 : 204;
        res.end();
      },
    });
  });
  after(() => receiver.close());
  const at = (path: string) => receiver.received.filter((r) => r.url === path);

  for (const engine of ENGINES) {
    describe(engine, () => {
      let t: TestService;
      before(async () => {
        t = await startTestService({ engine, withData: false, webhooks: { transport: transportFor(ADDRESS, { deadlineMs: DEADLINE_MS }) } });
      });
      after(() => t.close());

      const api = async (key: string, method: string, url: string, body?: unknown) => {
        const res = await t.service.app.inject({ method: method as "GET", url, headers: { authorization: `Bearer ${key}` }, ...(body !== undefined ? { payload: body as object } : {}) });
        return { status: res.statusCode, body: res.json() as Record<string, any> };
      };
      /** An account of its own with one endpoint at `path`: its alerts go there alone. */
      const receiverAt = async (path: string) => {
        const { key, accountId } = await t.key("pro");
        const r = await api(key, "POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}:8443${path}` });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        return { key, accountId, id: r.body.data.id as string, num: Number(String(r.body.data.id).slice(3)), path };
      };
      let seq = 0;
      const emit = async (accountId: string) => {
        const alert: NewAlert = { accountId, type: "sanctions", occurredAt: t.clock.now(), dedupeKey: `batch:${engine}:${++seq}`, detail: {}, body: ({ eventId }) => `{"id":"evt_${eventId}","type":"alert.sanctions"}` };
        await t.service.services.webhooks.emitAlerts([alert], t.clock.now());
      };
      const log = async (r: { key: string; id: string }) => {
        const res = await api(r.key, "GET", `/api/v1/account/webhooks/${r.id}/deliveries`);
        assert.equal(res.status, 200);
        assert.equal(res.body.data.length, 1);
        return res.body.data[0] as { status: string; nextAttemptAt: string | null; log: { attempt: number; outcome: string; statusCode: number | null; errorClass: string | null }[] };
      };
      const send = (c: ClaimedDelivery): Promise<AttemptResult> => t.service.webhooks.transport.send({ url: c.url, body: c.body, headers: deliveryHeaders(c, t.clock.now(), "test") });

      it("a batch of mixed outcomes: each delivery lands in its state, a killed claimer's lease is taken over once", async () => {
        const store = t.service.services.webhooks;
        const ok = await receiverAt(`/${engine}/batch/ok`);
        const failing = await receiverAt(`/${engine}/batch/fail`);
        const hanging = await receiverAt(`/${engine}/batch/hang`);
        const last = await receiverAt(`/${engine}/batch/fail-last`);
        const killed = await receiverAt(`/${engine}/batch/killed`);

        // One delivery fails every scheduled attempt but the last, one batch at a time.
        await emit(last.accountId);
        for (const delay of [0, ...RETRY_DELAYS_MS.slice(0, -1)]) {
          t.clock.t += delay;
          await t.service.webhooks.worker.runDue();
        }
        assert.equal((await log(last)).log.length, MAX_ATTEMPTS - 1);
        t.clock.t += RETRY_DELAYS_MS.at(-1)!;

        for (const r of [ok, failing, hanging, killed]) await emit(r.accountId);
        // A worker claims the killed endpoint's delivery, sends it, and dies before recording anything.
        const killedId = (await store.listDeliveries(killed.accountId, killed.num, { limit: 1 }))[0]!.id;
        const [doomed] = await store.claimDue(t.clock.now(), 1_000, 1, killedId);
        assert.ok(doomed);
        assert.equal((await send(doomed)).success, true);
        t.clock.t += 1_000;

        // Two workers claim at once: every due delivery goes to exactly one of them, the killed claim's too.
        const [a, b] = await Promise.all([store.claimDue(t.clock.now(), 60_000, 100), store.claimDue(t.clock.now(), 60_000, 100)]);
        const claims = [...a, ...b];
        const mine = new Set([ok, failing, hanging, last, killed].map((r) => r.num));
        assert.deepEqual(claims.map((c) => c.endpointId).filter((e) => mine.has(e)).sort(), [...mine].sort());
        assert.equal(new Set(claims.map((c) => c.deliveryId)).size, claims.length);

        const results = await Promise.all(claims.map(send));
        const endedAt = t.clock.now();
        // The killed worker's late answer comes in the same batch as the rest.
        const batch = [...claims.map((claim, i) => ({ claim, result: results[i]!, endedAt })), { claim: doomed, result: { success: true, statusCode: 204, errorClass: null, error: null, durationMs: 1, responseSnippet: null } }];
        const written = await store.completeAttempts(batch, t.clock.now());
        assert.deepEqual(
          written.map((w) => w.applied),
          batch.map((x) => x.claim !== doomed),
        );

        const okLog = await log(ok);
        assert.equal(okLog.status, "delivered");
        assert.deepEqual(okLog.log.map((x) => [x.outcome, x.statusCode]), [["succeeded", 204]]);

        const retryAt = new Date(endedAt + RETRY_DELAYS_MS[0]!).toISOString();
        const failLog = await log(failing);
        assert.equal(failLog.status, "retrying");
        assert.equal(failLog.nextAttemptAt, retryAt);
        assert.deepEqual(failLog.log.map((x) => [x.outcome, x.statusCode, x.errorClass]), [["failed", 503, "http_status"]]);

        const hangLog = await log(hanging);
        assert.equal(hangLog.status, "retrying");
        assert.equal(hangLog.nextAttemptAt, retryAt);
        assert.deepEqual(hangLog.log.map((x) => [x.outcome, x.errorClass]), [["failed", "timeout"]]);

        const lastLog = await log(last);
        assert.equal(lastLog.status, "given_up");
        assert.equal(lastLog.nextAttemptAt, null);
        assert.deepEqual(lastLog.log.map((x) => x.attempt), Array.from({ length: MAX_ATTEMPTS }, (_, i) => i + 1));

        const killedLog = await log(killed);
        assert.equal(killedLog.status, "delivered");
        assert.deepEqual(killedLog.log.map((x) => [x.attempt, x.outcome]), [
          [1, "interrupted"],
          [2, "succeeded"],
        ]);
        // At least once: the receiver heard the event twice, each time as a new delivery.
        const heard = at(killed.path);
        assert.equal(heard.length, 2);
        assert.equal(new Set(heard.map((r) => r.headers["service-event-id"])).size, 1);
        assert.equal(new Set(heard.map((r) => r.headers["service-delivery"])).size, 2);

        // Streaks: each failed scheduled attempt counts once, the success counts none.
        const streak = async (r: { accountId: string; num: number }) => (await store.getEndpoint(r.accountId, r.num))!.failureStreak;
        assert.equal(await streak(ok), 0);
        assert.equal(await streak(failing), 1);
        assert.equal(await streak(hanging), 1);
        assert.equal(await streak(last), MAX_ATTEMPTS);

        // Nothing of the batch is claimable again before its retry is due.
        const again = await store.claimDue(t.clock.now(), 60_000, 100);
        assert.deepEqual(again.filter((c) => mine.has(c.endpointId)), []);
      });

      it("a stopping worker hands back what it claimed and did not send: no attempt is logged for it, the next worker sends it", async () => {
        const slow = await receiverAt(`/${engine}/stop/hang`);
        for (let i = 0; i < 3; i++) await emit(slow.accountId);
        // One sender: one attempt on the wire, the next claimed and waiting for the sender.
        const worker = new DeliveryWorker(t.service.services.webhooks, t.service.webhooks.transport, t.clock, { userAgent: "test", concurrency: 1, batchSize: 1, pollMs: 10 });
        worker.start();
        while (at(slow.path).length === 0) await wait(10);
        await worker.stop();
        assert.equal(at(slow.path).length, 1, "nothing is sent after stop");

        const deliveries = await t.service.services.webhooks.listDeliveries(slow.accountId, slow.num, { limit: 10 });
        const tried = deliveries.filter((d) => d.log.length > 0);
        assert.equal(tried.length, 1);
        assert.deepEqual(tried[0]!.log.map((x) => [x.attempt, x.outcome, x.errorClass]), [[1, "failed", "timeout"]]);
        const untried = deliveries.filter((d) => d.log.length === 0);
        assert.equal(untried.length, 2);
        for (const d of untried) assert.equal(d.status, "pending");

        // Handed back, not leased: due now, they are claimed again at once with attempt 1.
        const claims = (await t.service.services.webhooks.claimDue(t.clock.now(), 60_000, 100)).filter((c) => c.endpointId === slow.num);
        assert.deepEqual(claims.map((c) => c.deliveryId).sort(), untried.map((d) => d.id).sort());
        assert.deepEqual(claims.map((c) => c.attempt), [1, 1]);
      });
    });
  }
});
