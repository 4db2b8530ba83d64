import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import cookie from "@fastify/cookie";
import formbody from "@fastify/formbody";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Pipeline } from "../../operations/execute.ts";
import type { Operation } from "../../operations/operation.ts";
import type { AttemptWindows } from "../../interfaces/attempts.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { SessionStore, UserStore } from "../../interfaces/people.ts";
import { registerAccountPages } from "./account-pages.ts";
import { registerApiDocsPage } from "./api-docs-page.ts";
import { registerDocsPages } from "./docs-pages.ts";
import { registerAuthPages } from "./auth-pages.ts";
import { type ConnectedApp, field, sendPage, type WebContext } from "./context.ts";
import { html } from "../shared/html.ts";
import { registerSecurityHeaders } from "./security-headers.ts";
import { registerSearchSuggestions } from "./search-suggestions.ts";
import { registerStationPages, type StationPorts } from "./station-pages.ts";
import { configureSessions, verifyCsrf } from "./session.ts";
import { registerWebhookPages } from "./webhook-pages.ts";
import { registerZonePages } from "./zone-pages.ts";
import { registerWatchlistPages } from "./watchlist-pages.ts";
import { PUBLIC_PAGES, registerPublicPages } from "./pages/index.ts";
import { publicBase } from "../shared/public-base.ts";

export interface WebDeps {
  pipeline: Pipeline;
  /** The registry: the API page lists it. */
  operations: readonly Operation[];
  users: UserStore;
  sessions: SessionStore;
  clock: Clock;
  /** Counts failed sign-ins (shared through Redis when there is one). */
  attempts: AttemptWindows;
  /** Public base URL; https makes the session cookie Secure and `__Host-` prefixed. */
  baseUrl: string | undefined;
  signup: "open" | "closed";
  /** Provided by the OAuth server once it is wired; until then the keys page shows "No connected apps". */
  listGrants?: (accountId: string) => Promise<ConnectedApp[]>;
  revokeGrant?: (accountId: string, grantId: string) => Promise<boolean>;
  /** The ports the station listeners listen on, for the stations page's recipe; none known when absent. */
  stationPorts?: () => StationPorts;
  /** The folder of the Markdown docs served as pages under /docs/. */
  docsDir?: string;
}

const PROJECT_ROOT = resolve(import.meta.dirname, "../../..");
const require = createRequire(import.meta.url);
/** A package's dist folder, found through its main entry (their `exports` hide package.json). */
const distOf = (pkg: string) => dirname(require.resolve(pkg));

/**
 * The web face: home, sign-in and the account pages, server-rendered, with a strict CSP
 * and every asset served from here. Form bodies are registered on the whole app (the OAuth
 * pages post forms too). The cookie plugin, security headers, assets and pages live in their
 * own context, so the JSON API's answers stay as they were and its calls, which never read a
 * cookie, do not run the plugin's two hooks (parse on request, write on send) on every call;
 * the OAuth pages, which read the session too, register the plugin in their own context.
 */
export function registerWeb(app: FastifyInstance, deps: WebDeps): void {
  const secure = deps.baseUrl?.startsWith("https:") ?? false;
  const { users, sessions } = deps;
  const ctx: WebContext = {
    pipeline: deps.pipeline,
    users,
    sessions,
    clock: deps.clock,
    attempts: deps.attempts,
    signupOpen: deps.signup === "open",
    listGrants: deps.listGrants ?? (async () => []),
    revokeGrant: deps.revokeGrant ?? (async () => false),
  };
  configureSessions(app, { sessions, users, clock: deps.clock, secure });
  app.register(formbody, { bodyLimit: 256 * 1024 });
  app.register(async (web) => {
    await web.register(cookie);
    registerSecurityHeaders(web, secure);
    await web.register(fastifyStatic, { root: join(PROJECT_ROOT, "public"), prefix: "/assets/", maxAge: 3_600_000 });
    await web.register(fastifyStatic, { root: distOf("leaflet"), prefix: "/vendor/leaflet/", decorateReply: false, maxAge: 86_400_000 });
    await web.register(fastifyStatic, { root: distOf("terra-draw"), prefix: "/vendor/terra-draw/", decorateReply: false, maxAge: 86_400_000 });
    await web.register(fastifyStatic, { root: distOf("terra-draw-leaflet-adapter"), prefix: "/vendor/terra-draw-leaflet/", decorateReply: false, maxAge: 86_400_000 });

    // Every form carries a token bound to this browser's session; a POST without it is refused before anything runs.
    web.addHook("preHandler", async (req, reply) => {
      if (req.method !== "POST") return;
      if (!verifyCsrf(req, field(req.body, "_csrf"))) {
        await sendPage(req, reply, { title: "Form expired" }, html`<p>This form could not be accepted: it is out of date or came from another site. Go back, reload the page and send it again.</p>`, 403);
        return reply;
      }
    });

    registerAuthPages(web, ctx);
    registerApiDocsPage(web, deps.operations, (req: FastifyRequest) => publicBase(deps.baseUrl, req));
    if (deps.docsDir) registerDocsPages(web, deps.docsDir);
    registerAccountPages(web, ctx);
    registerWebhookPages(web, ctx);
    registerStationPages(web, ctx, (req: FastifyRequest) => publicBase(deps.baseUrl, req), deps.stationPorts ?? (() => ({ tcp: null, udp: null })));
    registerZonePages(web, ctx);
    registerWatchlistPages(web, ctx);
    registerSearchSuggestions(web, ctx);
    registerPublicPages(web, ctx, PUBLIC_PAGES);
    // Browsers ask for it on every page; without it chromium logs a 404 on each.
    web.get("/favicon.ico", async (_req, reply) => reply.header("cache-control", "public, max-age=86400").sendFile("favicon.ico"));
  });
}

export { csrfToken, currentUser, verifyCsrf } from "./session.ts";
export type { ConnectedApp } from "./context.ts";
