import type { FastifyRequest } from "fastify";
import type { AttemptWindows } from "../../interfaces/attempts.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { OAuthStore } from "../../interfaces/oauth.ts";
import { type Html, html } from "../shared/html.ts";
import type { CimdFetcher } from "./cimd-fetcher.ts";
import { publicBase } from "../shared/public-base.ts";

/** Who is signed in to the web face, as the sign-in work reports it. */
export interface SignedInUser {
  userId: string;
  accountId: string;
  email: string;
}

/** The seams to the sign-in and page work, and the stores the server needs. */
export interface OAuthDeps {
  store: OAuthStore;
  clock: Clock;
  /** Counts `/register` and `/authorize` calls per client address (shared through Redis when there is one). */
  attempts: AttemptWindows;
  /** Public base URL (the issuer); when unset, taken from each request's Host, as the MCP endpoint does. */
  baseUrl?: string;
  currentUser(req: FastifyRequest): Promise<SignedInUser | null>;
  csrf: { token(req: FastifyRequest): string; verify(req: FastifyRequest, token: string): boolean };
  /** Wraps a page body in the site layout (which shows who is signed in). */
  page?(req: FastifyRequest, title: string, body: Html): Promise<Html> | Html;
  /** Where an unauthenticated user signs in and comes back from. */
  loginUrl?(next: string): string;
  /** Fetches client metadata documents; production: the SSRF-safe fetcher. Tests resolve fixtures. */
  fetchClientMetadata?: CimdFetcher;
}

export const MCP_RESOURCE_PATH = "/mcp";

export function issuerOf(deps: Pick<OAuthDeps, "baseUrl">, req: FastifyRequest): string {
  return publicBase(deps.baseUrl, req);
}

/** The one resource tokens are issued for (RFC 8707): the MCP endpoint, canonical, no trailing slash. */
export function mcpResourceOf(deps: Pick<OAuthDeps, "baseUrl">, req: FastifyRequest): string {
  return `${issuerOf(deps, req)}${MCP_RESOURCE_PATH}`;
}

export function defaultPage(_req: FastifyRequest, title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body><main><h1>${title}</h1>${body}</main></body>
</html>`;
}

export function defaultLoginUrl(next: string): string {
  return `/login?next=${encodeURIComponent(next)}`;
}
