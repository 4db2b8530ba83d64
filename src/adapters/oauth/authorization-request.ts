import { checkCodeChallenge } from "../../domain/oauth/pkce.ts";
import { matchRedirectUri } from "../../domain/oauth/redirect-uri.ts";
import { parseScope, type Scope } from "../../domain/oauth/scopes.ts";
import type { StoredClient } from "../../interfaces/oauth.ts";
import type { ClientResolver } from "./client-resolver.ts";

/** The parameters of an authorization request, carried through the consent form unchanged. */
export const AUTHORIZE_PARAMS = ["response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method", "scope", "resource"] as const;

export interface AuthorizationRequest {
  client: StoredClient;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  scopes: Scope[];
  resource: string;
}

/**
 * The outcome of checking a request, in the order that matters: a bad client or redirect
 * URI is shown on our own page (redirecting would hand an attacker's URI the user's
 * browser); every later problem goes back to the client's redirect URI.
 */
export type Checked =
  | { kind: "ok"; request: AuthorizationRequest }
  | { kind: "page"; message: string }
  | { kind: "redirect"; redirectUri: string; state: string | undefined; error: string; description: string };

export async function checkAuthorizationRequest(p: Record<string, string>, clients: ClientResolver, mcpResource: string): Promise<Checked> {
  const resolved = await clients.resolve(p.client_id);
  if (!resolved.ok) return { kind: "page", message: resolved.message };
  const client = resolved.client;
  const registered = client.metadata.redirect_uris;
  // OAuth 2.1: redirect_uri may be left out only when the client registered exactly one.
  const presented = p.redirect_uri ?? (registered.length === 1 ? registered[0] : undefined);
  if (presented === undefined) return { kind: "page", message: "redirect_uri is missing and the client registered more than one" };
  if (!matchRedirectUri(registered, presented)) return { kind: "page", message: "redirect_uri is not one of the URIs this client registered" };

  const back = (error: string, description: string): Checked => ({ kind: "redirect", redirectUri: presented, state: p.state, error, description });
  if (p.response_type !== "code") return back("unsupported_response_type", "response_type must be code");
  const pkce = checkCodeChallenge(p.code_challenge, p.code_challenge_method);
  if (!pkce.ok) return back("invalid_request", pkce.message);
  // RFC 8707: tokens are only ever for the MCP endpoint; a client that leaves resource out means it.
  const resource = p.resource ?? mcpResource;
  if (resource !== mcpResource) return back("invalid_target", `resource must be ${mcpResource}`);
  const scope = parseScope(p.scope);
  if (!scope.ok) return back("invalid_scope", scope.message);
  return { kind: "ok", request: { client, redirectUri: presented, state: p.state, codeChallenge: pkce.challenge, scopes: scope.scopes, resource } };
}

/** The client's redirect URI with the response parameters added (RFC 6749 4.1.2, RFC 9207 `iss`). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}
