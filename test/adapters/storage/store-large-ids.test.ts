/**
 * Issue 18 item 1: an account object id of 2^31 or more answered 500 on PostgreSQL (its id
 * columns are 32-bit) and 404 on SQLite. Every engine now gives the answer of an id that does
 * not exist: the same 404 as for a small unknown id, and a delivery-log cursor beyond every
 * row pages from the newest delivery.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";

const BIG = ["2147483648", "4294967296", "999999999999999"];

for (const engine of ENGINES) {
  describe(`ids beyond the 32-bit range (${engine})`, () => {
    let t: TestService;
    let key: string;
    let endpoint: string;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      ({ key } = await t.key("scale"));
      const r = await api("POST", "/api/v1/account/webhooks", { url: "https://hooks.example.com/in" });
      endpoint = r.body.data.id;
    });
    after(() => t.close());
    async function api(method: string, url: string, payload?: unknown) {
      const res = await t.service.app.inject({ method: method as "GET", url, headers: { authorization: `Bearer ${key}` }, ...(payload !== undefined ? { payload: payload as string } : {}) });
      return { status: res.statusCode, body: res.json() as Record<string, any> };
    }

    const routes: [string, string, (id: string) => string, unknown?][] = [
      ["wh", "GET", (id) => `/api/v1/account/webhooks/${id}`],
      ["wh", "PATCH", (id) => `/api/v1/account/webhooks/${id}`, { description: "x" }],
      ["wh", "DELETE", (id) => `/api/v1/account/webhooks/${id}`],
      ["wh", "POST", (id) => `/api/v1/account/webhooks/${id}/rotate-secret`],
      ["wh", "POST", (id) => `/api/v1/account/webhooks/${id}/enable`],
      ["wh", "POST", (id) => `/api/v1/account/webhooks/${id}/test`],
      ["wh", "GET", (id) => `/api/v1/account/webhooks/${id}/deliveries`],
      ["dlv", "POST", (id) => `/api/v1/account/deliveries/${id}/retry`],
      ["zone", "DELETE", (id) => `/api/v1/account/zones/${id}`],
      ["follow", "DELETE", (id) => `/api/v1/account/follows/${id}`],
      ["search", "DELETE", (id) => `/api/v1/account/saved-searches/${id}`],
    ];
    for (const [prefix, method, path, payload] of routes) {
      it(`${method} ${path(`${prefix}_N`)}: the 404 of an unknown id`, async () => {
        const small = await api(method, path(`${prefix}_999999`), payload);
        assert.equal(small.status, 404);
        for (const n of BIG) {
          const r = await api(method, path(`${prefix}_${n}`), payload);
          assert.equal(r.status, 404, `${prefix}_${n}`);
          assert.equal(r.body.error.code, small.body.error.code);
          assert.equal(r.body.error.message, small.body.error.message.replace("999999", n));
        }
      });
    }

    it("an event filter beyond the range is the 404 of an event that cannot exist; a cursor beyond it pages from the newest", async () => {
      const ev = await api("GET", `/api/v1/account/webhooks/${endpoint}/deliveries?event=evt_2147483648`);
      assert.equal(ev.status, 404);
      assert.equal(ev.body.error.code, "not_found");
      for (const before of [2147483648, 999999999999999]) {
        const cursor = Buffer.from(JSON.stringify({ before })).toString("base64url");
        const r = await api("GET", `/api/v1/account/webhooks/${endpoint}/deliveries?cursor=${cursor}`);
        assert.deepEqual([r.status, r.body.data], [200, []]);
      }
    });
  });
}
