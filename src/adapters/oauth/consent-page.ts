import { redirectTarget } from "../../domain/oauth/redirect-uri.ts";
import type { Scope } from "../../domain/oauth/scopes.ts";
import { type Html, html } from "../shared/html.ts";
import { AUTHORIZE_PARAMS, type AuthorizationRequest } from "./authorization-request.ts";

const SCOPE_TEXT: Record<Scope, string> = {
  mcp: "Call the maritime data tools as your account; calls use your account's credits",
  offline_access: "Stay connected after this session (refresh tokens) until you disconnect it",
};

/** Who the client is, as far as this server can tell: the host that published its metadata, or nobody. */
export function clientIdentity(request: Pick<AuthorizationRequest, "client">): { name: string; verifiedBy: string | null } {
  const c = request.client;
  const host = c.kind === "cimd" ? new URL(c.clientId).host : null;
  return { name: c.metadata.client_name ?? host ?? c.clientId, verifiedBy: host };
}

export function consentBody(o: { request: AuthorizationRequest; params: Record<string, string>; email: string; csrfToken: string }): Html {
  const { request } = o;
  const who = clientIdentity(request);
  const target = redirectTarget(request.redirectUri);
  const loopbackOnly = request.client.kind === "cimd" && request.client.metadata.redirect_uris.every((u) => /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)[:/]/.test(u));
  const hidden = AUTHORIZE_PARAMS.filter((k) => o.params[k] !== undefined).map((k) => html`<input type="hidden" name="${k}" value="${o.params[k]}">`);
  // The page frame already has the one <h1> (the page title); this is the question under it.
  return html`<h2>Connect ${who.name} to your account?</h2>
<dl>
  <dt>Application</dt><dd>${who.name}</dd>
  <dt>Identity</dt><dd>${who.verifiedBy ? html`published by ${who.verifiedBy}` : "unverified (registered itself)"}</dd>
  <dt>Sends you back to</dt><dd>${target.display}</dd>
  <dt>Signed in as</dt><dd>${o.email}</dd>
</dl>
${loopbackOnly ? html`<p role="note">This application only returns to programs on your own computer. Continue only if you started it yourself.</p>` : ""}
<p>It will be able to:</p>
<ul>${request.scopes.map((s) => html`<li>${SCOPE_TEXT[s]}</li>`)}</ul>
<form method="post" action="/authorize">
  ${hidden}
  <input type="hidden" name="csrf_token" value="${o.csrfToken}">
  <button type="submit" name="decision" value="allow">Allow</button>
  <button type="submit" name="decision" value="deny">Deny</button>
</form>
<p>You can disconnect it at any time on your account's API keys page.</p>`;
}

/**
 * The consent page's policy: the form posts to us and we answer with a redirect to the client,
 * and Chromium checks form-action along the whole redirect chain, so the client's origin (or
 * its private-use scheme) is allowed on this response only. Never framed (clickjacking).
 */
export function consentCsp(redirectUri: string): string {
  return `default-src 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'; form-action 'self' ${redirectTarget(redirectUri).formAction}`;
}

/** The page of an address past its /authorize limit. */
export function tooManyBody(wait: string): Html {
  return html`<h2>Too many connection requests</h2>
<p>This network address made too many connection requests in the last minutes. Try again in ${wait}.</p>
<p>Nothing was shared with any application.</p>`;
}

export function errorBody(message: string): Html {
  return html`<h2>This connection request cannot be used</h2>
<p>${message}.</p>
<p>Nothing was shared with the application. Try connecting again from the application; if this keeps happening, its maker needs to fix it.</p>`;
}
