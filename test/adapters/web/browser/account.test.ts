/**
 * The account pages in a real browser, as a person uses them: signing in, an API key made
 * and revoked, a webhook endpoint added, tested and turned back on. Every page met on the way
 * is checked with axe (and photographed with MDS_SCREENSHOTS=1); no request may leave the service.
 */
import assert from "node:assert/strict";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import { TEST_EVENT_TYPE } from "../../../../src/domain/alerts/payload.ts";
import { type BrowserFixture, HOOK_URL, signIn, startFixture } from "./fixture.ts";
import { newContext, NO_BROWSER, screenshot, seriousA11yViolations } from "./harness.ts";

describe("browser: account pages", { skip: NO_BROWSER }, () => {
  let f: BrowserFixture;
  let context: BrowserContext;
  let outside: string[];
  let page: Page;
  before(async () => {
    f = await startFixture({ receiver: true });
  });
  after(() => f.close());
  beforeEach(async () => {
    ({ context, outside } = await newContext(f.browser, f.base));
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
    assert.deepEqual(outside, [], "no request leaves the service");
  });

  const accessible = async (name: string) => {
    assert.deepEqual(await seriousA11yViolations(page), [], `axe on ${name}`);
    await screenshot(page, name);
  };

  it("sign in: a wrong password shows the error on the form; the right one lands on the account page", async () => {
    const { email } = await f.user();
    await page.goto(`${f.base}/login`);
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").waitFor();
    assert.equal(await page.getByRole("alert").textContent(), "Wrong e-mail or password.");
    assert.equal(new URL(page.url()).pathname, "/login");
    assert.equal(await page.getByLabel("E-mail").inputValue(), email, "the e-mail stays typed in");
    await accessible("login-error");

    await page.getByLabel("Password").fill("correct horse battery");
    await Promise.all([page.waitForURL(`${f.base}/account`), page.getByRole("button", { name: "Sign in" }).click()]);
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Account");
    assert.match((await page.locator("#usage").textContent()) ?? "", /Credits used\s*0 of 25,000/);
    await accessible("account");
  });

  it("API key: created and shown once with a copy button; revoked after a confirm step, then the API refuses it", async () => {
    const { email, accountId } = await f.user();
    await signIn(page, f.base, email, "/account/keys");
    await page.getByLabel("Name").fill("laptop script");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.locator("#new-key").textContent())!;
    assert.match(key, /^\S{20,}$/);
    assert.equal(await page.getByRole("button", { name: /Copy new api key/i }).count(), 1);
    await accessible("key-created");
    // Reloading the page that shows the key sends no form again: no second key, and the key is not shown again.
    await page.reload();
    assert.equal(await page.locator("#new-key").count(), 0);
    assert.equal((await f.t.service.services.accounts.listKeys(accountId)).filter((k) => k.name === "laptop script").length, 1);

    assert.equal((await fetch(`${f.base}/api/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).status, 200, "the new key works");
    await page.goto(`${f.base}/account/keys`);
    assert.equal(await page.locator("#new-key").count(), 0, "the key is not shown again");
    await page.getByRole("link", { name: "Revoke key laptop script" }).click();
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Revoke API key");
    await accessible("key-revoke-confirm");
    await Promise.all([page.waitForURL(/\/account\/keys\?done=revoked$/), page.getByRole("button", { name: "Revoke key" }).click()]);
    assert.equal(await page.getByRole("status").textContent(), "The key is revoked.");
    assert.equal(await page.locator("#keys").count(), 0, "no active key is listed");
    const refused = await fetch(`${f.base}/api/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(refused.status, 401);
  });

  it("webhook: add an endpoint (secret once), send a test event, see its delivery with status and duration", async () => {
    const { email } = await f.user();
    await signIn(page, f.base, email, "/account/webhooks");
    await accessible("webhooks-empty");
    await page.getByLabel("URL").fill("https://127.0.0.1/hook");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    assert.match((await page.getByRole("alert").textContent()) ?? "", /url/i, "a loopback target is refused on the form, naming the field");
    assert.equal(await page.getByLabel("URL").inputValue(), "https://127.0.0.1/hook");

    await page.getByLabel("URL").fill(HOOK_URL);
    await page.getByLabel("Description (optional)").fill("ops receiver");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    assert.match((await page.locator("#new-secret").textContent()) ?? "", /^whsec_/);
    await accessible("webhook-created");
    await page.getByRole("link", { name: `Details of ${HOOK_URL}` }).click();
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), `Endpoint ${HOOK_URL}`);

    const before = f.receiver!.received.length;
    const detail = new URL(page.url()).pathname;
    await Promise.all([page.waitForResponse((r) => r.request().method() === "GET" && new URL(r.url()).pathname === detail), page.getByRole("button", { name: "Send a test event" }).click()]);
    assert.equal(f.receiver!.received.length, before + 1, "the receiver got the test event");
    assert.match((await page.getByRole("status").textContent()) ?? "", /^The test event was delivered \(HTTP 204, \d+ ms\)\.$/, "the banner says what happened");
    const row = page.locator("#deliveries tbody tr").first();
    const cells = await row.locator("td").allTextContents();
    // Time, Event, Status, HTTP status, Duration, Error class, Attempts, Action
    assert.equal(cells[1], TEST_EVENT_TYPE);
    assert.equal(cells[2], "delivered");
    assert.equal(cells[3], "204");
    assert.match(cells[4]!, /^\d+ ms$/);
    await accessible("webhook-deliveries");
  });

  it("a turned-off endpoint is turned back on from its page", async () => {
    const { email, accountId } = await f.user();
    const created = await f.t.service.services.webhooks.createEndpoint(accountId, { url: HOOK_URL, description: null, events: null }, "whsec_browsertestbrowsertestbrowser00", 5, f.t.clock.now());
    assert.ok(created.ok);
    const id = created.endpoint.id;
    // As the worker leaves it after 15 failures spanning a day.
    await f.t.service.store.db.updateTable("webhook_endpoints").set({ status: "disabled", disabled_at: f.t.clock.now(), disabled_reason: "15 failures in a row over 24 h", failure_streak: 15 }).where("id", "=", id).execute();

    await signIn(page, f.base, email, "/account/webhooks");
    assert.match((await page.locator("#endpoints tbody tr").first().textContent()) ?? "", /turned off/);
    await page.getByRole("link", { name: `Details of ${HOOK_URL}` }).click();
    await accessible("webhook-turned-off");
    await Promise.all([page.waitForURL(/done=enabled$/), page.getByRole("button", { name: "Turn back on" }).click()]);
    assert.equal(await page.getByRole("status").textContent(), "The endpoint is on again.");
    assert.match((await page.locator("#endpoint").textContent()) ?? "", /Status\s*active/);
    assert.equal(await page.getByRole("button", { name: "Turn back on" }).count(), 0);
    const stored = await f.t.service.services.webhooks.getEndpoint(accountId, id);
    assert.deepEqual([stored?.status, stored?.failureStreak], ["active", 0]);
  });

  it("a test event that fails says so in words; an endpoint is changed, turned off and deleted from its page", async () => {
    const { email, accountId } = await f.user();
    await signIn(page, f.base, email, "/account/webhooks");
    assert.match((await page.locator("#endpoint-limit").textContent()) ?? "", /allows 5 endpoints; you have 0/);
    // A host no resolver here knows: the attempt fails with a DNS error.
    const nowhere = "https://nowhere.example.test:8443/mds";
    await page.getByLabel("URL").fill(nowhere);
    await Promise.all([page.waitForURL(`${f.base}/account/webhooks`), page.getByRole("button", { name: "Add endpoint" }).click()]);
    await page.getByRole("link", { name: `Details of ${nowhere}` }).click();
    const detail = new URL(page.url()).pathname;
    await Promise.all([page.waitForResponse((r) => r.request().method() === "GET" && new URL(r.url()).pathname === detail), page.getByRole("button", { name: "Send a test event" }).click()]);
    const banner = (await page.locator("#test-failed").textContent()) ?? "";
    assert.match(banner, /^The test event was not delivered\. /);
    assert.match(banner, /host name could not be resolved/);
    assert.match((await page.locator("#deliveries tbody tr").first().textContent()) ?? "", /dns: The host name could not be resolved/);
    await accessible("webhook-test-failed");

    await page.getByLabel("URL").fill(HOOK_URL);
    await page.getByLabel("Description (optional)").fill("moved");
    await Promise.all([page.waitForURL(/done=saved$/), page.getByRole("button", { name: "Save changes" }).click()]);
    assert.match((await page.locator("#endpoint").textContent()) ?? "", /moved/);
    await Promise.all([page.waitForURL(/done=disabled$/), page.getByRole("button", { name: "Turn off" }).click()]);
    assert.match((await page.locator("#endpoint").textContent()) ?? "", /turned off \(turned off by its owner\)/);
    const [ep] = await f.t.service.services.webhooks.listEndpoints(accountId);
    assert.deepEqual([ep?.url, ep?.status], [HOOK_URL, "disabled"]);

    await page.getByRole("link", { name: "Delete this endpoint…" }).click();
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Delete webhook endpoint");
    await accessible("webhook-delete-confirm");
    await Promise.all([page.waitForURL(/\/account\/webhooks\?done=deleted$/), page.getByRole("button", { name: "Delete endpoint" }).click()]);
    assert.equal(await page.getByRole("status").textContent(), "The endpoint is deleted, with its delivery log.");
    assert.equal(await page.locator("#endpoints").count(), 0);
    assert.deepEqual(await f.t.service.services.webhooks.listEndpoints(accountId), []);
  });

  it("a sandbox user learns before any form that the plan has no webhook endpoints", async () => {
    const { email } = await f.user("sandbox");
    await signIn(page, f.base, email, "/account/webhooks");
    assert.match((await page.locator("#endpoint-limit").textContent()) ?? "", /^Your sandbox plan includes no webhook endpoints\./);
    assert.equal(await page.getByLabel("URL").count(), 0);
    await accessible("webhooks-sandbox");
  });
});
