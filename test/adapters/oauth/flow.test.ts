import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { billingPeriod } from "../../../src/operations/billing-period.ts";
import { ENGINES } from "../../helpers/service.ts";
import { approve, MemoryProvider, type OAuthTestService, startOAuthService } from "../../helpers/oauth.ts";

const CIMD_URL = "https://client.test/cimd.json";
const REDIRECT = "http://127.0.0.1:33418/callback";

type ToolResult = { isError?: boolean; structuredContent?: Record<string, any>; content: { text?: string }[] };

/**
 * The whole connection as a host that cannot set headers makes it: the SDK client meets the
 * 401, discovers the authorization server, registers (DCR) or names its metadata document
 * (CIMD), the user approves, and the client calls tools with the account's credits until
 * the user disconnects it.
 */
for (const engine of ENGINES) describe(`OAuth: the SDK client connects to /mcp without a key (${engine})`, () => {
  let t: OAuthTestService;
  before(async () => {
    t = await startOAuthService({ engine });
    t.documents.set(CIMD_URL, {
      status: 200,
      contentType: "application/json",
      cacheControl: "max-age=600",
      body: JSON.stringify({
        client_id: CIMD_URL,
        client_name: "Fixture CIMD client",
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      }),
    });
  });
  after(() => t.close());

  for (const registration of ["dcr", "cimd"] as const) {
    it(`${registration}: authorize, approve, list tools, call with the account's credits, disconnect -> 401`, async () => {
      const { session, accountId } = await t.signIn("developer");
      const provider = new MemoryProvider({ redirect: REDIRECT, ...(registration === "cimd" ? { clientMetadataUrl: CIMD_URL } : {}) });
      const mcpUrl = new URL(`${t.address}/mcp`);

      const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
      await assert.rejects(new Client({ name: "t", version: "1" }).connect(first), UnauthorizedError);
      const authUrl = provider.authorizationUrl!;
      assert.equal(authUrl.origin + authUrl.pathname, `${t.address}/authorize`);
      assert.equal(authUrl.searchParams.get("resource"), `${t.address}/mcp`);
      assert.equal(authUrl.searchParams.get("code_challenge_method"), "S256");
      if (registration === "cimd") assert.equal(authUrl.searchParams.get("client_id"), CIMD_URL);
      else assert.match(provider.info!.client_id, /^mdsc_/);

      const { location, consentPage, csp } = await approve(t.address, authUrl.href, session);
      assert.match(consentPage, registration === "cimd" ? /published by client\.test/ : /unverified \(registered itself\)/);
      assert.match(consentPage, /127\.0\.0\.1:33418/, "the consent page names the redirect host");
      assert.match(csp, /form-action 'self' http:\/\/127\.0\.0\.1:33418/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(location.origin + location.pathname, REDIRECT);
      assert.equal(location.searchParams.get("iss"), t.address);
      assert.equal(location.searchParams.get("state"), "state-123");
      await first.finishAuth(location.searchParams);
      assert.ok(provider.saved?.access_token.startsWith("mds_at_"));
      assert.ok(provider.saved?.refresh_token?.startsWith("mds_rt_"));

      const client = new Client({ name: "t", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
      const { tools } = await client.listTools();
      assert.ok(tools.some((x) => x.name === "get_usage"));
      const search = (await client.callTool({ name: "search_entities", arguments: { q: "maersk" } })) as ToolResult;
      assert.ok(!search.isError, search.content[0]?.text);
      const usage = (await client.callTool({ name: "get_usage", arguments: {} })) as ToolResult;
      assert.ok(!usage.isError, usage.content[0]?.text);
      const grants = await t.service.oauth.connectedApps.listGrants(accountId);
      assert.equal(grants.length, 1);
      assert.equal(grants[0]!.clientName, registration === "cimd" ? "Fixture CIMD client" : "Test MCP client");
      assert.equal(grants[0]!.redirectHost, "127.0.0.1:33418");
      assert.deepEqual(grants[0]!.scopes, ["mcp", "offline_access"]);
      assert.equal(usage.structuredContent!.data.key.id, `grant:${grants[0]!.id}`);
      assert.equal(usage.structuredContent!.data.credits.used, 1, "the search took one credit from the account");
      const ledger = await t.service.services.ledger.usage(accountId, `grant:${grants[0]!.id}`, billingPeriod(t.clock.now()));
      assert.deepEqual([ledger.used, ledger.keyCredits], [1, 1]);

      assert.equal(await t.service.oauth.connectedApps.revokeGrant(accountId, grants[0]!.id), true);
      const after = await fetch(`${t.address}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${provider.saved!.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      assert.equal(after.status, 401);
      assert.match(after.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
      assert.deepEqual(await t.service.oauth.connectedApps.listGrants(accountId), []);
      await client.close();
    });
  }

  it("a REST call with an access token is refused: tokens are for the MCP endpoint only", async () => {
    const { session } = await t.signIn("developer");
    const provider = new MemoryProvider({ redirect: REDIRECT });
    const transport = new StreamableHTTPClientTransport(new URL(`${t.address}/mcp`), { authProvider: provider });
    await assert.rejects(new Client({ name: "t", version: "1" }).connect(transport), UnauthorizedError);
    const { location } = await approve(t.address, provider.authorizationUrl!.href, session);
    await transport.finishAuth(location.searchParams);
    const rest = await fetch(`${t.address}/api/v1/usage`, { headers: { authorization: `Bearer ${provider.saved!.access_token}` } });
    assert.equal(rest.status, 401);
  });
});
