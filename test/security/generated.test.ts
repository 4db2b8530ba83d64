/**
 * The security suite, generated from the operations registry: every operation over REST
 * gets the same attacks (no key, a made-up key, a revoked key, another account's objects,
 * a bad parameter, a parameter that does not exist, an oversized input), so an operation
 * added to the registry is covered the day it lands. Each operation needs one valid example
 * below; an operation without one fails the first test.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { PlanId } from "../../src/domain/plans.ts";
import type { Operation } from "../../src/operations/operation.ts";
import { OPERATIONS } from "../../src/operations/registry.ts";
import { startTestService, type TestService } from "../helpers/service.ts";

const HARBOUR = { type: "Polygon", coordinates: [[[24.9, 60.1], [25.0, 60.1], [25.0, 60.2], [24.9, 60.2], [24.9, 60.1]]] };
/** 100 kB: far beyond any parameter and any body the service accepts. */
/** MAERSK ABERDEEN, a vessel of the bundled EU MRV data. */
const VESSEL = "9175793";
const HUGE = "x".repeat(100_000);

interface Owner {
  t: TestService;
  accountId: string;
  key: string;
}

interface Example {
  /** Path parameters; `owned` makes objects of the caller's account and returns their ids. */
  path?: Record<string, string>;
  owned?: (o: Owner) => Promise<Record<string, string>>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** One parameter made invalid: the answer must be 400 naming it. */
  bad: { param: string; query?: Record<string, string>; path?: Record<string, string>; body?: Record<string, unknown> };
  /** The plan of the caller when the default (scale) lacks what the operation needs. */
  plan?: PlanId;
}

async function createEndpoint(o: Owner): Promise<string> {
  const res = await request(o.t, o.key, "POST", "/api/v1/account/webhooks", { url: "https://hooks.example.com/in" });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.id;
}

