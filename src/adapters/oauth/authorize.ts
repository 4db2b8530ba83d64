import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AUTHORIZE_MAX_PER_ADDRESS, AUTHORIZE_WINDOW_MS, authorizeSubject, waitText } from "../../domain/oauth/address-limits.ts";
import { CODE_TTL_MS } from "../../domain/oauth/lifetimes.ts";
import { hashSecret } from "../../domain/secrets.ts";
import type { Html } from "../shared/html.ts";
import { AUTHORIZE_PARAMS, type Checked, checkAuthorizationRequest, redirectWith } from "./authorization-request.ts";
import type { ClientResolver } from "./client-resolver.ts";
import { consentBody, consentCsp, errorBody, tooManyBody } from "./consent-page.ts";
import { defaultLoginUrl, defaultPage, issuerOf, mcpResourceOf, type OAuthDeps } from "./deps.ts";
import { formParams } from "./oauth-error.ts";
import { newCode, newFamilyId } from "./token-issuer.ts";

const PAGE_CSP = "default-src 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'; form-action 'self'";

/**
 * /authorize: GET checks the request and shows the consent page to a signed-in user; the
 * page's form POSTs back here with the same parameters, which are checked again (nothing is
 * trusted from the form but the user's decision), and the answer is a redirect to the client.
 * Each client address may make 60 requests here in 10 minutes (GET and POST together,
 * domain/oauth/address-limits.ts); past that, a 429 page with Retry-After, before the request
 * is read: nothing is fetched and nothing redirects to a client not yet checked.
 */
export function registerAuthorize(app: FastifyInstance, deps: OAuthDeps, clients: ClientResolver): void {
  const page = deps.page ?? defaultPage;
  const loginUrl = deps.loginUrl ?? defaultLoginUrl;

  const sendPage = async (reply: FastifyReply, status: number, title: string, body: Html, csp = PAGE_CSP) =>
    reply
      .code(status)
      .header("content-type", "text/html; charset=utf-8")
      .header("content-security-policy", csp)
      .header("x-frame-options", "DENY")
      .header("cache-control", "no-store")
      .header("referrer-policy", "no-referrer")
      .send((await page(reply.request, title, body)).text);

  const redirectError = (req: FastifyRequest, reply: FastifyReply, c: Extract<Checked, { kind: "redirect" }>) =>
    reply.redirect(redirectWith(c.redirectUri, { error: c.error, error_description: c.description, state: c.state, iss: issuerOf(deps, req) }), 302);

  /** The params as single strings; a repeated one is refused on our page, before anything else. */
  const readParams = (source: unknown): { ok: true; params: Record<string, string> } | { ok: false; message: string } => formParams(source);

  /** The 429 page when the address is past its limit, else null (the request is counted). */
  const limited = async (req: FastifyRequest, reply: FastifyReply) => {
    const wait = await deps.attempts.take(authorizeSubject(req.ip), AUTHORIZE_MAX_PER_ADDRESS, AUTHORIZE_WINDOW_MS, deps.clock.now());
    if (wait === 0) return null;
    reply.header("retry-after", String(Math.ceil(wait / 1000)));
    return sendPage(reply, 429, "Too many connection requests", tooManyBody(waitText(wait)));
  };

  app.get("/authorize", async (req, reply) => {
    const refused = await limited(req, reply);
    if (refused) return refused;
    const read = readParams(req.query);
    if (!read.ok) return sendPage(reply, 400, "Connection refused", errorBody(read.message));
    const checked = await checkAuthorizationRequest(read.params, clients, mcpResourceOf(deps, req));
    if (checked.kind === "page") return sendPage(reply, 400, "Connection refused", errorBody(checked.message));
    if (checked.kind === "redirect") return redirectError(req, reply, checked);
    const user = await deps.currentUser(req);
    if (!user) return reply.redirect(loginUrl(req.url), 302);
    const body = consentBody({ request: checked.request, params: read.params, email: user.email, csrfToken: deps.csrf.token(req) });
    return sendPage(reply, 200, "Connect an application", body, consentCsp(checked.request.redirectUri));
  });

  app.post("/authorize", async (req, reply) => {
    const refused = await limited(req, reply);
    if (refused) return refused;
    const read = readParams(req.body);
    if (!read.ok) return sendPage(reply, 400, "Connection refused", errorBody(read.message));
    const p = read.params;
    const checked = await checkAuthorizationRequest(p, clients, mcpResourceOf(deps, req));
    if (checked.kind === "page") return sendPage(reply, 400, "Connection refused", errorBody(checked.message));
    if (checked.kind === "redirect") return redirectError(req, reply, checked);
    const user = await deps.currentUser(req);
    if (!user) {
      // The session ended while the page was open: sign in again and come back to the same request.
      const query = new URLSearchParams(AUTHORIZE_PARAMS.filter((k) => p[k] !== undefined).map((k): [string, string] => [k, p[k]!]));
      return reply.redirect(loginUrl(`/authorize?${query}`), 302);
    }
    if (!deps.csrf.verify(req, p.csrf_token ?? "")) {
      return sendPage(reply, 403, "Connection refused", errorBody("the form has expired or did not come from this site; go back to the application and connect again"));
    }
    const { request } = checked;
    const iss = issuerOf(deps, req);
    if (p.decision !== "allow") {
      return reply.redirect(redirectWith(request.redirectUri, { error: "access_denied", error_description: "the user denied the request", state: request.state, iss }), 302);
    }
    const now = deps.clock.now();
    const grantId = await deps.store.upsertGrant({ accountId: user.accountId, userId: user.userId, clientId: request.client.clientId, redirectUri: request.redirectUri, scopes: request.scopes, now });
    const code = newCode();
    await deps.store.createCode({
      hash: hashSecret(code),
      grantId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      familyId: newFamilyId(),
      expiresAt: now + CODE_TTL_MS,
    });
    req.log.info({ grantId, clientId: request.client.clientId, accountId: user.accountId }, "oauth grant approved");
    return reply.redirect(redirectWith(request.redirectUri, { code, state: request.state, iss }), 302);
  });
}
