import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { calculatePKCECodeChallenge } from "oauth4webapi";
import { checkClientIdUrl, validateClientMetadata } from "../../../src/domain/oauth/client-metadata.ts";
import { type CodeRecord, issuesRefreshToken, judgeCodeExchange, judgeRefresh, type RefreshRecord } from "../../../src/domain/oauth/grant-rules.ts";
import { CIMD_CACHE_DEFAULT_MS, CIMD_CACHE_MAX_MS, CIMD_CACHE_MIN_MS, cimdCacheMs, REFRESH_REUSE_GRACE_MS } from "../../../src/domain/oauth/lifetimes.ts";
import { checkCodeChallenge, s256, verifyCodeVerifier } from "../../../src/domain/oauth/pkce.ts";
import { checkRedirectUri, matchRedirectUri, redirectTarget } from "../../../src/domain/oauth/redirect-uri.ts";
import { parseScope } from "../../../src/domain/oauth/scopes.ts";

const VERIFIER = "dBjftJeZ4CVP-mJ92K27uhbUJU1p1r_wW1gFWFOEjXk";
// Computed by another implementation (oauth4webapi), so the rule is checked against more than itself.
const CHALLENGE = await calculatePKCECodeChallenge(VERIFIER);

describe("PKCE S256", () => {
  it("a verifier verifies against its challenge; anything else does not", () => {
    assert.equal(s256(VERIFIER), CHALLENGE);
    assert.equal(verifyCodeVerifier(VERIFIER, CHALLENGE), true);
    for (const v of [undefined, "", VERIFIER.slice(1), `${VERIFIER}x`, "short", "é".repeat(50)]) assert.equal(verifyCodeVerifier(v, CHALLENGE), false, String(v));
  });
  it("the authorization request needs an S256 challenge", () => {
    const table: [string | undefined, string | undefined, boolean][] = [
      [CHALLENGE, "S256", true],
      [CHALLENGE, "plain", false],
      [CHALLENGE, undefined, false],
      [undefined, "S256", false],
      ["too-short", "S256", false],
    ];
    for (const [c, m, ok] of table) assert.equal(checkCodeChallenge(c, m).ok, ok, `${c} ${m}`);
  });
});

describe("redirect URIs", () => {
  it("accepts https, loopback http and private-use schemes; refuses the rest with the rule", () => {
    const table: [string, string | null][] = [
      ["https://claude.ai/api/mcp/auth_callback", "https"],
      ["http://127.0.0.1:33418/", "loopback"],
      ["http://[::1]/cb", "loopback"],
      ["http://localhost:8787/callback", "loopback"],
      ["cursor://anysphere.cursor-mcp/oauth/callback", "private-use"],
      ["javascript:alert(1)", null],
      ["data:text/html,x", null],
      ["file:///etc/passwd", null],
      ["https://a.example/cb#frag", null],
      ["https://user:pw@a.example/cb", null],
      ["http://a.example/cb", null],
      ["not a uri", null],
    ];
    for (const [uri, kind] of table) {
      const c = checkRedirectUri(uri);
      assert.equal(c.ok ? c.kind : null, kind, uri);
    }
  });
  it("matches exactly, and loopback on any port but not across names or paths", () => {
    const registered = ["http://127.0.0.1/", "http://127.0.0.1:33418/", "https://vscode.dev/redirect", "cursor://x/cb"];
    const table: [string, boolean][] = [
      ["https://vscode.dev/redirect", true],
      ["https://vscode.dev/redirect/", false],
      ["https://vscode.dev/redirect?x=1", false],
      ["http://127.0.0.1:50001/", true],
      ["http://127.0.0.1:50001/other", false],
      ["http://localhost:33418/", false],
      ["cursor://x/cb", true],
      ["cursor://x/cb2", false],
    ];
    for (const [uri, ok] of table) assert.equal(matchRedirectUri(registered, uri) !== null, ok, uri);
  });
  it("the consent page's form-action names the origin, or the scheme of a private-use URI", () => {
    assert.deepEqual(redirectTarget("https://claude.ai/api/mcp/auth_callback"), { display: "claude.ai", formAction: "https://claude.ai" });
    assert.deepEqual(redirectTarget("cursor://anysphere.cursor-mcp/oauth/callback").formAction, "cursor:");
  });
});

