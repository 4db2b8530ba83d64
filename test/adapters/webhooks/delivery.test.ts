/**
 * Delivery end to end on both storage engines, driven by a fake clock: a local HTTPS
 * receiver on 127.0.0.2:8443 verifies every request with stripe-node and with the spec's
 * 300 s rule; the worker is ticked with runDue(). Checklist S-2, S-3, S-5..S-9, R-1, R-2,
 * R-6..R-8, D-1..D-6, F-1, F-3, F-4, M-1, M-2, M-4, M-5, A-1 (docs/webhook-testing.md).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DeliveryWorker } from "../../../src/adapters/webhooks/worker.ts";
import type { NewAlert } from "../../../src/interfaces/webhooks.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { HOOK_HOST, mapResolver, type Received, type Receiver, startReceiver, transportFor, verifyReceived } from "../../helpers/webhooks.ts";

const MIN = 60_000;
const HOUR = 3_600_000;
/** Spec 3: attempts at these offsets from the first, each delay counted from the end of the previous attempt. */
const SCHEDULE = [0, MIN, 6 * MIN, 36 * MIN, 2 * HOUR + 36 * MIN, 8 * HOUR + 36 * MIN, 20 * HOUR + 36 * MIN, 44 * HOUR + 36 * MIN];

describe("webhook delivery", () => {
  let receiver: Receiver;
  /** Paths whose requests fail with 500 (until removed). */
  const failing = new Set<string>();
  before(async () => {
    receiver = await startReceiver("127.0.0.2", {
      behaviour: (req, res) => {
        const path = new URL(req.url, "https://x").pathname;
        res.statusCode = path.startsWith("/fail") || failing.has(path) ? 500 : 204;
        res.end();
      },
    });
  });
  after(() => receiver.close());
  const at = (path: string): Received[] => receiver.received.filter((r) => r.url === path);

  for (const engine of ENGINES) {
    describe(engine, () => {
      let t: TestService;
      before(async () => {
        // hooks.example.test is the receiver; private.example.test is a name whose DNS points inside.
        const seams = transportFor("127.0.0.2", { resolver: mapResolver({ [HOOK_HOST]: "127.0.0.2", "private.example.test": "127.0.0.1" }) });
        t = await startTestService({ engine, withData: false, webhooks: { transport: seams } });
      });
      after(() => t.close());

      const api = async (key: string, method: string, url: string, body?: unknown) => {
        const res = await t.service.app.inject({ method: method as "GET", url, headers: { authorization: `Bearer ${key}` }, ...(body !== undefined ? { payload: body as object } : {}) });
        return { status: res.statusCode, body: res.json() as Record<string, any> };
      };
      const endpoint = async (key: string, path: string, extra: Record<string, unknown> = {}) => {
        const r = await api(key, "POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}:8443${path}`, ...extra });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        return { id: r.body.data.id as string, num: Number(String(r.body.data.id).slice(3)), secret: r.body.data.secret as string };
      };
      let seq = 0;
      /** Records `n` alerts for the account (one event each) through the same outbox the alert engines use. */
      const emit = async (accountId: string, n = 1): Promise<number> => {
        const alerts: NewAlert[] = Array.from({ length: n }, () => {
          const k = ++seq;
          return {
            accountId,
            type: "sanctions",
            occurredAt: t.clock.now(),
            dedupeKey: `test:${engine}:${k}`,
            detail: {},
            body: ({ alertId, eventId, created }) =>
              JSON.stringify({ id: `evt_${eventId}`, type: "alert.sanctions", created: new Date(created).toISOString(), data: { alert: { id: alertId, text: `Ünïcödé ${k}\u2028` } } }),
          };
        });
        return (await t.service.services.webhooks.emitAlerts(alerts, t.clock.now())).deliveries;
      };
      const tick = () => t.service.webhooks.worker.runDue();
      const endpointRow = async (accountId: string, num: number) => (await t.service.services.webhooks.getEndpoint(accountId, num))!;

      it("S-2, S-5..S-8: two endpoints, three events: six signed requests, each verified by stripe-node and the 300 s rule", async () => {
        const { key, accountId } = await t.key("pro");
        const a = await endpoint(key, `/${engine}/s/a`);
        const b = await endpoint(key, `/${engine}/s/b`);
        assert.notEqual(a.secret, b.secret);
        assert.equal(await emit(accountId, 3), 6);
        await tick();
        const got = [...at(`/${engine}/s/a`), ...at(`/${engine}/s/b`)];
        assert.equal(got.length, 6);
        for (const rec of got) {
          const secret = rec.url.endsWith("/a") ? a.secret : b.secret;
          const event = verifyReceived(rec, secret, t.clock.now() + 1000);
          // Exactly the headers of spec 6.1 (plus what HTTP itself adds), no secret anywhere.
          const ours = Object.keys(rec.headers).filter((h) => !["host", "connection", "content-length"].includes(h)).sort();
          assert.deepEqual(ours, ["content-type", "service-delivery", "service-event-id", "service-event-type", "service-signature", "user-agent"]);
          assert.equal(rec.headers["content-type"], "application/json");
          assert.match(String(rec.headers["user-agent"]), /^Service-Webhooks\/1 \(https?:\/\/\S+\/docs\/webhooks\)$/);
          assert.match(String(rec.headers["service-event-id"]), /^evt_[0-9]+$/);
          assert.match(String(rec.headers["service-delivery"]), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
          assert.match(String(rec.headers["service-signature"]), /^t=\d+,v1=[0-9a-f]{64}$/);
          assert.equal(event.id, rec.headers["service-event-id"]);
          assert.equal(event.type, rec.headers["service-event-type"]);
          assert.ok(!JSON.stringify(rec.headers).includes("whsec_"));
          assert.throws(() => verifyReceived(rec, secret, t.clock.now() + 301_000), /tolerance|too_old/);
        }
        // The same event id at both endpoints; different signatures; a new Service-Delivery per request.
        const ids = (rs: Received[]) => rs.map((r) => r.headers["service-event-id"]).sort();
        assert.deepEqual(ids(at(`/${engine}/s/a`)), ids(at(`/${engine}/s/b`)));
        assert.equal(new Set(got.map((r) => r.headers["service-delivery"])).size, 6);
        const sig = (r: Received) => String(r.headers["service-signature"]).split("v1=")[1];
        assert.notEqual(sig(at(`/${engine}/s/a`)[0]!), sig(at(`/${engine}/s/b`).find((r) => r.headers["service-event-id"] === at(`/${engine}/s/a`)[0]!.headers["service-event-id"])!));
      });

      it("R-1 / S-3: an always-failing receiver gets exactly 8 attempts at the spec's times, then the delivery is given up", async () => {
        const { key, accountId } = await t.key("pro");
        const e = await endpoint(key, `/fail/${engine}/r1`);
        const path = `/fail/${engine}/r1`;
        const t0 = t.clock.now();
        await emit(accountId, 1);
        for (let i = 0; i < SCHEDULE.length; i++) {
          if (i > 0) {
            t.clock.t = t0 + SCHEDULE[i]! - 1;
            await tick();
            assert.equal(at(path).length, i, `nothing before attempt ${i + 1}`);
          }
          t.clock.t = t0 + SCHEDULE[i]!;
          await tick();
          assert.equal(at(path).length, i + 1, `attempt ${i + 1} at +${SCHEDULE[i]! / MIN} min`);
          // S-3: t is when the attempt is sent, so a late retry still passes a 300 s check.
          const last = at(path)[i]!;
          assert.equal(String(last.headers["service-signature"]).match(/^t=(\d+)/)![1], String(Math.floor((t0 + SCHEDULE[i]!) / 1000)));
          verifyReceived(last, e.secret, t.clock.now() + 1000);
        }
        t.clock.t = t0 + 200 * HOUR;
        await tick();
        assert.equal(at(path).length, 8, "no ninth attempt");
        const [d] = await t.service.services.webhooks.listDeliveries(accountId, e.num, { limit: 10 });
        assert.equal(d!.status, "given_up");
        assert.deepEqual(
          d!.log.map((a) => [a.attempt, a.startedAt - t0, a.statusCode, a.errorClass]),
          SCHEDULE.map((s, i) => [i + 1, s, 500, "http_status"]),
        );
        assert.equal(new Set(at(path).map((r) => r.headers["service-event-id"])).size, 1, "one event id over all retries");
        // Through the API: the log with attempts, status and error class.
        const log = await api(key, "GET", `/api/v1/account/webhooks/${e.id}/deliveries?status=given_up`);
        assert.equal(log.body.data[0].log.length, 8);
      });

      it("R-2: a success on the third attempt stops the retries", async () => {
        const { key, accountId } = await t.key("pro");
        const path = `/${engine}/r2`;
        failing.add(path);
        const e = await endpoint(key, path);
        const t0 = t.clock.now();
        await emit(accountId, 1);
        await tick();
        t.clock.t = t0 + MIN;
        await tick();
        failing.delete(path);
        t.clock.t = t0 + 6 * MIN;
        await tick();
        t.clock.t = t0 + 100 * HOUR;
        await tick();
        assert.equal(at(path).length, 3);
        const [d] = await t.service.services.webhooks.listDeliveries(accountId, e.num, { limit: 1 });
        assert.equal(d!.status, "delivered");
        assert.deepEqual(d!.log.map((a) => a.outcome), ["failed", "failed", "succeeded"]);
      });

      it("D-1, D-5, D-6: failures within 23 h 59 min leave the endpoint on; the next one at 24 h turns it off; nothing more is sent until its owner turns it on", async () => {
        const { key, accountId } = await t.key("pro");
        const path = `/${engine}/d1`;
        failing.add(path);
        const e = await endpoint(key, path);
        const t0 = t.clock.now();
        await emit(accountId, 14);
        await tick(); // 14 failures at T0
        t.clock.t = t0 + 23 * HOUR + 59 * MIN;
        await tick(); // the 14 second attempts: 28 consecutive failures spanning 23 h 59 min
        let ep = await endpointRow(accountId, e.num);
        assert.equal(ep.status, "active");
        assert.equal(ep.failureStreak, 28);
        t.clock.t = t0 + 24 * HOUR;
        await emit(accountId, 1);
        await tick();
        ep = await endpointRow(accountId, e.num);
        assert.equal(ep.status, "disabled");
        assert.equal(ep.disabledAt, t0 + 24 * HOUR);
        assert.match(ep.disabledReason ?? "", /15 consecutive/);
        const sent = at(path).length;
        assert.equal(sent, 29);
        // D-5: queued retries and new events are kept in the log as skipped; nothing is sent.
        await emit(accountId, 1);
        t.clock.t = t0 + 30 * HOUR;
        await tick();
        assert.equal(at(path).length, sent);
        const skipped = await t.service.services.webhooks.listDeliveries(accountId, e.num, { status: "skipped", limit: 100 });
        assert.equal(skipped.length, 16);
        // M-5: no retry while it is off.
        const refused = await api(key, "POST", `/api/v1/account/deliveries/dlv_${skipped[0]!.id}/retry`);
        assert.equal(refused.status, 409);
        // D-6: the owner turns it on; counters reset; new events flow; a skipped delivery can be retried.
        failing.delete(path);
        const on = await api(key, "POST", `/api/v1/account/webhooks/${e.id}/enable`);
        assert.equal(on.status, 200);
        assert.deepEqual([on.body.data.status, on.body.data.failureStreak], ["active", 0]);
        await emit(accountId, 1);
        await tick();
        assert.equal(at(path).length, sent + 1);
        const retried = await api(key, "POST", `/api/v1/account/deliveries/dlv_${skipped[0]!.id}/retry`);
        assert.equal(retried.status, 200);
        await tick();
        assert.equal(at(path).length, sent + 2);
        assert.equal((await t.service.services.webhooks.getDelivery(accountId, skipped[0]!.id))!.status, "delivered");
      });

      it("D-1: the 15th consecutive failure exactly 24 h after the first turns the endpoint off", async () => {
        const { key, accountId } = await t.key("pro");
        const e = await endpoint(key, `/fail/${engine}/d1b`);
        const t0 = t.clock.now();
        await emit(accountId, 14);
        await tick();
        assert.equal((await endpointRow(accountId, e.num)).status, "active");
        t.clock.t = t0 + 24 * HOUR;
        await tick(); // the first of the 14 retries is failure 15, at 24 h
        const ep = await endpointRow(accountId, e.num);
        assert.equal(ep.status, "disabled");
        assert.equal(ep.disabledAt, t0 + 24 * HOUR);
      });

      it("D-2, D-3: 14 failures over 48 h leave it on; any success resets the streak", async () => {
        const { key, accountId } = await t.key("pro");
        const path = `/${engine}/d2`;
        failing.add(path);
        const e = await endpoint(key, path);
        const t0 = t.clock.now();
        await emit(accountId, 1);
        for (const s of SCHEDULE) {
          t.clock.t = t0 + s;
          await tick();
        }
        t.clock.t = t0 + 48 * HOUR;
        await emit(accountId, 6);
        await tick();
        let ep = await endpointRow(accountId, e.num);
        assert.deepEqual([ep.status, ep.failureStreak, ep.streakStartedAt], ["active", 14, t0]);
        failing.delete(path);
        await emit(accountId, 1);
        await tick();
        ep = await endpointRow(accountId, e.num);
        assert.deepEqual([ep.status, ep.failureStreak, ep.streakStartedAt], ["active", 0, null]);
      });

      it("D-8, N-11: an endpoint whose name now resolves to a private address fails as blocked_address, counted toward turning it off", async () => {
        const { key, accountId } = await t.key("pro");
        const r = await api(key, "POST", "/api/v1/account/webhooks", { url: "https://private.example.test:8443/in" });
        assert.equal(r.status, 200, "valid when saved: names are checked at connect time");
        await emit(accountId, 1);
        await tick();
        const [d] = await t.service.services.webhooks.listDeliveries(accountId, Number(String(r.body.data.id).slice(3)), { limit: 1 });
        assert.deepEqual([d!.status, d!.log[0]!.errorClass, d!.log[0]!.statusCode], ["retrying", "blocked_address", null]);
        assert.equal((await endpointRow(accountId, Number(String(r.body.data.id).slice(3)))).failureStreak, 1);
      });

      it("D-4: failures finishing together each count", async () => {
        const { key, accountId } = await t.key("pro");
        const e = await endpoint(key, `/fail/${engine}/d4`);
        await emit(accountId, 12);
        await tick();
        assert.equal((await endpointRow(accountId, e.num)).failureStreak, 12);
      });

      it("R-6, R-7: a worker dying after its claim, or after the receiver's 2xx, leaves the attempt to be taken over at lease expiry: same event id, new Service-Delivery, no gap in the log", async () => {
        const { key, accountId } = await t.key("pro");
        const path = `/${engine}/r6`;
        const e = await endpoint(key, path);
        const store = t.service.services.webhooks;
        await emit(accountId, 2);
        const t0 = t.clock.now();
        const claims = (await store.claimDue(t0, 60_000, 100)).filter((c) => c.endpointId === e.num);
        assert.equal(claims.length, 2);
        // Claim 0: died before sending. Claim 1: sent, the receiver said 204, died before recording.
        await t.service.webhooks.transport.send({ url: claims[1]!.url, body: claims[1]!.body, headers: (await import("../../../src/adapters/webhooks/worker.ts")).deliveryHeaders(claims[1]!, t0, "test") });
        assert.equal(at(path).length, 1);
        t.clock.t = t0 + 59_999;
        await tick();
        assert.equal(at(path).length, 1, "the lease still holds");
        t.clock.t = t0 + 60_000;
        await tick();
        assert.equal(at(path).length, 3);
        const byEvent = new Map<string, Received[]>();
        for (const r of at(path)) byEvent.set(String(r.headers["service-event-id"]), [...(byEvent.get(String(r.headers["service-event-id"])) ?? []), r]);
        const twice = [...byEvent.values()].find((rs) => rs.length === 2)!;
        assert.notEqual(twice[0]!.headers["service-delivery"], twice[1]!.headers["service-delivery"]);
        for (const d of await store.listDeliveries(accountId, e.num, { limit: 10 })) {
          assert.equal(d.status, "delivered");
          assert.deepEqual(d.log.map((a) => [a.attempt, a.outcome]), [
            [1, "interrupted"],
            [2, "succeeded"],
          ]);
        }
        // The late worker's answer is refused: its lease was taken over.
        assert.equal((await store.completeAttempt(claims[0]!, { success: true, statusCode: 200, errorClass: null, error: null, durationMs: 1, responseSnippet: null }, t.clock.now())).applied, false);
      });

      it("R-8: two workers racing over 40 due deliveries send each exactly once", async () => {
        const { key, accountId } = await t.key("pro");
        const path = `/${engine}/r8`;
        await endpoint(key, path);
        await emit(accountId, 40);
        const other = new DeliveryWorker(t.service.services.webhooks, t.service.webhooks.transport, t.clock, { userAgent: "test", batchSize: 7, concurrency: 4 });
        const mine = new DeliveryWorker(t.service.services.webhooks, t.service.webhooks.transport, t.clock, { userAgent: "test", batchSize: 5, concurrency: 4 });
        const [a, b] = await Promise.all([other.runDue(), mine.runDue()]);
        assert.equal(a + b, 40);
        assert.equal(at(path).length, 40);
        assert.equal(new Set(at(path).map((r) => r.headers["service-event-id"])).size, 40);
      });

      it("F-1, F-3, F-4: fan-out goes to active endpoints whose filter takes the type; turned-off ones get a skipped row; later endpoints get nothing; recording twice is a no-op", async () => {
        const { key, accountId } = await t.key("growth");
        const a = await endpoint(key, `/${engine}/f/a`);
        await endpoint(key, `/${engine}/f/b`);
        await endpoint(key, `/${engine}/f/c`, { events: ["alert.sanctions"] });
        await endpoint(key, `/${engine}/f/d`, { events: ["alert.zone_enter"] });
        const off = await endpoint(key, `/${engine}/f/off`);
        await t.service.store.db.updateTable("webhook_endpoints").set({ status: "disabled" }).where("id", "=", off.num).execute();
        const alert: NewAlert = { accountId, type: "sanctions", occurredAt: t.clock.now(), dedupeKey: `fanout:${engine}`, detail: {}, body: ({ eventId }) => `{"id":"evt_${eventId}","type":"alert.sanctions"}` };
        assert.deepEqual(await t.service.services.webhooks.emitAlerts([alert], t.clock.now()), { alerts: 1, deliveries: 3 });
        assert.deepEqual(await t.service.services.webhooks.emitAlerts([alert], t.clock.now()), { alerts: 0, deliveries: 0 });
        const late = await endpoint(key, `/${engine}/f/late`);
        await tick();
        assert.deepEqual(
          ["a", "b", "c", "d", "off", "late"].map((p) => at(`/${engine}/f/${p}`).length),
          [1, 1, 1, 0, 0, 0],
        );
        assert.equal((await t.service.services.webhooks.listDeliveries(accountId, off.num, { limit: 5 }))[0]!.status, "skipped");
        assert.equal((await t.service.services.webhooks.listDeliveries(accountId, late.num, { limit: 5 })).length, 0);
        assert.equal((await t.service.services.webhooks.listDeliveries(accountId, a.num, { limit: 5 })).length, 1);
      });

      it("M-1, M-2: a manual retry of a given-up delivery is one more attempt with the same event id; of a scheduled one, it comes forward without a double send", async () => {
        const { key, accountId } = await t.key("pro");
        const path = `/${engine}/m1`;
        failing.add(path);
        const e = await endpoint(key, path);
        const t0 = t.clock.now();
        await emit(accountId, 1);
        for (const s of SCHEDULE) {
          t.clock.t = t0 + s;
          await tick();
        }
        const [d] = await t.service.services.webhooks.listDeliveries(accountId, e.num, { limit: 1 });
        assert.equal(d!.status, "given_up");
        const r1 = await api(key, "POST", `/api/v1/account/deliveries/dlv_${d!.id}/retry`);
        assert.equal(r1.status, 200);
        await tick();
        assert.equal(at(path).length, 9);
        let now = (await t.service.services.webhooks.getDelivery(accountId, d!.id))!;
        assert.equal(now.status, "given_up", "a failed one-off retry leaves it given up");
        assert.deepEqual([now.log.at(-1)!.attempt, now.log.at(-1)!.trigger], [9, "manual"]);
        failing.delete(path);
        await api(key, "POST", `/api/v1/account/deliveries/dlv_${d!.id}/retry`);
        await tick();
        now = (await t.service.services.webhooks.getDelivery(accountId, d!.id))!;
        assert.equal(now.status, "delivered");
        assert.equal(new Set(at(path).map((r) => r.headers["service-event-id"])).size, 1);
        // M-2: a delivery waiting for its 1-minute retry: retry now, one POST only.
        failing.add(path);
        await emit(accountId, 1);
        await tick();
        failing.delete(path);
        const [pending] = await t.service.services.webhooks.listDeliveries(accountId, e.num, { status: "retrying", limit: 1 });
        const before = at(path).length;
        assert.equal((await api(key, "POST", `/api/v1/account/deliveries/dlv_${pending!.id}/retry`)).status, 200);
        await Promise.all([tick(), tick()]);
        assert.equal(at(path).length, before + 1);
        assert.equal((await api(key, "POST", "/api/v1/account/deliveries/dlv_999999/retry")).status, 404);
      });

      it("M-4: a test event goes through the same client, signature and log, at once; at most 10 a minute", async () => {
        // Scale: its per-second request rate is above the 11 calls made here.
        const { key, accountId } = await t.key("scale");
        const path = `/${engine}/m4`;
        const e = await endpoint(key, path);
        const r = await api(key, "POST", `/api/v1/account/webhooks/${e.id}/test`);
        assert.equal(r.status, 200);
        assert.equal(r.body.data.delivery.status, "delivered");
        assert.equal(r.body.data.delivery.log[0].trigger, "test");
        const rec = at(path)[0]!;
        assert.equal(rec.headers["service-event-type"], "webhook.test");
        assert.equal(verifyReceived(rec, e.secret, t.clock.now()).type, "webhook.test");
        for (let i = 0; i < 9; i++) assert.equal((await api(key, "POST", `/api/v1/account/webhooks/${e.id}/test`)).status, 200);
        const limited = await api(key, "POST", `/api/v1/account/webhooks/${e.id}/test`);
        assert.equal(limited.status, 429);
        assert.equal((await endpointRow(accountId, e.num)).failureStreak, 0);
        t.clock.t += 61_000;
      });

      it("S-9: after a rotation both secrets sign during the grace period; afterwards only the new one", async () => {
        const { key, accountId } = await t.key("pro");
        const path = `/${engine}/s9`;
        const e = await endpoint(key, path);
        const rot = await api(key, "POST", `/api/v1/account/webhooks/${e.id}/rotate-secret`, { graceHours: 1 });
        assert.equal(rot.status, 200);
        const fresh = rot.body.data.secret as string;
        assert.notEqual(fresh, e.secret);
        await emit(accountId, 1);
        await tick();
        const during = at(path)[0]!;
        assert.match(String(during.headers["service-signature"]), /^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
        verifyReceived(during, fresh, t.clock.now());
        verifyReceived(during, e.secret, t.clock.now());
        t.clock.t += HOUR + 1;
        await emit(accountId, 1);
        await tick();
        const afterwards = at(path)[1]!;
        assert.match(String(afterwards.headers["service-signature"]), /^t=\d+,v1=[0-9a-f]{64}$/);
        verifyReceived(afterwards, fresh, t.clock.now());
        assert.throws(() => verifyReceived(afterwards, e.secret, t.clock.now()));
        // Revoking at once: graceHours 0.
        const now = await api(key, "POST", `/api/v1/account/webhooks/${e.id}/rotate-secret`, { graceHours: 0 });
        assert.equal(now.body.data.previousSecretExpiresAt, null);
      });

      it("A-1: the endpoint limit holds under concurrency (Pro 5); with an API plan too, the higher applies", async () => {
        const { accountId } = await t.key("pro");
        // Several keys of the one account, so the per-key request rate does not shape the race.
        const keys = await Promise.all(Array.from({ length: 8 }, async () => (await t.service.services.accounts.createKey(accountId)).key));
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => api(keys[i % 8]!, "POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}/${engine}/a1/${i}` })));
        assert.equal(results.filter((r) => r.status === 200).length, 5);
        const refused = results.filter((r) => r.status !== 200);
        assert.ok(refused.every((r) => r.status === 403 && r.body.error.code === "limit_reached"));
        assert.equal((await t.service.services.webhooks.listEndpoints(accountId)).length, 5);
        await t.service.services.accounts.setPlan(accountId, "api", "growth");
        t.service.pipeline.auth.forget();
        const more = await Promise.all(Array.from({ length: 120 }, (_, i) => api(keys[i % 8]!, "POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}/${engine}/a1b/${i}` })));
        assert.equal(more.filter((r) => r.status === 200).length, 95);
        assert.equal((await t.service.services.webhooks.listEndpoints(accountId)).length, 100);
        const sandbox = await t.key("sandbox");
        const none = await api(sandbox.key, "POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}/x` });
        assert.deepEqual([none.status, none.body.error.code], [403, "limit_reached"]);
      });
    });
  }
});
