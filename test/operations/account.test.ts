/**
 * The account operations over REST and the command line: create/list/get/update/delete of
 * endpoints, zones, follows and saved searches; other accounts' objects are 404; garbage
 * bodies on every route are documented 4xx, never a 500; the OpenAPI document carries the
 * bodies. Checklist A-3 (owner only), A-4 (log filters), plus the plan limits of alerts.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { ALERT_LIMITS } from "../../src/domain/alerts/limits.ts";
import { ERROR_CODES } from "../../src/domain/errors.ts";
import { PROJECT_ROOT } from "../../src/main.ts";
import { OPERATIONS } from "../../src/operations/registry.ts";
import { call, ENGINES, startTestService, type TestService } from "../helpers/service.ts";

const run = promisify(execFile);
const HARBOUR = { type: "Polygon", coordinates: [[[24.9, 60.1], [25.0, 60.1], [25.0, 60.2], [24.9, 60.2], [24.9, 60.1]]] };
const ACCOUNT_OPS = OPERATIONS.filter((op) => op.path.startsWith("/api/v1/account/"));

for (const engine of ENGINES) {
  describe(`account operations (${engine})`, () => {
    let t: TestService;
    let key: string;
    let accountId: string;
    let other: string;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      ({ key, accountId } = await t.key("scale"));
      ({ key: other } = await t.key("scale"));
    });
    after(() => t.close());
    const api = (k: string | null, method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => call(t, k, method, url, payload, headers);

    it("webhook endpoints: create (secret once), list, get, update, delete; free of credits", async () => {
      const c = await api(key, "POST", "/api/v1/account/webhooks", { url: "https://hooks.example.com/in#x", description: "ops", events: ["alert.sanctions"] });
      assert.equal(c.status, 200);
      assert.equal(c.headers["x-credits-cost"], "0");
      const ep = c.body.data;
      assert.match(ep.id, /^wh_\d+$/);
      assert.deepEqual([ep.url, ep.status, ep.description, ep.events], ["https://hooks.example.com/in", "active", "ops", ["alert.sanctions"]]);
      assert.match(ep.secret, /^whsec_[0-9A-Za-z]{32}$/);
      const list = await api(key, "GET", "/api/v1/account/webhooks");
      assert.equal(list.body.data.length, 1);
      assert.equal(list.body.data[0].secret, undefined, "the secret is shown only when made");
      assert.equal(list.body.data[0].secretStart, `${ep.secret.slice(0, 10)}...`);
      const upd = await api(key, "PATCH", `/api/v1/account/webhooks/${ep.id}`, { url: "https://hooks2.example.com:8443/x", events: null, description: null });
      assert.equal(upd.status, 200);
      assert.deepEqual([upd.body.data.url, upd.body.data.events, upd.body.data.description], ["https://hooks2.example.com:8443/x", null, null]);
      assert.equal((await api(key, "PATCH", `/api/v1/account/webhooks/${ep.id}`, {})).status, 400);
      assert.equal((await api(key, "PATCH", `/api/v1/account/webhooks/${ep.id}`, { url: "http://hooks.example.com/" })).body.error.param, "url");
      assert.equal((await api(key, "GET", `/api/v1/account/webhooks/${ep.id}`)).body.data.id, ep.id);
      const log = await api(key, "GET", `/api/v1/account/webhooks/${ep.id}/deliveries?status=given_up&from=2026-01-01&to=2027-01-01T00:00:00Z&limit=5`);
      assert.deepEqual([log.status, log.body.data], [200, []]);
      assert.equal((await api(key, "DELETE", `/api/v1/account/webhooks/${ep.id}`)).body.data.deleted, true);
      assert.equal((await api(key, "GET", `/api/v1/account/webhooks/${ep.id}`)).status, 404);
    });

    it("create refuses non-https, bad ports, user info and non-public literals, naming the field", async () => {
      for (const url of ["http://hooks.example.com/", "https://hooks.example.com:9443/", "https://u:p@hooks.example.com/", "https://127.0.0.1/", "https://[::1]/", "https://localhost/", "ftp://x.example.com/", "not a url"]) {
        const r = await api(key, "POST", "/api/v1/account/webhooks", { url });
        assert.equal(r.status, 400, url);
        assert.equal(r.body.error.param, "url", url);
      }
    });

    it("A-3: another account's endpoint, delivery, zone, follow and search are a plain 404 to every operation", async () => {
      const ep = (await api(key, "POST", "/api/v1/account/webhooks", { url: "https://hooks.example.com/mine" })).body.data;
      const zone = (await api(key, "POST", "/api/v1/account/zones", { name: "Mine", geometry: HARBOUR })).body.data;
      const follow = (await api(key, "POST", "/api/v1/account/follows", { mmsi: "230123456" })).body.data;
      const search = (await api(key, "POST", "/api/v1/account/saved-searches", { name: "tankers", q: "tanker" })).body.data;
      const dlv = await t.service.services.webhooks.createSingleDelivery(accountId, Number(ep.id.slice(3)), "webhook.test", (id) => `{"id":"evt_${id}"}`, "test", t.clock.now());
      const attempts: [string, string, unknown?][] = [
        ["GET", `/api/v1/account/webhooks/${ep.id}`],
        ["PATCH", `/api/v1/account/webhooks/${ep.id}`, { description: "x" }],
        ["DELETE", `/api/v1/account/webhooks/${ep.id}`],
        ["POST", `/api/v1/account/webhooks/${ep.id}/test`],
        ["POST", `/api/v1/account/webhooks/${ep.id}/rotate-secret`],
        ["POST", `/api/v1/account/webhooks/${ep.id}/enable`],
        ["GET", `/api/v1/account/webhooks/${ep.id}/deliveries`],
        ["POST", `/api/v1/account/deliveries/dlv_${dlv}/retry`],
        ["DELETE", `/api/v1/account/zones/${zone.id}`],
        ["DELETE", `/api/v1/account/follows/${follow.id}`],
        ["DELETE", `/api/v1/account/saved-searches/${search.id}`],
      ];
      for (const [method, url, body] of attempts) {
        const theirs = await api(other, method, url, body);
        assert.equal(theirs.status, 404, `${method} ${url}`);
        assert.equal(theirs.body.error.code, "not_found");
        assert.doesNotMatch(JSON.stringify(theirs.body), new RegExp(accountId));
        // Same answer as for an id that never existed.
        const never = await api(other, method, url.replace(/_(\d+)/, "_987654"), body);
        assert.equal(never.status, 404);
      }
      assert.equal((await api(other, "GET", "/api/v1/account/zones")).body.data.length, 0);
      assert.equal((await api(key, "GET", `/api/v1/account/webhooks/${ep.id}`)).status, 200, "still there for its owner");
      for (const op of ACCOUNT_OPS) {
        const r = await api(null, op.method, op.path.replace("{id}", "wh_1"));
        assert.equal(r.status, 401, `${op.method} ${op.path} needs a key`);
      }
    });

    it("zones, follows and saved searches: create, list, delete; duplicates answer the existing follow", async () => {
      const z = await api(key, "POST", "/api/v1/account/zones", { name: "  Gulf  ", geometry: HARBOUR });
      assert.equal(z.status, 200);
      assert.deepEqual([z.body.data.name, z.body.data.bbox], ["Gulf", [24.9, 60.1, 25, 60.2]]);
      const badZone = await api(key, "POST", "/api/v1/account/zones", { name: "Bow", geometry: { type: "Polygon", coordinates: [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]] } });
      assert.deepEqual([badZone.status, badZone.body.error.param], [400, "geometry"]);
      assert.match(badZone.body.error.message, /intersects itself/);
      const f1 = await api(key, "POST", "/api/v1/account/follows", { imo: "IMO 9176187" });
      const f2 = await api(key, "POST", "/api/v1/account/follows", { imo: 9176187 });
      assert.equal(f1.body.data.id, f2.body.data.id);
      assert.equal((await api(key, "POST", "/api/v1/account/follows", { unlocode: "nlrtm" })).body.data.unlocode, "NLRTM");
      for (const body of [{ imo: 9176188 }, { mmsi: "12345" }, { unlocode: "XX" }, {}, { imo: 9176187, mmsi: 230123456 }]) {
        assert.equal((await api(key, "POST", "/api/v1/account/follows", body)).status, 400, JSON.stringify(body));
      }
      const s = await api(key, "POST", "/api/v1/account/saved-searches", { name: "Tankers", q: "tanker", kind: "vessel" });
      assert.deepEqual([s.status, s.body.data.kind], [200, "vessel"]);
      assert.ok((await api(key, "GET", "/api/v1/account/follows")).body.data.length >= 2);
      for (const [path, id] of [["zones", z.body.data.id], ["follows", f1.body.data.id], ["saved-searches", s.body.data.id]]) {
        assert.equal((await api(key, "DELETE", `/api/v1/account/${path}/${id}`)).status, 200);
        assert.equal((await api(key, "DELETE", `/api/v1/account/${path}/${id}`)).status, 404);
      }
    });

    it("plan limits of zones hold under concurrency (sandbox: 1)", async () => {
      const { key: sk, accountId: sa } = await t.key("sandbox");
      const keys = [sk, ...(await Promise.all([1, 2, 3].map(async () => (await t.service.services.accounts.createKey(sa)).key)))];
      const r = await Promise.all(Array.from({ length: 8 }, (_, i) => api(keys[i % 4]!, "POST", "/api/v1/account/zones", { name: `z${i}`, geometry: HARBOUR })));
      assert.equal(r.filter((x) => x.status === 200).length, ALERT_LIMITS.sandbox.zones);
      assert.ok(r.filter((x) => x.status !== 200).every((x) => x.body.error.code === "limit_reached"));
    });

    it("garbage bodies and ids on every account route: documented 4xx with a JSON error, never a 500", async () => {
      const statuses = new Set<number>(Object.values(ERROR_CODES).map((e) => e.status));
      const junk: { payload: string; type?: string }[] = [
        { payload: "{", type: "application/json" },
        { payload: "[]", type: "application/json" },
        { payload: "null", type: "application/json" },
        { payload: "42", type: "application/json" },
        { payload: '"text"', type: "application/json" },
        { payload: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}', type: "application/json" },
        { payload: JSON.stringify({ url: 1, name: [], geometry: "x", imo: {}, q: null, graceHours: "24", events: "all" }), type: "application/json" },
        { payload: JSON.stringify({ url: "https://x.example.com/" + "a".repeat(5000), name: "n".repeat(10_000), geometry: { type: "Polygon", coordinates: [[[0, 0]]] } }), type: "application/json" },
        { payload: JSON.stringify({ geometry: { type: "Polygon", coordinates: Array.from({ length: 50 }, () => [[0, 0], [1, 0], [1, 1], [0, 0]]) }, name: "x" }), type: "application/json" },
        { payload: "{}".padStart(3000, "["), type: "application/json" },
        { payload: "url=https://x", type: "application/x-www-form-urlencoded" },
        { payload: "plain", type: "text/plain" },
        { payload: "", type: "application/json" },
        { payload: randomBytes(200).toString("latin1"), type: "application/json" },
      ];
      const ids = ["wh_1", "wh_0", "wh_-1", "wh_99999999999999999999", "WH_1", "1", "%00", "wh_1%2F..", "zone_1", "dlv_abc"];
      for (const op of ACCOUNT_OPS) {
        for (const j of junk) {
          for (const id of op.path.includes("{id}") ? ids.slice(0, 3) : [""]) {
            const url = op.path.replace("{id}", id);
            const res = await t.service.app.inject({ method: op.method, url, payload: j.payload, headers: { authorization: `Bearer ${key}`, ...(j.type ? { "content-type": j.type } : {}) } });
            assert.ok(statuses.has(res.statusCode) || res.statusCode === 200, `${op.method} ${url} ${j.payload.slice(0, 40)} -> ${res.statusCode}`);
            assert.notEqual(res.statusCode, 500, `${op.method} ${url} ${res.body}`);
            const body = res.json();
            if (res.statusCode !== 200) assert.ok(body.error.code in ERROR_CODES, res.body);
          }
        }
        if (op.path.includes("{id}")) {
          for (const id of ids) {
            const res = await t.service.app.inject({ method: op.method, url: op.path.replace("{id}", id), headers: { authorization: `Bearer ${key}` } });
            assert.ok(res.statusCode < 500, `${op.method} ${id} -> ${res.statusCode}`);
          }
        }
      }
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      // Query garbage on the delivery log.
      t.clock.t += 1_000; // out of the per-second rate window the loop above used up (the limiter runs on the service clock)
      const ep = (await api(key, "POST", "/api/v1/account/webhooks", { url: "https://hooks.example.com/garbage" })).body.data;
      for (const q of ["status=nope", "event=evt_x", "from=yesterday", "limit=0", "limit=101", "cursor=%7B%7D", "cursor=eyJiZWZvcmUiOi0xfQ", "x=1", "status=given_up&status=delivered"]) {
        const r = await api(key, "GET", `/api/v1/account/webhooks/${ep.id}/deliveries?${q}`);
        assert.equal(r.status, 400, q);
      }
    });

    it("the OpenAPI document lists every account operation with its method and JSON body", async () => {
      const doc = (await api(null, "GET", "/api/v1/openapi.json")).body;
      for (const op of ACCOUNT_OPS) {
        const entry = doc.paths[op.path]?.[op.method.toLowerCase()];
        assert.equal(entry?.operationId, op.id);
        if (op.body) assert.ok(entry.requestBody.content["application/json"].schema, op.id);
      }
      assert.deepEqual(Object.keys(doc.paths["/api/v1/account/webhooks/{id}"]).sort(), ["delete", "get", "patch"]);
    });
  });
}

describe("account commands of the mds command line", () => {
  let t: TestService;
  before(async () => {
    t = await startTestService({ withData: false });
  });
  after(() => t.close());
  const mds = (args: string[]) => {
    const { DATABASE_URL: _a, REDIS_URL: _b, ...rest } = process.env;
    return run(process.execPath, [join(PROJECT_ROOT, "bin/mds.ts"), ...args], { env: { ...rest, DATA_DIR: t.service.config.dataDir, LOG_LEVEL: "silent" } });
  };

  it("webhooks create and zones create run the same operations as REST; errors exit 2 with the code", async () => {
    const { accountId } = await t.key("pro");
    // Each run of the command line starts a whole Node process; three runs cover the paths.
    const ep = JSON.parse((await mds(["webhooks", "create", "--account", accountId, "--url", "https://hooks.example.com/cli", "--json"])).stdout);
    assert.match(ep.id, /^wh_\d+$/);
    assert.match(ep.secret, /^whsec_/);
    assert.deepEqual((await t.service.services.webhooks.listEndpoints(accountId)).map((e) => `wh_${e.id}`), [ep.id]);
    const zone = JSON.parse((await mds(["zones", "create", "--account", accountId, "--name", "Harbour", "--geometry", JSON.stringify(HARBOUR), "--json"])).stdout);
    assert.equal(zone.name, "Harbour");
    await assert.rejects(mds(["webhooks", "get", "wh_999", "--account", accountId]), (e: { code?: number; stderr?: string }) => e.code === 2 && /not_found/.test(e.stderr ?? ""));
  });
});