describe("client metadata", () => {
  const base = { redirect_uris: ["https://a.example/cb"], client_name: "A" };
  it("fills the RFC 7591 defaults and keeps public clients public", () => {
    const r = validateClientMetadata(base, "dcr");
    assert.ok(r.ok);
    assert.deepEqual([r.metadata.grant_types, r.metadata.response_types, r.metadata.token_endpoint_auth_method], [["authorization_code"], ["code"], "none"]);
    const secretAsked = validateClientMetadata({ ...base, token_endpoint_auth_method: "client_secret_post" }, "dcr");
    assert.ok(secretAsked.ok && secretAsked.metadata.token_endpoint_auth_method === "none", "DCR: substituted, and answered");
    assert.equal(validateClientMetadata({ ...base, client_id: "x", token_endpoint_auth_method: "client_secret_post" }, "cimd").ok, false, "CIMD must ask for none itself");
  });
  it("refuses with the RFC 7591 error and the rule", () => {
    const table: [unknown, string][] = [
      [null, "invalid_client_metadata"],
      [{}, "invalid_redirect_uri"],
      [{ redirect_uris: [] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
      [{ ...base, grant_types: ["client_credentials"] }, "invalid_client_metadata"],
      [{ ...base, grant_types: ["refresh_token"] }, "invalid_client_metadata"],
      [{ ...base, response_types: ["token"] }, "invalid_client_metadata"],
      [{ ...base, client_uri: "http://a.example" }, "invalid_client_metadata"],
      [{ ...base, client_name: "x".repeat(201) }, "invalid_client_metadata"],
    ];
    for (const [input, error] of table) {
      const r = validateClientMetadata(input, "dcr");
      assert.equal(r.ok ? "ok" : r.error, error, JSON.stringify(input)?.slice(0, 80));
    }
  });
  it("a metadata document URL is https, has a path, and is in normal form", () => {
    const table: [string, boolean][] = [
      ["https://claude.ai/oauth/claude-code-client-metadata", true],
      ["https://vscode.dev/oauth/client-metadata.json", true],
      ["https://client.example/", false],
      ["http://client.example/cimd.json", false],
      ["https://client.example/a/../cimd.json", false],
      ["https://client.example/cimd.json#x", false],
      ["https://u@client.example/cimd.json", false],
    ];
    for (const [url, ok] of table) assert.equal(checkClientIdUrl(url).ok, ok, url);
  });
});

describe("scopes", () => {
  it("a missing scope is the full set; unknown scopes are refused; mcp is always in", () => {
    const table: [string | undefined, string[] | null][] = [
      [undefined, ["mcp", "offline_access"]],
      ["", ["mcp", "offline_access"]],
      ["mcp", ["mcp"]],
      ["offline_access", ["mcp", "offline_access"]],
      ["offline_access  mcp", ["mcp", "offline_access"]],
      ["mcp admin", null],
    ];
    for (const [text, scopes] of table) {
      const r = parseScope(text);
      assert.deepEqual(r.ok ? r.scopes : null, scopes, String(text));
    }
  });
});

describe("lifetimes", () => {
  it("a metadata document is cached for what Cache-Control asks, within bounds", () => {
    const table: [string | null, number][] = [
      [null, CIMD_CACHE_DEFAULT_MS],
      ["max-age=600", 600_000],
      ["public, max-age=5", CIMD_CACHE_MIN_MS],
      ["max-age=99999999", CIMD_CACHE_MAX_MS],
      ["no-store", CIMD_CACHE_MIN_MS],
    ];
    for (const [cc, ms] of table) assert.equal(cimdCacheMs(cc), ms, String(cc));
  });
});

describe("grant rules", () => {
  const now = 1_000_000;
  const code: CodeRecord = { clientId: "c1", redirectUri: "https://a.example/cb", codeChallenge: CHALLENGE, resource: "https://mds.example/mcp", expiresAt: now + 1, usedAt: null, grantRevoked: false };
  const req = { clientId: "c1", redirectUri: "https://a.example/cb", resource: "https://mds.example/mcp", codeVerifier: VERIFIER, now };
  it("a code exchange: each rule, its error, and whether the family goes", () => {
    const table: [Partial<CodeRecord> | null, Partial<typeof req>, string, boolean?][] = [
      [{}, {}, "ok"],
      [{}, { resource: undefined }, "ok"],
      [null, {}, "invalid_grant"],
      [{ usedAt: now - 5 }, {}, "invalid_grant", true],
      [{ expiresAt: now }, {}, "invalid_grant"],
      [{ grantRevoked: true }, {}, "invalid_grant"],
      [{}, { clientId: "c2" }, "invalid_grant"],
      [{}, { redirectUri: "https://a.example/other" }, "invalid_grant"],
      [{}, { redirectUri: undefined }, "invalid_grant"],
      [{}, { resource: "https://mds.example/api" }, "invalid_target"],
      [{}, { codeVerifier: `${VERIFIER.slice(0, -1)}A` }, "invalid_grant"],
      [{}, { codeVerifier: undefined }, "invalid_request"],
    ];
    for (const [over, reqOver, expected, revoke] of table) {
      const v = judgeCodeExchange(over === null ? null : { ...code, ...over }, { ...req, ...reqOver });
      assert.equal(v.ok ? "ok" : v.error, expected, JSON.stringify([over, reqOver]));
      assert.equal(!v.ok && v.revokeFamily === true, revoke === true, JSON.stringify([over, reqOver]));
    }
  });
  it("a refresh: rotation, reuse within and after the grace window, expiry and revocation", () => {
    const token: RefreshRecord = { clientId: "c1", resource: "https://mds.example/mcp", expiresAt: now + 1, usedAt: null, revokedAt: null, grantRevoked: false };
    const table: [Partial<RefreshRecord> | null, string, boolean?][] = [
      [{}, "ok"],
      [null, "invalid_grant"],
      [{ usedAt: now - REFRESH_REUSE_GRACE_MS }, "invalid_grant", false],
      [{ usedAt: now - REFRESH_REUSE_GRACE_MS - 1 }, "invalid_grant", true],
      [{ expiresAt: now }, "invalid_grant"],
      [{ revokedAt: now - 1 }, "invalid_grant"],
      [{ grantRevoked: true }, "invalid_grant"],
      [{ clientId: "c2" }, "invalid_grant"],
      [{ resource: "https://other.example/mcp" }, "invalid_target"],
    ];
    for (const [over, expected, revoke] of table) {
      const v = judgeRefresh(over === null ? null : { ...token, ...over }, { clientId: "c1", resource: "https://mds.example/mcp", now });
      assert.equal(v.ok ? "ok" : v.error, expected, JSON.stringify(over));
      assert.equal(!v.ok && v.revokeFamily === true, revoke === true, JSON.stringify(over));
    }
  });
  it("refresh tokens go to clients that registered the grant, offline_access or not", () => {
    assert.equal(issuesRefreshToken(["authorization_code", "refresh_token"]), true);
    assert.equal(issuesRefreshToken(["authorization_code"]), false);
  });
});
