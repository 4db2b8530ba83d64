/**
 * Connecting an MCP client through OAuth with a person at a real browser: the SDK client
 * meets the 401 and gets the authorization URL, the browser signs in, reads the consent page
 * and allows; the code reaches the client's callback (which Chromium only lets through when
 * the consent page's form-action allows the redirect), and the client calls tools on the
 * user's account until the user disconnects it on the keys page. Then the refusals a browser
 * sees: a redirect URI the client never registered, and a missing or plain PKCE challenge.
 */
import assert from "node:assert/strict";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import type { BrowserContext, Page } from "playwright-core";
import { MemoryProvider } from "../../../helpers/oauth.ts";
import { type BrowserFixture, signIn, startFixture } from "./fixture.ts";
import { newContext, NO_BROWSER, screenshot, seriousA11yViolations } from "./harness.ts";

const REDIRECT = "http://127.0.0.1:33418/callback";

type ToolResult = { isError?: boolean; structuredContent?: Record<string, any>; content: { text?: string }[] };

describe("browser: OAuth for MCP clients", { skip: NO_BROWSER }, () => {
  let f: BrowserFixture;
  let context: BrowserContext;
  let outside: string[];
  let page: Page;
  /** Every navigation to the client's callback, recorded and stopped there (nothing listens on it). */
  let callbacks: URL[];
  before(async () => {
    f = await startFixture();
  });
  after(() => f.close());
  beforeEach(async () => {
    ({ context, outside } = await newContext(f.browser, f.base));
    page = await context.newPage();
    callbacks = [];
    // Page routes run before the context's "nothing leaves the service" route.
    await page.route(
      (u) => u.href.startsWith(REDIRECT),
      (route) => {
        callbacks.push(new URL(route.request().url()));
        return route.abort();
      },
    );
  });
  afterEach(async () => {
    await context.close();
    assert.deepEqual(outside, [], "no request leaves the service");
  });

  /** An SDK client registered by DCR that has just been told to send its user to the authorization URL. */
  async function unauthorizedClient() {
    const provider = new MemoryProvider({ redirect: REDIRECT });
    const transport = new StreamableHTTPClientTransport(new URL(`${f.base}/mcp`), { authProvider: provider });
    await assert.rejects(new Client({ name: "browser-test", version: "1" }).connect(transport), UnauthorizedError);
    return { provider, transport, authUrl: provider.authorizationUrl! };
  }

  const waitForCallback = async () => {
    for (let i = 0; i < 100 && callbacks.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(callbacks.length, 1, "the browser was sent to the client's callback once");
    return callbacks[0]!;
  };

  it("sign in from the authorization URL, consent, Allow: the client calls tools on the user's credits; Disconnect ends it", async () => {
    const { email, accountId } = await f.user();
    const { provider, transport, authUrl } = await unauthorizedClient();

    await page.goto(authUrl.href);
    assert.equal(new URL(page.url()).pathname, "/login", "not signed in: sent to sign in first");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill("correct horse battery");
    await Promise.all([page.waitForURL((u) => u.pathname === "/authorize"), page.getByRole("button", { name: "Sign in" }).click()]);

    const consent = (await page.locator("main").textContent()) ?? "";
    assert.match(consent, /Connect Test MCP client to your account\?/);
    assert.match(consent, /unverified \(registered itself\)/);
    assert.match(consent, /127\.0\.0\.1:33418/, "the redirect host is named");
    assert.match(consent, /Call the maritime data tools as your account/);
    assert.match(consent, /Stay connected after this session/);
    assert.match(consent, new RegExp(email.replace(/[.+]/g, "\\$&")));
    assert.deepEqual(await seriousA11yViolations(page), [], "axe on the consent page");
    await screenshot(page, "oauth-consent");

    await page.getByRole("button", { name: "Allow" }).click();
    const callback = await waitForCallback();
    assert.equal(callback.searchParams.get("iss"), f.base);
    assert.equal(callback.searchParams.get("state"), "state-123");
    assert.ok(callback.searchParams.get("code"));
    await transport.finishAuth(callback.searchParams);

    // What /mcp answers the client, call by call.
    const mcpStatuses: number[] = [];
    const recording: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (new URL(input instanceof Request ? input.url : String(input)).pathname === "/mcp") mcpStatuses.push(res.status);
      return res;
    };
    const client = new Client({ name: "browser-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${f.base}/mcp`), { authProvider: provider, fetch: recording }));
    const { tools } = await client.listTools();
    assert.ok(tools.some((x) => x.name === "get_usage"));
    const search = (await client.callTool({ name: "search_entities", arguments: { q: "maersk" } })) as ToolResult;
    assert.ok(!search.isError, search.content[0]?.text);
    const usage = (await client.callTool({ name: "get_usage", arguments: {} })) as ToolResult;
    assert.ok(!usage.isError, usage.content[0]?.text);
    assert.equal(usage.structuredContent!.data.credits.used, 1);

    // The same credits, seen through an API key of the same account and on the account page.
    const key = await f.t.service.services.accounts.createKey(accountId, "check");
    const rest = (await (await fetch(`${f.base}/api/v1/usage`, { headers: { authorization: `Bearer ${key.key}` } })).json()) as { data: { credits: { used: number } } };
    assert.equal(rest.data.credits.used, 1, "the client's call was charged to the user's account");
    await page.goto(`${f.base}/account`);
    assert.match((await page.locator("#usage").textContent()) ?? "", /Credits used\s*1 of 25,000/);

    await page.goto(`${f.base}/account/keys`);
    assert.match((await page.locator("#apps").textContent()) ?? "", /Test MCP client/);
    await screenshot(page, "keys-connected-apps");
    await page.getByRole("link", { name: "Disconnect Test MCP client" }).click();
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Disconnect app");
    assert.deepEqual(await seriousA11yViolations(page), [], "axe on the disconnect confirm page");
    await screenshot(page, "app-disconnect-confirm");
    await Promise.all([page.waitForURL(/done=disconnected$/), page.getByRole("button", { name: "Disconnect" }).click()]);
    assert.equal(await page.getByRole("status").textContent(), "The app is disconnected.");
    assert.equal(await page.locator("#no-apps").count(), 1);

    const refused = await fetch(`${f.base}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${provider.saved!.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(refused.status, 401, "the access token is dead at once");
    // The client's own next call meets a 401, and its refresh token is dead too (the grant is revoked).
    const before = mcpStatuses.length;
    await assert.rejects(client.callTool({ name: "get_usage", arguments: {} }), /revoked/);
    assert.deepEqual(mcpStatuses.slice(before), [401]);
    await client.close();
  });

  it("a redirect URI the client did not register: an error page on the service, the browser is not sent there", async () => {
    const { email } = await f.user();
    const { authUrl } = await unauthorizedClient();
    await signIn(page, f.base, email);
    const wrong = new URL(authUrl);
    wrong.searchParams.set("redirect_uri", "https://evil.example/callback");
    const res = await page.goto(wrong.href);
    assert.equal(res?.status(), 400);
    assert.equal(new URL(page.url()).origin, f.base, "still on the service");
    assert.match((await page.locator("main").textContent()) ?? "", /This connection request cannot be used[\s\S]*redirect_uri is not one of the URIs this client registered/);
    assert.deepEqual(callbacks, []);
    assert.deepEqual(await seriousA11yViolations(page), [], "axe on the OAuth error page");
    await screenshot(page, "oauth-error");
  });

  for (const [name, change] of [
    ["missing", (u: URL) => (u.searchParams.delete("code_challenge"), u.searchParams.delete("code_challenge_method"))],
    ["plain", (u: URL) => (u.searchParams.set("code_challenge", "v".repeat(50)), u.searchParams.set("code_challenge_method", "plain"))],
  ] as const) {
    it(`a ${name} PKCE challenge is refused: no consent page, the client gets invalid_request and no code`, async () => {
      const { email } = await f.user();
      const { authUrl } = await unauthorizedClient();
      await signIn(page, f.base, email);
      const bad = new URL(authUrl);
      change(bad);
      await page.goto(bad.href).catch(() => undefined); // the navigation ends at the aborted callback
      const callback = await waitForCallback();
      assert.equal(callback.searchParams.get("error"), "invalid_request");
      assert.equal(callback.searchParams.get("code"), null);
      assert.equal(callback.searchParams.get("iss"), f.base);
    });
  }
});
