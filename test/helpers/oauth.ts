/**
 * Helpers of the OAuth tests: a service listening on a free port with fake sign-in seams (a
 * test header names the signed-in user; the CSRF token is derived from it), a fixture
 * metadata fetcher, and an OAuthClientProvider for the SDK client that keeps everything in memory.
 */
import type { OAuthClientProvider, StoredOAuthClientInformation, StoredOAuthTokens } from "@modelcontextprotocol/client";

type DiscoveryState = Parameters<NonNullable<OAuthClientProvider["saveDiscoveryState"]>>[0];
import type { FastifyRequest } from "fastify";
import type { FetchedDocument } from "../../src/adapters/oauth/cimd-fetcher.ts";
import type { SignedInUser } from "../../src/adapters/oauth/deps.ts";
import { type Engine, startTestService, type TestService } from "./service.ts";

export const USER_HEADER = "x-test-user";

export interface OAuthTestService extends TestService {
  address: string;
  users: Map<string, SignedInUser>;
  documents: Map<string, FetchedDocument>;
  /** Signs a user of a fresh account of the plan in; returns the header value that stands for the session. */
  signIn(plan?: "developer" | "sandbox"): Promise<{ session: string; accountId: string }>;
}

const csrfFor = (session: string) => `csrf-${session}`;

export async function startOAuthService(options: { engine?: Engine } = {}): Promise<OAuthTestService> {
  const users = new Map<string, SignedInUser>();
  const documents = new Map<string, FetchedDocument>();
  const sessionOf = (req: FastifyRequest) => String(req.headers[USER_HEADER] ?? "");
  const t = await startTestService({
    engine: options.engine,
    withData: false,
    oauth: {
      currentUser: async (req) => users.get(sessionOf(req)) ?? null,
      csrf: { token: (req) => csrfFor(sessionOf(req)), verify: (req, token) => sessionOf(req) !== "" && token === csrfFor(sessionOf(req)) },
      fetchClientMetadata: async (url) => {
        const doc = documents.get(url);
        if (!doc) throw new Error(`no fixture for ${url}`);
        return doc;
      },
    },
  });
  const address = await t.service.app.listen({ port: 0, host: "127.0.0.1" });
  let n = 0;
  return Object.assign(t, {
    address,
    users,
    documents,
    async signIn(plan: "developer" | "sandbox" = "developer") {
      const k = await t.key(plan);
      const session = `session-${++n}`;
      users.set(session, { userId: `usr_${n}`, accountId: k.accountId, email: `user${n}@example.test` });
      return { session, accountId: k.accountId };
    },
  });
}

/** The consent page's hidden fields, read back as a form would submit them. */
export function consentForm(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[m[1]!] = m[2]!.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">");
  }
  return fields;
}

/**
 * Plays the user's browser: opens the authorization URL signed in, approves (or denies) the
 * consent form with its CSRF token, and returns where the server sent the browser.
 */
export async function approve(address: string, authorizationUrl: string, session: string, decision: "allow" | "deny" = "allow"): Promise<{ location: URL; consentPage: string; csp: string }> {
  const page = await fetch(authorizationUrl, { headers: { [USER_HEADER]: session }, redirect: "manual" });
  const text = await page.text();
  if (page.status !== 200) throw new Error(`consent page: HTTP ${page.status} ${page.headers.get("location") ?? text}`);
  const form = { ...consentForm(text), decision };
  const post = await fetch(`${address}/authorize`, {
    method: "POST",
    headers: { [USER_HEADER]: session, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });
  if (post.status !== 302) throw new Error(`consent POST: HTTP ${post.status} ${await post.text()}`);
  return { location: new URL(post.headers.get("location")!), consentPage: text, csp: page.headers.get("content-security-policy") ?? "" };
}

/** An in-memory OAuthClientProvider; `clientMetadataUrl` set makes the SDK use CIMD instead of DCR. */
export class MemoryProvider implements OAuthClientProvider {
  info: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  readonly clientMetadataUrl?: string;
  readonly redirect: string;

  constructor(o: { redirect: string; clientMetadataUrl?: string }) {
    this.redirect = o.redirect;
    if (o.clientMetadataUrl) this.clientMetadataUrl = o.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata() {
    return {
      client_name: "Test MCP client",
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  state(): string {
    return "state-123";
  }

  clientInformation() {
    return this.info;
  }

  saveClientInformation(info: StoredOAuthClientInformation) {
    this.info = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }

  discovery: DiscoveryState | undefined;

  saveDiscoveryState(state: DiscoveryState) {
    this.discovery = state;
  }

  discoveryState() {
    return this.discovery;
  }

  saveCodeVerifier(v: string) {
    this.verifier = v;
  }

  codeVerifier() {
    return this.verifier;
  }
}
