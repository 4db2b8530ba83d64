/**
 * Every page of the web face, with script on or with script off (one test file each, so the
 * two run side by side): axe-core finds no serious or critical WCAG 2.1 A/AA violation, nothing
 * is fetched from outside the service, and (with MDS_SCREENSHOTS=1) a screenshot of each goes
 * to test-output/screenshots/ for people to look at.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import type { Page } from "playwright-core";
import { MemoryProvider } from "../../../helpers/oauth.ts";
import { type BrowserFixture, HOOK_URL, signIn, startFixture } from "./fixture.ts";
import { newContext, NO_BROWSER, overflowOnPhone, screenshot, seriousA11yViolations } from "./harness.ts";

const HARBOUR = { type: "Polygon", coordinates: [[[24.9, 60.1], [25.0, 60.1], [25.0, 60.2], [24.9, 60.2], [24.9, 60.1]]] };

export function describeEveryPage(javaScriptEnabled: boolean, ingestPorts: { tcp: number; udp: number }): void {
  describe(`browser: every page is accessible, script ${javaScriptEnabled ? "on" : "off"}`, { skip: NO_BROWSER }, () => {
    let f: BrowserFixture;
    let email: string;
    let keyId: string;
    let grantId: string;
    let endpointId: string;
    let authUrl: URL;
    before(async () => {
      // Listener ports other than the defaults: the stations page must name these.
      f = await startFixture({ receiver: true, env: { INGEST_TCP_PORT: String(ingestPorts.tcp), INGEST_UDP_PORT: String(ingestPorts.udp) } });
      const u = await f.user();
      email = u.email;
      // Something on every page: a key, a connected app, an endpoint with a delivery, a zone and a follow.
      const key = await f.t.service.services.accounts.createKey(u.accountId, "pages test");
      keyId = key.id;
      const api = (method: string, url: string, body: unknown) =>
        fetch(`${f.base}${url}`, { method, headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" }, body: JSON.stringify(body) }).then(async (r) => {
          assert.equal(r.status, 200, `${url}: ${await r.clone().text()}`);
          return ((await r.json()) as { data: Record<string, any> }).data;
        });
      endpointId = (await api("POST", "/api/v1/account/webhooks", { url: HOOK_URL, description: "pages" })).id;
      await api("POST", `/api/v1/account/webhooks/${endpointId}/test`, {});
      await api("POST", "/api/v1/account/zones", { name: "Helsinki harbour", geometry: HARBOUR });
      await api("POST", "/api/v1/account/follows", { mmsi: "230123456" });
      const provider = new MemoryProvider({ redirect: "http://127.0.0.1:33418/callback" });
      await assert.rejects(new Client({ name: "pages", version: "1" }).connect(new StreamableHTTPClientTransport(new URL(`${f.base}/mcp`), { authProvider: provider })), UnauthorizedError);
      authUrl = provider.authorizationUrl!;
      grantId = await f.t.service.oauth.store.upsertGrant({ accountId: u.accountId, userId: u.userId, clientId: provider.info!.client_id, redirectUri: "http://127.0.0.1:33418/callback", scopes: ["mcp"], now: f.t.clock.now() });
    });
    after(() => f.close());

    const mode = javaScriptEnabled ? "js" : "nojs";
    it(`script ${javaScriptEnabled ? "on" : "off"}: home, sign-in, sign-up, account, keys, webhooks, stations, zones, consent, the OAuth error and confirm pages`, async () => {
      const { context, outside } = await newContext(f.browser, f.base, { javaScriptEnabled });
      const page = await context.newPage();
      const problems: string[] = [];
      // Any console error (a missing favicon's 404 included) is a problem; a status page's own 4xx is its point.
      let expectedStatus = 200;
      page.on("console", (m) => {
        if (m.type() === "error" && !(expectedStatus >= 400 && new RegExp(`status of ${expectedStatus}`).test(m.text()))) problems.push(`console: ${m.text()} at ${page.url()}`);
      });
      page.on("pageerror", (e) => problems.push(`page error: ${e.message} at ${page.url()}`));
      const check = async (name: string, p: Page = page) => {
        for (const v of await seriousA11yViolations(p)) problems.push(`${name}: ${v}`);
        if ((await p.locator("header form[role=search] #site-q").count()) !== 1) problems.push(`${name}: no search box in the header`);
        const over = await overflowOnPhone(p);
        if (over > 0) problems.push(`${name}: ${over} px wider than a 390 px screen`);
        await screenshot(p, `${name}-${mode}`);
      };
      const visit = async (name: string, path: string, status = 200) => {
        expectedStatus = status;
        const res = await page.goto(`${f.base}${path}`);
        assert.equal(res?.status(), status, `${name} (${path})`);
        await check(name);
      };

      await visit("home", "/");
      await visit("api-docs", "/docs/api");
      await visit("docs-errors", "/docs/errors#invalid_parameter");
      // The anchor of an API error's docs link lands on its entry.
      assert.equal(await page.locator("tr#invalid_parameter").count(), 1);
      assert.match((await page.locator("tr#invalid_parameter").textContent()) ?? "", /^\s*invalid_parameter\s*400/);
      await visit("docs-webhooks", "/docs/webhooks");
      await visit("docs-mcp", "/docs/mcp");
      await visit("docs-oauth", "/docs/oauth");
      await visit("docs-not-found", "/docs/nope", 404);
      await visit("login", "/login");
      // Sign-up is closed here: its 404 is the page's point.
      expectedStatus = 404;
      const signup = await page.goto(`${f.base}/signup`);
      assert.ok(signup && signup.status() < 500);
      await check("signup");
      await signIn(page, f.base, email);
      await visit("account", "/account");
      await visit("keys", "/account/keys");
      await page.getByLabel("Name").fill(`made with ${mode}`);
      await Promise.all([page.waitForURL(`${f.base}/account/keys`), page.getByRole("button", { name: "Create key" }).click()]);
      assert.equal(await page.locator("#new-key").count(), 1);
      await check("key-created");
      await visit("key-revoke-confirm", `/account/keys/${keyId}/revoke`);
      await visit("app-disconnect-confirm", `/account/apps/${grantId}/disconnect`);
      await visit("webhooks", "/account/webhooks");
      await visit("webhook-deliveries", `/account/webhooks/${endpointId}`);
      assert.equal(await page.locator("#deliveries tbody tr").count(), 1);
      await visit("webhook-delete-confirm", `/account/webhooks/${endpointId}/delete`);
      await visit("stations", "/account/stations");
      await page.getByLabel("Name").fill(`roof ${mode}`);
      await Promise.all([page.waitForURL(/\/account\/stations\/\d+$/), page.getByRole("button", { name: "Add station" }).click()]);
      assert.equal(await page.locator("#new-secret").count(), 1);
      assert.match((await page.locator("#recipe").textContent()) ?? "", new RegExp(`TCP \\(port ${ingestPorts.tcp}\\)[\\s\\S]*UDP \\(port ${ingestPorts.udp}\\)`), "the ports the service listens on");
      await check("station-created");
      const stationPage = new URL(page.url()).pathname;
      await visit("station", stationPage);
      assert.equal(await page.locator("#new-secret").count(), 0, "the secret once; the recipe stays");
      assert.equal(await page.locator("#recipe").count(), 1);
      await visit("station-rotate-confirm", `${stationPage}/rotate`);
      await visit("station-delete-confirm", `${stationPage}/delete`);
      await visit("zones", "/account/zones");
      assert.equal(await page.locator("#zone-map-figure").isVisible(), javaScriptEnabled, "the map shows only with script");
      await visit("consent", authUrl.pathname + authUrl.search);
      const wrong = new URL(authUrl);
      wrong.searchParams.set("redirect_uri", "https://evil.example/cb");
      await visit("oauth-error", wrong.pathname + wrong.search, 400);
      await visit("not-found-key", "/account/keys/key_nope/revoke", 404);

      await context.close();
      assert.deepEqual(problems, []);
      assert.deepEqual(outside, [], "no request leaves the service");
    });
  });
}
