/**
 * Issue 18 item 3: races on webhook endpoints, run concurrently against the store on every
 * engine (PostgreSQL is where they failed: row locks taken in different orders).
 * - two deletes of one endpoint: exactly one succeeds, the other finds nothing (no deadlock);
 * - a delete while an attempt is being recorded: no foreign-key violation, both finish;
 * - an owner's retry racing a delete: the retry answers ok with its delivery, or not found;
 * - an alert fanning out while an endpoint is deleted: the alert is recorded either way.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { TEST_EVENT_TYPE } from "../../../src/domain/alerts/payload.ts";
import type { AttemptResult, WebhookStore } from "../../../src/interfaces/webhooks.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";

const ROUNDS = 25;
const FAILED: AttemptResult = { success: false, statusCode: 500, errorClass: "http_status", error: "answered 500", durationMs: 3, responseSnippet: null };

for (const engine of ENGINES) {
  describe(`webhook endpoint races (${engine})`, () => {
    let t: TestService;
    let store: WebhookStore;
    let accountId: string;
    let now: number;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      ({ accountId } = await t.key("scale"));
      store = t.service.services.webhooks;
      now = t.clock.now();
    });
    after(() => t.close());

    const endpoint = async () => {
      const r = await store.createEndpoint(accountId, { url: "https://hooks.example.com/in", description: null, events: null }, "whsec_test", 1000, now);
      assert.ok(r.ok);
      return r.endpoint.id;
    };
    const delivery = async (endpointId: number) => (await store.createSingleDelivery(accountId, endpointId, TEST_EVENT_TYPE, (id) => JSON.stringify({ id: `evt_${id}` }), "test", now))!;

    it("two concurrent deletes: one true, one false, every round", async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const id = await endpoint();
        await delivery(id);
        const r = await Promise.all([store.deleteEndpoint(accountId, id), store.deleteEndpoint(accountId, id)]);
        assert.deepEqual(r.sort(), [false, true], `round ${i}`);
      }
    });

    it("a delete while an attempt is recorded: both finish, nothing of the endpoint is left", async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const id = await endpoint();
        const d = await delivery(id);
        const [claim] = await store.claimDue(now, 60_000, 1, d);
        assert.ok(claim, `round ${i}: claimed`);
        const [done, gone] = await Promise.all([store.completeAttempt(claim, FAILED, now + 1), store.deleteEndpoint(accountId, id)]);
        assert.equal(gone, true);
        assert.equal(typeof done.applied, "boolean");
        assert.equal(await store.getDelivery(accountId, d), null);
        assert.equal(await store.getEndpoint(accountId, id), null);
      }
    });

    it("a retry racing a delete: ok with the delivery, or not found; never a missing delivery", async () => {
      let ok = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const id = await endpoint();
        const d = await delivery(id);
        const [retry, gone] = await Promise.all([store.retryDelivery(accountId, d, now), store.deleteEndpoint(accountId, id)]);
        assert.equal(gone, true);
        if (retry.ok) {
          ok++;
          assert.equal(retry.delivery?.id, d, `round ${i}: an ok retry carries its delivery`);
        } else assert.equal(retry.reason, "not_found", `round ${i}`);
      }
      assert.ok(ok <= ROUNDS);
    });

    it("an alert fanning out while an endpoint is deleted is recorded", async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const id = await endpoint();
        const alert = {
          accountId,
          type: "zone_enter" as const,
          occurredAt: now,
          dedupeKey: `race-${engine}-${i}`,
          detail: {},
          body: ({ eventId }: { eventId: number }) => JSON.stringify({ id: `evt_${eventId}` }),
        };
        const [emitted, gone] = await Promise.all([store.emitAlerts([alert], now), store.deleteEndpoint(accountId, id)]);
        assert.equal(emitted.alerts, 1, `round ${i}`);
        assert.equal(gone, true);
      }
    });
  });
}
