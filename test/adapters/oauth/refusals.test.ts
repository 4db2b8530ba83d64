import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as oauth from "oauth4webapi";
import { REFRESH_REUSE_GRACE_MS } from "../../../src/domain/oauth/lifetimes.ts";
import { approve, type OAuthTestService, startOAuthService, USER_HEADER } from "../../helpers/oauth.ts";

const REDIRECT = "http://127.0.0.1:6276/oauth/callback";
const insecure = { [oauth.allowInsecureRequests]: true };

/** oauth4webapi as a strict client, driving the server step by step, and the refusals it must make. */
describe("OAuth: a strict client and the refusals", () => {
  let t: OAuthTestService;
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;
  let session: string;
  let resource: string;
  before(async () => {
    t = await startOAuthService();
    resource = `${t.address}/mcp`;
    as = await oauth.processDiscoveryResponse(new URL(t.address), await oauth.discoveryRequest(new URL(t.address), { algorithm: "oauth2", ...insecure }));
    client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [REDIRECT], client_name: "Strict", grant_types: ["authorization_code", "refresh_token"], token_endpoint_auth_method: "none" }, insecure),
    );
    ({ session } = await t.signIn());
  });
  after(() => t.close());

  const authorizeUrl = (over: Record<string, string | null> = {}, verifier = "v".repeat(50)) => {
    const u = new URL(as.authorization_endpoint!);
    const base: Record<string, string | null> = {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      state: "s1",
      code_challenge: null,
      code_challenge_method: "S256",
      resource,
      ...over,
    };
    for (const [k, v] of Object.entries(base)) if (v !== null) u.searchParams.set(k, v);
    return { url: u, verifier };
  };

  /** A code for the strict client, through consent. */
  async function code(verifier = oauth.generateRandomCodeVerifier()) {
    const { url } = authorizeUrl({ code_challenge: await oauth.calculatePKCECodeChallenge(verifier) });
    const { location } = await approve(t.address, url.href, session);
    return { params: oauth.validateAuthResponse(as, client, location, "s1"), verifier };
  }

  const exchange = (params: URLSearchParams, verifier: string, extra: Record<string, string> = { resource }) =>
    oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, { ...insecure, additionalParameters: extra });

  async function tokens() {
    const c = await code();
    return oauth.processAuthorizationCodeResponse(as, client, await exchange(c.params, c.verifier));
  }

  const oauthError = async (res: Response) => ({ status: res.status, ...((await res.json()) as { error: string }) });

  it("metadata: RFC 8414 fields and ours; the protected resource names this issuer", async () => {
    assert.equal(as.issuer, t.address);
    assert.deepEqual(
      [as.authorization_endpoint, as.token_endpoint, as.registration_endpoint, as.revocation_endpoint],
      ["/authorize", "/token", "/register", "/revoke"].map((p) => `${t.address}${p}`),
    );
    assert.deepEqual(as.response_types_supported, ["code"]);
    assert.deepEqual(as.code_challenge_methods_supported, ["S256"]);
    assert.deepEqual(as.token_endpoint_auth_methods_supported, ["none"]);
    assert.deepEqual(as.grant_types_supported, ["authorization_code", "refresh_token"]);
    assert.equal(as.client_id_metadata_document_supported, true);
    assert.equal(as.authorization_response_iss_parameter_supported, true);
    const prm = await oauth.processResourceDiscoveryResponse(new URL(resource), await oauth.resourceDiscoveryRequest(new URL(resource), insecure));
    assert.deepEqual(prm.authorization_servers, [t.address]);
    assert.ok(!prm.scopes_supported?.includes("offline_access"), "offline_access stays out of the resource metadata");
  });

  it("a registered redirect URI it does not match: our own error page, no redirect", async () => {
    for (const redirect of ["http://127.0.0.1:6276/other", "https://evil.example/callback", "http://localhost:6276/oauth/callback"]) {
      const { url } = authorizeUrl({ redirect_uri: redirect, code_challenge: "x".repeat(43) });
      const r = await fetch(url, { headers: { [USER_HEADER]: session }, redirect: "manual" });
      assert.equal(r.status, 400, redirect);
      assert.equal(r.headers.get("location"), null);
      assert.match(await r.text(), /redirect_uri is not one of the URIs this client registered/);
    }
    const unknown = await fetch(authorizeUrl({ client_id: "mdsc_nobody", code_challenge: "x".repeat(43) }).url, { redirect: "manual" });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.headers.get("location"), null);
  });

  it("a loopback redirect URI matches on any port (RFC 8252 7.3)", async () => {
    const { url } = authorizeUrl({ redirect_uri: "http://127.0.0.1:50123/oauth/callback", code_challenge: "x".repeat(43) });
    const r = await fetch(url, { headers: { [USER_HEADER]: session }, redirect: "manual" });
    assert.equal(r.status, 200);
  });

  it("missing or plain PKCE, another resource, an unknown scope: an error redirect with state and iss", async () => {
    const cases: [Record<string, string | null>, string][] = [
      [{ code_challenge: null, code_challenge_method: null }, "invalid_request"],
      [{ code_challenge: "v".repeat(50), code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge: "x".repeat(43), resource: `${t.address}/api/v1` }, "invalid_target"],
      [{ code_challenge: "x".repeat(43), scope: "admin" }, "invalid_scope"],
    ];
    for (const [over, error] of cases) {
      const r = await fetch(authorizeUrl(over).url, { headers: { [USER_HEADER]: session }, redirect: "manual" });
      assert.equal(r.status, 302, JSON.stringify(over));
      const loc = new URL(r.headers.get("location")!);
      assert.equal(loc.origin + loc.pathname, REDIRECT);
      assert.deepEqual([loc.searchParams.get("error"), loc.searchParams.get("state"), loc.searchParams.get("iss")], [error, "s1", t.address]);
    }
  });

  it("not signed in: sent to sign-in with a way back; a forged consent POST is refused; Deny is access_denied", async () => {
    const { url } = authorizeUrl({ code_challenge: "x".repeat(43) });
    const anon = await fetch(url, { redirect: "manual" });
    assert.equal(anon.status, 302);
    assert.equal(anon.headers.get("location"), `/login?next=${encodeURIComponent(url.pathname + url.search)}`);
    const form = new URLSearchParams([...url.searchParams, ["decision", "allow"], ["csrf_token", "forged"]]);
    const forged = await fetch(`${t.address}/authorize`, { method: "POST", headers: { [USER_HEADER]: session, "content-type": "application/x-www-form-urlencoded" }, body: form.toString(), redirect: "manual" });
    assert.equal(forged.status, 403);
    assert.equal(forged.headers.get("location"), null);
    const { location } = await approve(t.address, url.href, session, "deny");
    assert.equal(location.searchParams.get("error"), "access_denied");
  });

  it("a code works once: the second use is invalid_grant and revokes what the first one got", async () => {
    const c = await code();
    const first = await oauth.processAuthorizationCodeResponse(as, client, await exchange(c.params, c.verifier));
    assert.ok(await t.service.oauth.tokens.verify(first.access_token, resource));
    const again = await oauthError(await exchange(c.params, c.verifier));
    assert.deepEqual([again.status, again.error], [400, "invalid_grant"]);
    assert.equal(await t.service.oauth.tokens.verify(first.access_token, resource), null);
  });

  it("the token request must carry the right verifier, redirect URI and resource", async () => {
    const wrongVerifier = await code();
    assert.equal((await oauthError(await exchange(wrongVerifier.params, oauth.generateRandomCodeVerifier()))).error, "invalid_grant");
    const wrongResource = await code();
    assert.equal((await oauthError(await exchange(wrongResource.params, wrongResource.verifier, { resource: `${t.address}/api/v1` }))).error, "invalid_target");
    const wrongRedirect = await code();
    const r = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), wrongRedirect.params, "http://127.0.0.1:6276/other", wrongRedirect.verifier, insecure);
    assert.equal((await oauthError(r)).error, "invalid_grant");
    const unknown = await fetch(as.token_endpoint!, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=authorization_code&code=x&client_id=mdsc_nobody&code_verifier=" + "v".repeat(50) });
    assert.equal(unknown.status, 401, "an unknown client is invalid_client, so hosts register again");
    assert.equal(((await unknown.json()) as { error: string }).error, "invalid_client");
  });

  it("the token endpoint answers with no-store and an access token bound to /mcp only", async () => {
    const c = await code();
    const res = await exchange(c.params, c.verifier);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const tok = await oauth.processAuthorizationCodeResponse(as, client, res);
    assert.equal(tok.expires_in, 3600);
    assert.equal(await t.service.oauth.tokens.verify(tok.access_token, `${t.address}/api/v1`), null);
    // Reached under another name, /mcp is another resource: the token was not issued for it.
    const elsewhere = await t.service.app.inject({
      method: "POST",
      url: "/mcp",
      headers: { host: "localhost:9999", authorization: `Bearer ${tok.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      payload: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(elsewhere.statusCode, 401);
  });

  it("refresh rotates; a quick retry is refused alone; a later reuse revokes the whole family", async () => {
    const first = await tokens();
    const refresh = (token: string) => oauth.refreshTokenGrantRequest(as, client, oauth.None(), token, { ...insecure, additionalParameters: { resource } });
    const second = await oauth.processRefreshTokenResponse(as, client, await refresh(first.refresh_token!));
    assert.notEqual(second.refresh_token, first.refresh_token);
    const retry = await oauthError(await refresh(first.refresh_token!));
    assert.equal(retry.error, "invalid_grant");
    assert.ok(await t.service.oauth.tokens.verify(second.access_token, resource), "a retry within the grace window leaves the family alone");
    t.clock.t += REFRESH_REUSE_GRACE_MS + 1;
    const replay = await oauthError(await refresh(first.refresh_token!));
    assert.equal(replay.error, "invalid_grant");
    assert.equal(await t.service.oauth.tokens.verify(second.access_token, resource), null);
    assert.equal((await oauthError(await refresh(second.refresh_token!))).error, "invalid_grant");
  });

  it("revoking a refresh token (RFC 7009) ends its access tokens too", async () => {
    const tok = await tokens();
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), tok.refresh_token!, insecure));
    assert.equal(await t.service.oauth.tokens.verify(tok.access_token, resource), null);
  });

  it("/register refuses javascript:, data:, file:, fragments and user info, and accepts cursor:// and loopback", async () => {
    const register = (uris: string[]) =>
      fetch(as.registration_endpoint!, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: uris, client_name: "c" }) });
    for (const bad of ["javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd", "https://a.example/cb#x", "https://u:p@a.example/cb", "http://a.example/cb"]) {
      const r = await register([bad]);
      assert.equal(r.status, 400, bad);
      assert.equal(((await r.json()) as { error: string }).error, "invalid_redirect_uri");
    }
    const cursor = await register(["cursor://anysphere.cursor-mcp/oauth/callback", "https://www.cursor.com/agents/mcp/oauth/callback", "http://localhost:8787/callback"]);
    assert.equal(cursor.status, 201);
    const body = (await cursor.json()) as Record<string, unknown>;
    assert.match(String(body.client_id), /^mdsc_/);
    assert.equal(body.token_endpoint_auth_method, "none");
    assert.equal(body.client_secret, undefined);
  });
});