async function created(o: Owner, url: string, body: Record<string, unknown>): Promise<string> {
  const res = await request(o.t, o.key, "POST", url, body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.id;
}

const endpoint = async (o: Owner) => ({ id: await createEndpoint(o) });

const EXAMPLES: Record<string, Example> = {
  "ports.list": { query: { country: "NL" }, bad: { param: "limit", query: { limit: "0" } } },
  "ports.get": { path: { unlocode: "NLRTM" }, bad: { param: "unlocode", path: { unlocode: "NL-RT" } } },
  "flags.get": { path: { iso2: "NL" }, bad: { param: "iso2", path: { iso2: "NLD" } } },
  "usage.get": { bad: { param: "nope", query: { nope: "1" } } },
  "me.feed": { query: { maxAge: "60" }, plan: "team", bad: { param: "maxAge", query: { maxAge: "0" } } },
  "me.stations": { bad: { param: "nope", query: { nope: "1" } } },
  "sanctions.list": { path: { list: "ofac" }, bad: { param: "list", path: { list: "mars" } } },
  screen: { query: { ids: "9292058" }, bad: { param: "ids", query: { ids: "12" } } },
  "vessels.get": { path: { id: VESSEL }, bad: { param: "id", path: { id: "9175794" } } },
  "vessels.track": { path: { id: VESSEL }, query: { hours: "24" }, bad: { param: "hours", path: { id: VESSEL }, query: { hours: "169" } } },
  search: { query: { q: "rotterdam" }, bad: { param: "q", query: { q: "x" } } },
  "account.webhooks.create": { body: { url: "https://hooks.example.com/in" }, bad: { param: "url", body: { url: "http://hooks.example.com/in" } } },
  "account.webhooks.list": { bad: { param: "nope", query: { nope: "1" } } },
  "account.webhooks.get": { owned: endpoint, bad: { param: "id", path: { id: "wh_x" } } },
  "account.webhooks.update": { owned: endpoint, body: { description: "renamed" }, bad: { param: "url", body: { url: "https://127.0.0.1/in" } } },
  "account.webhooks.delete": { owned: endpoint, bad: { param: "id", path: { id: "zone_1" } } },
  "account.webhooks.test": { owned: endpoint, bad: { param: "id", path: { id: "wh_" } } },
  "account.webhooks.rotate": { owned: endpoint, body: { graceHours: 24 }, bad: { param: "graceHours", body: { graceHours: -1 } } },
  "account.webhooks.enable": { owned: endpoint, bad: { param: "id", path: { id: "wh_-1" } } },
  "account.webhooks.deliveries": { owned: endpoint, bad: { param: "limit", query: { limit: "101" } } },
  "account.deliveries.retry": {
    owned: async (o) => {
      const ep = await createEndpoint(o);
      const dlv = await o.t.service.services.webhooks.createSingleDelivery(o.accountId, Number(ep.slice(3)), "webhook.test", (id) => `{"id":"evt_${id}"}`, "test", o.t.clock.now());
      return { id: `dlv_${dlv}` };
    },
    bad: { param: "id", path: { id: "wh_1" } },
  },
  "account.zones.create": { body: { name: "Harbour", geometry: HARBOUR }, bad: { param: "geometry", body: { name: "Harbour", geometry: { type: "Point", coordinates: [25, 60] } } } },
  "account.zones.list": { bad: { param: "nope", query: { nope: "1" } } },
  "account.zones.delete": { owned: async (o) => ({ id: await created(o, "/api/v1/account/zones", { name: "Harbour", geometry: HARBOUR }) }), bad: { param: "id", path: { id: "wh_1" } } },
  "account.follows.create": { body: { mmsi: "230123456" }, bad: { param: "mmsi", body: { mmsi: "12" } } },
  "account.follows.list": { bad: { param: "nope", query: { nope: "1" } } },
  "account.follows.delete": { owned: async (o) => ({ id: await created(o, "/api/v1/account/follows", { mmsi: "230123456" }) }), bad: { param: "id", path: { id: "wh_1" } } },
  "account.saved-searches.create": { body: { name: "tankers", q: "tanker" }, bad: { param: "q", body: { name: "tankers", q: "x" } } },
  "account.saved-searches.list": { bad: { param: "nope", query: { nope: "1" } } },
  "account.saved-searches.delete": {
    owned: async (o) => ({ id: await created(o, "/api/v1/account/saved-searches", { name: "tankers", q: "tanker" }) }),
    bad: { param: "id", path: { id: "wh_1" } },
  },
};

async function request(t: TestService, key: string | null, method: string, url: string, body?: unknown) {
  // Each call a second later on the service's clock: the suite tests keys, not rate limits.
  t.clock.t += 1_000;
  const res = await t.service.app.inject({
    method: method as "GET",
    url,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
  });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}

function urlOf(op: Operation, path: Record<string, string>, query: Record<string, string> = {}): string {
  let url = op.path;
  for (const [name, value] of Object.entries(path)) url = url.replace(`{${name}}`, encodeURIComponent(value));
  assert.doesNotMatch(url, /\{/, `${op.id}: the example names every path parameter`);
  const q = new URLSearchParams(query).toString();
  return q ? `${url}?${q}` : url;
}

/** The documented error body: a code, a message, and nothing that is a stack trace. */
function assertErrorBody(body: Record<string, any>, code: string | RegExp, what: string): void {
  assert.ok(body.error && typeof body.error.message === "string", `${what}: error body ${JSON.stringify(body).slice(0, 200)}`);
  if (typeof code === "string") assert.equal(body.error.code, code, what);
  else assert.match(body.error.code, code, what);
  assert.doesNotMatch(JSON.stringify(body), /\n\s+at /, `${what}: no stack trace`);
}

describe("security suite generated from the registry", () => {
  it("every operation of the registry has an example, and every example an operation", () => {
    const ids = OPERATIONS.map((op) => op.id);
    assert.deepEqual(ids.filter((id) => !(id in EXAMPLES)), [], "operations without an example in test/security/generated.test.ts");
    assert.deepEqual(Object.keys(EXAMPLES).filter((id) => !ids.includes(id)), [], "examples of operations that no longer exist");
  });

  let t: TestService;
  const owners = new Map<PlanId, Owner>();
  let stranger: string;
  let revoked: string;
  before(async () => {
    t = await startTestService();
    for (const plan of ["scale", "team"] as const) {
      const k = await t.key(plan, `owner ${plan}`);
      owners.set(plan, { t, accountId: k.accountId, key: k.key });
    }
    ({ key: stranger } = await t.key("scale", "stranger"));
    const r = await t.key("scale", "revoked");
    await t.service.services.accounts.revokeKey(r.keyId);
    revoked = r.key;
  });
  after(() => t?.close());

  for (const op of OPERATIONS) {
    const example = EXAMPLES[op.id];
    if (!example) continue;
    describe(`${op.method} ${op.path} (${op.id})`, () => {
      const owner = () => owners.get(example.plan ?? "scale")!;
      const pathFor = async () => ({ ...example.path, ...(example.owned ? await example.owned(owner()) : {}) });
      const call = async (key: string | null, url: string, body = example.body) => request(t, key, op.method, url, op.body ? (body ?? {}) : body);

      it("the example is valid: the owner's key gets a 2xx", async () => {
        const res = await call(owner().key, urlOf(op, await pathFor(), example.query));
        assert.ok(res.status >= 200 && res.status < 300, `${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      });

      it(op.auth === "key" ? "without a key: 401 missing_api_key" : "without a key: served (auth is optional)", async () => {
        const res = await call(null, urlOf(op, await pathFor(), example.query));
        if (op.auth === "key") {
          assert.equal(res.status, 401);
          assertErrorBody(res.body, "missing_api_key", op.id);
        } else assert.ok(res.status < 400, `${res.status}`);
      });

      it("with a made-up key: 401 invalid_api_key", async () => {
        const res = await call("mds_live_thisKeyWasNeverIssued000000000000", urlOf(op, await pathFor(), example.query));
        assert.equal(res.status, 401);
        assertErrorBody(res.body, "invalid_api_key", op.id);
      });

      it("with a revoked key: 401 api_key_revoked", async () => {
        const res = await call(revoked, urlOf(op, await pathFor(), example.query));
        assert.equal(res.status, 401);
        assertErrorBody(res.body, "api_key_revoked", op.id);
      });

      if (example.owned) {
        it("another account's object: 404 not_found, naming nothing of the owner", async () => {
          const res = await call(stranger, urlOf(op, await pathFor(), example.query));
          assert.equal(res.status, 404);
          assertErrorBody(res.body, "not_found", op.id);
          assert.doesNotMatch(JSON.stringify(res.body), new RegExp(owner().accountId));
        });
      }

      it(`a bad ${example.bad.param}: 400 invalid_parameter naming it`, async () => {
        const path = { ...(await pathFor()), ...example.bad.path };
        const res = await call(owner().key, urlOf(op, path, example.bad.query ?? example.query), example.bad.body ?? example.body);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assertErrorBody(res.body, "invalid_parameter", op.id);
        assert.equal(res.body.error.param, example.bad.param);
      });

      it("an unknown query parameter: 400 naming it", async () => {
        const res = await call(owner().key, urlOf(op, await pathFor(), { ...example.query, colour: "red" }));
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assertErrorBody(res.body, "invalid_parameter", op.id);
        assert.equal(res.body.error.param, "colour");
      });

      it("a 100 kB input: a documented 4xx, never a 5xx", async () => {
        const path = await pathFor();
        const attempts: { url: string; body?: Record<string, unknown> }[] = [{ url: urlOf(op, path, { ...example.query, q: HUGE }) }];
        const firstPath = Object.keys(path)[0];
        if (firstPath) attempts.push({ url: urlOf(op, { ...path, [firstPath]: HUGE }, example.query) });
        if (op.body) attempts.push({ url: urlOf(op, path, example.query), body: { ...example.body, description: HUGE, name: HUGE } });
        for (const attempt of attempts) {
          const res = await call(owner().key, attempt.url, attempt.body ?? example.body);
          assert.ok([400, 404, 413, 414].includes(res.status), `${attempt.url.slice(0, 80)}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          assertErrorBody(res.body, /^(invalid_parameter|payload_too_large|not_found|route_not_found)$/, op.id);
        }
      });
    });
  }
});
