import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { OPERATIONS } from "../../../src/operations/registry.ts";
import { startTestService, type TestService } from "../../helpers/service.ts";
import { Browser, makeUser } from "./helpers.ts";

const PAGES = ["/account", "/account/keys", "/account/webhooks", "/account/stations", "/account/zones", "/account/watchlists"];

describe("account pages", () => {
  let t: TestService;
  let b: Browser;
  let accountId: string;
  before(async () => {
    t = await startTestService({ withData: false });
    accountId = (await makeUser(t, "dee@example.org", "pro")).accountId;
    b = new Browser(t);
    await b.signIn("dee@example.org");
  });
  after(() => t.close());

  for (const path of PAGES) {
    test(`${path} sends a visitor who is not signed in to /login and back`, async () => {
      const res = await new Browser(t).get(path);
      assert.equal(res.statusCode, 303);
      assert.equal(res.headers.location, `/login?next=${encodeURIComponent(path)}`);
    });

    test(`${path} renders for a signed-in user in the shared layout under a strict CSP`, async () => {
      const res = await b.get(path);
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /<html lang="en">/);
      assert.match(res.body, /<a class="skip" href="#main">/);
      assert.doesNotMatch(res.body, /<style|<script>|style="/);
      const csp = String(res.headers["content-security-policy"]);
      for (const d of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "form-action 'self'", "frame-ancestors 'none'"]) assert.ok(csp.includes(d), `${d} in ${csp}`);
      assert.doesNotMatch(csp, /upgrade-insecure-requests/, "plain http must not upgrade asset requests");
    });
  }

  test("/docs/api lists every operation of the registry with its price, to anyone, and the home page links to it", async () => {
    const res = await new Browser(t).get("/docs/api");
    assert.equal(res.statusCode, 200);
    for (const op of OPERATIONS) assert.ok(res.body.includes(`<code>${op.method} ${op.path}</code>`), `${op.id} listed`);
    assert.match(res.body, /<code>GET \/api\/v1\/usage<\/code><\/td><td>[^<]*<\/td><td>free<\/td>/);
    assert.match(res.body, /<code>GET \/api\/v1\/screen<\/code><\/td><td>[^<]*<\/td><td>1 credit per element of `ids`<\/td>/);
    assert.match((await new Browser(t).get("/")).body, /<a href="\/docs\/api">/);
  });

  test("the account page shows the usage figures of the account's plan", async () => {
    const res = await b.get("/account");
    assert.match(res.body, /Credits remaining/);
    assert.match(res.body, /pro/);
  });

  test("the home page, sign-in page and assets are public", async () => {
    assert.equal((await new Browser(t).get("/")).statusCode, 200);
    assert.equal((await new Browser(t).get("/login")).statusCode, 200);
    const css = await new Browser(t).get("/assets/site.css");
    assert.equal(css.statusCode, 200);
    assert.equal((await new Browser(t).get("/vendor/leaflet/leaflet.js")).statusCode, 200);
    assert.equal((await new Browser(t).get("/vendor/terra-draw/terra-draw.umd.js")).statusCode, 200);
  });

  test("sign-up is closed by default", async () => {
    assert.equal((await new Browser(t).get("/signup")).statusCode, 404);
  });

  test("a key is created by form, shown once with no-store, listed by prefix, and revoked after a confirmation page", async () => {
    const created = await b.post("/account/keys", { name: "laptop" }, "/account/keys");
    assert.equal(created.statusCode, 200);
    assert.equal(created.headers["cache-control"], "no-store");
    const key = /<code id="new-key">(mds_sk_[0-9A-Za-z]{32})<\/code>/.exec(created.body)?.[1];
    assert.ok(key, "the new key is on the answer");
    const usage = await t.service.app.inject({ method: "GET", url: "/api/v1/usage", headers: { authorization: `Bearer ${key}` } });
    assert.equal(usage.statusCode, 200);

    const list = await b.get("/account/keys");
    assert.ok(!list.body.includes(key), "the key is never shown again");
    assert.ok(list.body.includes(key.slice(0, 11)));
    const listed = (await t.service.services.accounts.listKeys(accountId)).find((k) => k.name === "laptop")!;
    assert.match(list.body, /<td>laptop<\/td><td><code>mds_sk_[^<]+<\/code><\/td><td>[^<]+<\/td><td>20\d\d-/, "last used is shown after a use");

    const confirm = await b.get(`/account/keys/${listed.id}/revoke`);
    assert.equal(confirm.statusCode, 200);
    const revoked = await b.post(`/account/keys/${listed.id}/revoke`, {}, `/account/keys/${listed.id}/revoke`);
    assert.equal(revoked.statusCode, 303);
    assert.equal(revoked.headers.location, "/account/keys?done=revoked");
    const after = await t.service.app.inject({ method: "GET", url: "/api/v1/usage", headers: { authorization: `Bearer ${key}` } });
    assert.equal(after.statusCode, 401);
  });

  test("another account's key cannot be revoked", async () => {
    const other = await t.key("pro", "someone else");
    const res = await b.post(`/account/keys/${other.keyId}/revoke`, {}, "/account/keys");
    assert.equal(res.statusCode, 404);
    assert.equal((await t.service.services.accounts.listKeys(other.accountId))[0]!.revokedAt, null);
  });

  test("with no OAuth server wired, the keys page says there are no connected apps", async () => {
    assert.match((await b.get("/account/keys")).body, /No connected apps/);
  });

  test("a webhook URL the delivery rules refuse shows the reason on the form and adds nothing", async () => {
    const res = await b.post("/account/webhooks", { url: "http://127.0.0.1/hook" }, "/account/webhooks");
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /role="alert"/);
    assert.match(res.body, /https/);
    assert.match(res.body, /value="http:\/\/127\.0\.0\.1\/hook"/, "the form keeps what was typed");
    assert.equal((await t.service.services.webhooks.listEndpoints(accountId)).length, 0);
  });

  test("a webhook endpoint is added with its secret shown once, and its page lists actions and the delivery log", async () => {
    const res = await b.post("/account/webhooks", { url: "https://hooks.example.com/mds", description: "ops" }, "/account/webhooks");
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<code id="new-secret">whsec_/);
    const [endpoint] = await t.service.services.webhooks.listEndpoints(accountId);
    assert.ok(endpoint);
    const page = await b.get(`/account/webhooks/wh_${endpoint.id}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Send a test event/);
    assert.match(page.body, /Rotate secret/);
    const rotated = await b.post(`/account/webhooks/wh_${endpoint.id}/rotate`, { graceHours: "24" }, `/account/webhooks/wh_${endpoint.id}`);
    assert.equal(rotated.statusCode, 200);
    assert.match(rotated.body, /<code id="new-secret">whsec_/);
    assert.match(rotated.body, /previous secret also signs until/);
  });

  test("a station is created with its secret and recipes, and listed with counters", async () => {
    const res = await b.post("/account/stations", { name: "roof" }, "/account/stations");
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<code id="new-secret">mds_st_/);
    assert.match(res.body, /AUTH/);
    assert.match(res.body, /<td>roof<\/td><td>never<\/td>/);
  });

  test("a zone pasted as GeoJSON is added and deleted; a bad polygon shows why", async () => {
    const square = JSON.stringify({ type: "Polygon", coordinates: [[[4, 52], [4.5, 52], [4.5, 52.5], [4, 52.5], [4, 52]]] });
    const added = await b.post("/account/zones", { name: "Rotterdam approach", geometry: square }, "/account/zones");
    assert.equal(added.statusCode, 303);
    const page = await b.get("/account/zones");
    assert.match(page.body, /Rotterdam approach/);
    const bad = await b.post("/account/zones", { name: "broken", geometry: "{not json" }, "/account/zones");
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /not valid JSON/);
    const [zone] = await t.service.services.alerts.listZones(accountId);
    const deleted = await b.post(`/account/zones/zone_${zone!.id}/delete`, {}, "/account/zones");
    assert.equal(deleted.statusCode, 303);
    assert.equal((await t.service.services.alerts.listZones(accountId)).length, 0);
  });

  test("a follow by IMO is added; a bad IMO shows the rule", async () => {
    const bad = await b.post("/account/follows", { kind: "imo", value: "1234568" }, "/account/zones");
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /check digit/);
    const ok = await b.post("/account/follows", { kind: "imo", value: "9176187" }, "/account/zones");
    assert.equal(ok.statusCode, 303);
    assert.match((await b.get("/account/zones")).body, /IMO 9176187/);
  });
});

describe("open sign-up", () => {
  test("SIGNUP=open creates a sandbox account and signs the new user in", async () => {
    const t = await startTestService({ withData: false, env: { SIGNUP: "open" } });
    try {
      const b = new Browser(t);
      const short = await b.post("/signup", { email: "eve@example.org", password: "short" }, "/signup");
      assert.equal(short.statusCode, 400);
      assert.match(short.body, /Password must be 10 to 200 characters long/);
      const res = await b.post("/signup", { email: "eve@example.org", password: "long enough password" }, "/signup");
      assert.equal(res.statusCode, 303);
      const account = await b.get("/account");
      assert.equal(account.statusCode, 200);
      assert.match(account.body, /sandbox/);
      const again = await new Browser(t).post("/signup", { email: "EVE@example.org", password: "long enough password" }, "/signup");
      assert.equal(again.statusCode, 409);
    } finally {
      await t.close();
    }
  });
});
