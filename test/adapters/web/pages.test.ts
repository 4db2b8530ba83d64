import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { ERROR_CODES } from "../../../src/domain/errors.ts";
import { OPERATIONS } from "../../../src/operations/registry.ts";
import { startTestService, type TestService } from "../../helpers/service.ts";
import { Browser, makeUser } from "./helpers.ts";

const PAGES = ["/account", "/account/keys", "/account/webhooks", "/account/stations", "/account/zones", "/account/watchlists"];

describe("account pages", () => {
  let t: TestService;
  let b: Browser;
  let accountId: string;
  before(async () => {
    // Listener ports other than the defaults: the stations page must name these, not 5631/5632.
    t = await startTestService({ withData: false, env: { INGEST_TCP_PORT: "6131", INGEST_UDP_PORT: "6132" } });
    accountId = (await makeUser(t, "dee@example.org", "pro")).accountId;
    b = new Browser(t);
    await b.signIn("dee@example.org");
  });
  after(() => t.close());
  /**
   * The test clock stands still, so every page view would fall in one second of the pages'
   * rate limit (50 a second); each test, and each round of a loop of forms, starts a second later.
   */
  const tick = () => {
    t.clock.t += 1000;
  };
  beforeEach(tick);

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
    assert.match(res.body, /<code>GET \/api\/v1\/usage<\/code><\/a><\/td><td>[^<]*<\/td><td>free<\/td>/);
    assert.match(res.body, /<code>GET \/api\/v1\/screen<\/code><\/a><\/td><td>[^<]*<\/td><td>1 credit per element of `ids`<\/td>/);
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

  test("a key is created by form (POST/redirect/GET), shown once with no-store, listed by prefix, and revoked after a confirmation page", async () => {
    const created = await b.post("/account/keys", { name: "laptop" }, "/account/keys");
    assert.equal(created.statusCode, 303, "the form answers with a redirect: reloading the page does not post it again");
    assert.equal(created.headers.location, "/account/keys");
    const shown = await b.get("/account/keys");
    assert.equal(shown.headers["cache-control"], "no-store");
    const key = /<code id="new-key">(mds_sk_[0-9A-Za-z]{32})<\/code>/.exec(shown.body)?.[1];
    assert.ok(key, "the new key is on the page the redirect opens");
    assert.equal((await t.service.services.accounts.listKeys(accountId)).filter((k) => k.name === "laptop").length, 1);
    const usage = await t.service.app.inject({ method: "GET", url: "/api/v1/usage", headers: { authorization: `Bearer ${key}` } });
    assert.equal(usage.statusCode, 200);

    const list = await b.get("/account/keys");
    assert.ok(!list.body.includes(key), "the key is never shown again (a reload shows the list)");
    assert.equal((await t.service.services.accounts.listKeys(accountId)).filter((k) => k.name === "laptop").length, 1, "and makes no second key");
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

  test("a flash cookie not sealed by this session shows nothing", async () => {
    const forged = Buffer.from(JSON.stringify({ kind: "key", name: "x", key: "mds_sk_forged" })).toString("base64url");
    for (const garbage of [forged, "", "%%%", "A".repeat(5000), "A".repeat(40)]) {
      const r = await t.service.app.inject({ method: "GET", url: "/account/keys", headers: { cookie: `${b.cookieHeader}; mds_flash=${garbage}` } });
      assert.equal(r.statusCode, 200);
      assert.doesNotMatch(r.body, /mds_sk_forged|id="new-key"/);
    }
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
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, "/account/webhooks");
    assert.match((await b.get("/account/webhooks")).body, /<code id="new-secret">whsec_/);
    assert.doesNotMatch((await b.get("/account/webhooks")).body, /id="new-secret"/, "shown once");
    const [endpoint] = await t.service.services.webhooks.listEndpoints(accountId);
    assert.ok(endpoint);
    const page = await b.get(`/account/webhooks/wh_${endpoint.id}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Send a test event/);
    assert.match(page.body, /Rotate secret/);
    const rotated = await b.post(`/account/webhooks/wh_${endpoint.id}/rotate`, { graceHours: "24" }, `/account/webhooks/wh_${endpoint.id}`);
    assert.equal(rotated.statusCode, 303);
    const after = await b.get(`/account/webhooks/wh_${endpoint.id}`);
    assert.match(after.body, /<code id="new-secret">whsec_/);
    assert.match(after.body, /previous secret also signs until/);
  });

  test("a test event that fails says so on the banner, and the log explains the error class in words", async () => {
    const [endpoint] = await t.service.services.webhooks.listEndpoints(accountId);
    const id = `wh_${endpoint!.id}`;
    const tested = await b.post(`/account/webhooks/${id}/test`, {}, `/account/webhooks/${id}`);
    assert.equal(tested.statusCode, 303);
    const page = await b.get(`/account/webhooks/${id}`);
    // hooks.example.com has no receiver here: the banner is an error, never a green "sent".
    assert.match(page.body, /<p class="error" role="alert" id="test-failed">The test event was not delivered[^<]*\. [A-Z][^<]+<\/p>/);
    const row = /<table id="deliveries">[\s\S]*?<tbody><tr>([\s\S]*?)<\/tr>/.exec(page.body)?.[1] ?? "";
    assert.match(row, /<td><code>[a-z_]+<\/code>: [A-Z][^<]+ <em>[A-Z][^<]+<\/em><\/td>/, row);
  });

  test("an endpoint is changed, turned off, turned on and deleted from its page; garbage is refused on each form", async () => {
    const made = await t.service.services.webhooks.createEndpoint(accountId, { url: "https://hooks.example.com/edit", description: null, events: null }, "whsec_pagestestpagestestpagestest0000", 5, t.clock.now());
    assert.ok(made.ok);
    const id = `wh_${made.endpoint.id}`;
    const from = `/account/webhooks/${id}`;
    for (const [fields, why] of [
      [{ url: "javascript:alert(1)" }, /url/i],
      [{ url: "http://hooks.example.com/x" }, /https/],
      [{ url: "https://hooks.example.com/ok", description: "x".repeat(201) }, /description/i],
      [{ url: "" }, /url/i],
    ] as const) {
      tick();
      const bad = await b.post(`${from}/edit`, fields, from);
      assert.equal(bad.statusCode, 400, JSON.stringify(fields));
      assert.match(bad.body, /role="alert"/);
      assert.match(bad.body, why);
    }
    assert.equal((await t.service.services.webhooks.getEndpoint(accountId, made.endpoint.id))?.url, "https://hooks.example.com/edit", "nothing changed");
    const edited = await b.post(`${from}/edit`, { url: "https://hooks.example.com/edited", description: "renamed" }, from);
    assert.equal(edited.statusCode, 303);
    assert.equal(edited.headers.location, `${from}?done=saved`);
    const stored = await t.service.services.webhooks.getEndpoint(accountId, made.endpoint.id);
    assert.deepEqual([stored?.url, stored?.description], ["https://hooks.example.com/edited", "renamed"]);

    const off = await b.post(`${from}/disable`, {}, from);
    assert.equal(off.statusCode, 303);
    const disabled = await t.service.services.webhooks.getEndpoint(accountId, made.endpoint.id);
    assert.deepEqual([disabled?.status, disabled?.disabledReason], ["disabled", "turned off by its owner"]);
    assert.match((await b.get(from)).body, /turned off \(turned off by its owner\)[\s\S]*Turn back on/);
    assert.equal((await b.post(`${from}/enable`, {}, from)).statusCode, 303);
    assert.equal((await t.service.services.webhooks.getEndpoint(accountId, made.endpoint.id))?.status, "active");

    assert.equal((await b.get(`${from}/delete`)).statusCode, 200);
    for (const garbage of ["wh_abc", "wh_0", "zone_1", "%00", "wh_99999999999999999999"]) {
      tick();
      assert.ok([400, 404].includes((await b.get(`/account/webhooks/${garbage}/delete`)).statusCode), garbage);
      assert.ok([400, 404].includes((await b.post(`/account/webhooks/${garbage}/delete`, {}, from)).statusCode), garbage);
    }
    const gone = await b.post(`${from}/delete`, {}, `${from}/delete`);
    assert.equal(gone.statusCode, 303);
    assert.equal(gone.headers.location, "/account/webhooks?done=deleted");
    assert.equal(await t.service.services.webhooks.getEndpoint(accountId, made.endpoint.id), null);
    assert.match((await b.get("/account/webhooks?done=deleted")).body, /The endpoint is deleted/);
  });

  test("another account's endpoint can be neither changed, turned off nor deleted", async () => {
    const other = await t.key("pro", "endpoint owner");
    const made = await t.service.services.webhooks.createEndpoint(other.accountId, { url: "https://hooks.example.com/theirs", description: null, events: null }, "whsec_otheraccountotheraccountother000", 5, t.clock.now());
    assert.ok(made.ok);
    const id = `wh_${made.endpoint.id}`;
    assert.equal((await b.post(`/account/webhooks/${id}/delete`, {}, "/account/webhooks")).statusCode, 404);
    assert.equal((await b.post(`/account/webhooks/${id}/disable`, {}, "/account/webhooks")).statusCode, 404);
    assert.equal((await b.post(`/account/webhooks/${id}/edit`, { url: "https://hooks.example.com/mine" }, "/account/webhooks")).statusCode, 404);
    const still = await t.service.services.webhooks.getEndpoint(other.accountId, made.endpoint.id);
    assert.deepEqual([still?.url, still?.status], ["https://hooks.example.com/theirs", "active"]);
  });

  test("a sandbox account learns before the form that its plan has no webhook endpoints; a Pro account sees its limit", async () => {
    await makeUser(t, "sandy@example.org", "sandbox");
    const sandy = new Browser(t);
    await sandy.signIn("sandy@example.org");
    const page = await sandy.get("/account/webhooks");
    assert.match(page.body, /<p id="endpoint-limit">Your sandbox plan includes no webhook endpoints\./);
    assert.doesNotMatch(page.body, /id="webhook-url"/, "no form to fill in for nothing");
    assert.match((await b.get("/account/webhooks")).body, /<p id="endpoint-limit">Your pro plan allows 5 endpoints; you have \d\./);
  });

  test("a station is created (POST/redirect/GET) with its secret once; its page keeps the recipe with the ports the service listens on", async () => {
    const res = await b.post("/account/stations", { name: "roof" }, "/account/stations");
    assert.equal(res.statusCode, 303);
    const at = String(res.headers.location);
    assert.match(at, /^\/account\/stations\/\d+$/);
    const first = await b.get(at);
    assert.match(first.body, /<code id="new-secret">mds_st_/);
    const again = await b.get(at);
    assert.doesNotMatch(again.body, /id="new-secret"/, "the secret only once; the recipe stays");
    for (const body of [first.body, again.body]) {
      assert.match(body, /<h3>TCP \(port 6131\)<\/h3>/);
      assert.match(body, /<h3>UDP \(port 6132\)<\/h3>/);
      assert.match(body, /nc localhost 6131/);
      assert.doesNotMatch(body, /5631|5632/, "not the default ports this service does not listen on");
      assert.match(body, /<th scope="row">Addresses allowed to send<\/th><td>any<\/td>/);
    }
    assert.match((await b.get("/account/stations")).body, /<td><a href="\/account\/stations\/\d+">roof<\/a><\/td><td>never<\/td>/);
  });

  test("a station's secret is rotated from its page after a confirm step; garbage and other accounts' stations are not found", async () => {
    const created = await b.post("/account/stations", { name: "mast" }, "/account/stations");
    const at = String(created.headers.location);
    const old = /<code id="new-secret">(mds_st_[^<]+)<\/code>/.exec((await b.get(at)).body)?.[1];
    assert.ok(old);
    const confirm = await b.get(`${at}/rotate`);
    assert.equal(confirm.statusCode, 200);
    assert.match(confirm.body, /<button type="submit" id="confirm">Rotate secret<\/button>/);
    const rotated = await b.post(`${at}/rotate`, {}, `${at}/rotate`);
    assert.equal(rotated.statusCode, 303);
    assert.equal(rotated.headers.location, `${at}?done=rotated`);
    const fresh = /<code id="new-secret">(mds_st_[^<]+)<\/code>/.exec((await b.get(`${at}?done=rotated`)).body)?.[1];
    assert.ok(fresh && fresh !== old, "a new secret, shown once");
    t.service.ingest.directory.forget();
    assert.equal(await t.service.ingest.directory.bySecret(old), null, "the old secret is refused");
    assert.ok(await t.service.ingest.directory.bySecret(fresh));

    const other = await t.key("pro", "station owner");
    const theirs = await t.service.services.stations.createStation(other.accountId, "theirs");
    for (const ref of [String(theirs.station.id), "abc", "0", "-1", "1e3", "99999999999", "%00"]) {
      tick();
      assert.equal((await b.get(`/account/stations/${ref}`)).statusCode, 404, ref);
      assert.equal((await b.post(`/account/stations/${ref}/rotate`, {}, "/account/stations")).statusCode, 404, ref);
    }
    const bad = await b.post("/account/stations", { name: "" }, "/account/stations");
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /role="alert"/);
  });

  test("a station is deleted from its page after a confirm step: gone from the list, refused at ingest, its port released", async () => {
    const { station, secret } = await t.service.services.stations.createStation(accountId, "to go", { plainPort: true, shared: true });
    const at = `/account/stations/${station.id}`;
    assert.match((await b.get(at)).body, /Delete this station…/);
    const confirm = await b.get(`${at}/delete`);
    assert.equal(confirm.statusCode, 200);
    assert.match(confirm.body, /its port \d+ is released/);
    const deleted = await b.post(`${at}/delete`, {}, `${at}/delete`);
    assert.equal(deleted.statusCode, 303);
    assert.equal(deleted.headers.location, "/account/stations?done=deleted");
    const list = await b.get("/account/stations?done=deleted");
    assert.match(list.body, /The station is deleted/);
    assert.doesNotMatch(list.body, />to go</);
    assert.equal(await t.service.services.stations.getStation(station.id), null);
    t.service.ingest.directory.forget();
    assert.equal(await t.service.ingest.directory.bySecret(secret), null, "its secret is refused");
    assert.ok(!(await t.service.services.stations.receiverStations()).some((s) => s.id === station.id), "no port listened on for it");
    assert.ok(!(await t.service.services.stations.sharedStations()).some((s) => s.id === station.id), "no longer shared");
    tick();
    assert.equal((await b.get(at)).statusCode, 404);
    assert.equal((await b.post(`${at}/delete`, {}, "/account/stations")).statusCode, 404, "deleting twice finds nothing");
    const other = await t.key("pro", "keeps theirs");
    const theirs = await t.service.services.stations.createStation(other.accountId, "theirs too");
    for (const ref of [String(theirs.station.id), "abc", "0", "99999999999"]) {
      tick();
      assert.equal((await b.get(`/account/stations/${ref}/delete`)).statusCode, 404, ref);
      assert.equal((await b.post(`/account/stations/${ref}/delete`, {}, "/account/stations")).statusCode, 404, ref);
    }
    assert.ok(await t.service.services.stations.getStation(theirs.station.id), "another account's station is untouched");
  });

  test("every page has the header's search box, a plain GET form to /search", async () => {
    for (const [who, path] of [...[...PAGES, "/account/stations/abc"].map((p) => [b, p] as const), ...["/", "/login", "/docs/api", "/docs/errors", "/docs/webhooks", "/search", "/search?q=zz"].map((p) => [new Browser(t), p] as const)]) {
      tick();
      const body = (await who.get(path)).body;
      assert.match(body, /<form method="get" action="\/search" role="search" class="site-search"[^>]*>.*<input id="site-q" name="q"/, path);
    }
  });

  test("the header's suggestions answer garbage with no suggestions, never an error page", async () => {
    for (const q of ["", "a", "%20", "x".repeat(101), "%00", "ab&q=cd"]) {
      const r = await t.service.app.inject({ method: "GET", url: `/search/suggestions?q=${q}` });
      assert.equal(r.statusCode, 200, q);
      assert.deepEqual(r.json(), { suggestions: [] }, q);
    }
    assert.deepEqual((await t.service.app.inject({ method: "GET", url: "/search/suggestions" })).json(), { suggestions: [] });
  });

  test("/favicon.ico is an icon", async () => {
    const r = await t.service.app.inject({ method: "GET", url: "/favicon.ico" });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers["content-type"], "image/vnd.microsoft.icon");
    assert.deepEqual([...r.rawPayload.subarray(0, 4)], [0, 0, 1, 0]);
  });

  test("/docs/errors is HTML in the site's layout; every error code's docs link anchor is its row", async () => {
    const r = await new Browser(t).get("/docs/errors");
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers["content-type"]), /^text\/html/);
    assert.match(r.body, /<h1>Errors<\/h1>/);
    assert.doesNotMatch(r.body, /\| code \| status \|/, "no raw Markdown table");
    for (const code of Object.keys(ERROR_CODES)) assert.match(r.body, new RegExp(`<tr id="${code}">\\s*<td>${code}</td>`), code);
    assert.match(r.body, /<h2 id="codes">Codes<a href="#codes" class="anchor"/);
    assert.match(r.body, /<a href="\/docs\/vessels#vessel-type-and-flag">/, "links between docs go to their pages");
    // The anchor an API error hands out is on the page.
    const error = (await t.service.app.inject({ method: "GET", url: "/api/v1/usage", headers: { authorization: "Bearer nope" } })).json() as { error: { docs: string } };
    const anchor = new URL(error.error.docs).hash.slice(1);
    assert.match(r.body, new RegExp(`<tr id="${anchor}">`));
    const md = await new Browser(t).get("/docs/errors.md");
    assert.match(String(md.headers["content-type"]), /^text\/markdown/);
    assert.match(md.body, /^# Errors/);
  });

  test("webhooks, MCP and OAuth docs are pages; an unknown doc or a path trick is a 404 page", async () => {
    for (const path of ["/docs/webhooks", "/docs/mcp", "/docs/oauth"]) {
      const r = await new Browser(t).get(path);
      assert.equal(r.statusCode, 200, path);
      assert.match(r.body, /<div class="doc">/);
      assert.match(r.body, /<h1>[^<]+<\/h1>/);
      assert.doesNotMatch(r.body, /<script>|style="/);
    }
    assert.match((await new Browser(t).get("/docs/webhooks")).body, /<h1>Webhooks and alerts<\/h1>/);
    for (const path of ["/docs/nope", "/docs/..%2Fpackage.json", "/docs/%00", "/docs/adr", "/docs/ERRORS", "/docs/errors.md.md"]) {
      const r = await new Browser(t).get(path);
      assert.equal(r.statusCode, 404, path);
      assert.match(String(r.headers["content-type"]), /^text\/html/);
    }
    // Longer than a path parameter may be: refused before any page runs.
    assert.equal((await new Browser(t).get(`/docs/${"a".repeat(300)}`)).statusCode, 400);
  });

  test("the API reference gives each operation its parameters with bounds, price and an example request and answer", async () => {
    const body = (await new Browser(t).get("/docs/api")).body;
    for (const op of OPERATIONS) assert.ok(body.includes(`<section class="operation" id="${op.id}"`), op.id);
    const start = body.indexOf('<section class="operation" id="vessels.track"');
    const section = body.slice(start, body.indexOf("</section>", start));
    assert.match(section, /<caption>Parameters of vessels\.track<\/caption>/);
    assert.match(section, /<td><code>id<\/code><\/td><td>path<\/td><td>yes<\/td>/);
    assert.match(section, /curl &quot;http:\/\/localhost:80\/api\/v1\/vessels\/&lt;id&gt;\/track/);
    assert.match(section, /&quot;data&quot;:/);
    assert.match(section, /Price: /);
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
