import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp, type HttpLimits } from "../adapters/http/app.ts";
import { registerIngestRoute } from "../adapters/ingest/http-route.ts";
import { registerMcp } from "../adapters/mcp/http.ts";
import type { McpTaskSeams } from "../adapters/mcp/tasks/task-runner.ts";
import { cimdFetcher } from "../adapters/oauth/cimd-fetcher.ts";
import { DeliveryTransport } from "../adapters/webhooks/http-client.ts";
import { CIMD_TIMEOUT_MS } from "../domain/oauth/lifetimes.ts";
import { registerOAuth } from "../adapters/oauth/index.ts";
import { raw } from "../adapters/shared/html.ts";
import { renderPage } from "../adapters/web/context.ts";
import { csrfToken, currentUser, registerWeb, verifyCsrf } from "../adapters/web/index.ts";
import { OPERATIONS } from "../operations/registry.ts";
import { hostPolicy } from "./host-policy.ts";
import { ReadinessGate } from "./readiness-gate.ts";
import type { OAuthSeams, ServiceCore } from "./services.ts";

export interface Server {
  app: FastifyInstance;
  /** Closed (503 on /api and /mcp) until `open()`; built open unless asked otherwise. */
  gate: ReadinessGate;
}

/**
 * The HTTP face over opened services: REST, MCP, station ingest over HTTP and the docs
 * pages, on one Fastify app that is built but not listening.
 */
export function buildServer(core: ServiceCore, options: { projectRoot: string; ready?: boolean; oauth?: OAuthSeams; mcpTasks?: McpTaskSeams; httpLimits?: Partial<HttpLimits> }): Server {
  const { config, pipeline, ingest } = core;
  // One list of allowed hosts for /mcp (DNS rebinding) and for links built from the Host header.
  const hosts = hostPolicy({ baseUrl: config.baseUrl, listenHost: config.host, extraHosts: config.mcpAllowedHosts, extraOrigins: config.mcpAllowedOrigins });
  const app = buildApp({
    pipeline,
    operations: OPERATIONS,
    baseUrl: config.baseUrl,
    allowedHosts: hosts.hosts,
    metricsToken: config.metricsToken,
    trustProxy: config.trustProxy,
    logLevel: config.logLevel,
    metricRegistries: [ingest.metrics.registry, core.webhooks.metrics.registry],
    limits: options.httpLimits,
  });
  const gate = new ReadinessGate(options.ready ?? true);
  gate.register(app, config.baseUrl);
  registerIngestRoute(app, { pipeline: ingest.pipeline, directory: ingest.directory, baseUrl: config.baseUrl });
  registerMcp(app, { pipeline, operations: OPERATIONS, sources: core.services.sources, baseUrl: config.baseUrl, allowedHosts: hosts.hosts, allowedOrigins: hosts.origins, authorizationServer: true, tasks: core.mcpTasks, taskSeams: options.mcpTasks });
  const { connectedApps } = core.oauth;
  registerWeb(app, {
    pipeline,
    operations: OPERATIONS,
    ...core.people,
    clock: core.services.clock,
    attempts: core.attempts,
    baseUrl: config.baseUrl,
    signup: config.signup,
    listGrants: (accountId) => connectedApps.listGrants(accountId),
    revokeGrant: (accountId, grantId) => connectedApps.revokeGrant(accountId, grantId),
    // Bound ports once `serve` has bound them; before that (and in tests) the configured ones, 0 meaning "picked at start".
    stationPorts: () => ({
      tcp: ingest.tcp?.port ?? (config.ingestTcpPort === 0 ? null : config.ingestTcpPort),
      udp: ingest.udp?.port ?? (config.ingestUdpPort === 0 ? null : config.ingestUdpPort),
    }),
    docsDir: join(options.projectRoot, "docs"),
  });
  // The authorization server signs people in through the web face's session and CSRF tokens.
  // Client metadata documents are fetched under the webhook address rules, by the same transport.
  const cimd = options.oauth?.fetchClientMetadata ? null : new DeliveryTransport({ deadlineMs: CIMD_TIMEOUT_MS });
  registerOAuth(app, {
    store: core.oauth.store,
    clock: core.services.clock,
    attempts: core.attempts,
    baseUrl: config.baseUrl,
    currentUser,
    csrf: { token: (req) => csrfToken(req), verify: (req, token) => verifyCsrf(req, token) },
    page: async (req, title, body) => raw(await renderPage(req, { title }, body)),
    ...(cimd ? { fetchClientMetadata: cimdFetcher(cimd) } : {}),
    ...options.oauth,
  });
  if (cimd) app.addHook("onClose", () => cimd.close());
  return { app, gate };
}

/** Which setting a port belongs to, so a bind failure names what the operator changes. */
export type PortSetting = "PORT" | "INGEST_TCP_PORT" | "INGEST_UDP_PORT";

/** A port could not be bound; nothing else was started. */
export class BindError extends Error {
  readonly setting: PortSetting;
  constructor(setting: PortSetting, host: string, port: number, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === "EADDRINUSE" ? "is already in use" : code === "EACCES" ? "needs privileges this process lacks" : `cannot be bound (${code ?? String(cause)})`;
    super(`${setting}: ${host}:${port} ${why}; set ${setting} to a free port${setting === "PORT" ? "" : " or off"}`, { cause });
    this.name = "BindError";
    this.setting = setting;
  }
}

export interface BoundPorts {
  address: string;
  tcpPort: number | null;
  udpPort: number | null;
}

/**
 * Binds HTTP, then the station listeners (unless the process's role runs none); a failure
 * names its setting, and the caller closes what was bound.
 */
export async function bindPorts(core: ServiceCore, server: Pick<Server, "app">, options: { listeners?: boolean } = {}): Promise<BoundPorts> {
  const { host, port, ingestTcpPort, ingestUdpPort } = core.config;
  let address: string;
  try {
    address = await server.app.listen({ port, host });
  } catch (e) {
    throw new BindError("PORT", host, port, e);
  }
  if (options.listeners === false) return { address, tcpPort: null, udpPort: null };
  try {
    const tcpLimits = { maxConnections: core.config.ingestTcpMaxConnections, maxPerAddress: core.config.ingestTcpMaxPerAddress, idleTimeoutMs: core.config.ingestIdleTimeoutMs };
    if (ingestTcpPort !== null) await core.ingest.listen({ host, tcpPort: ingestTcpPort, udpPort: null, tcpLimits });
  } catch (e) {
    throw new BindError("INGEST_TCP_PORT", host, ingestTcpPort!, e);
  }
  try {
    if (ingestUdpPort !== null) await core.ingest.listen({ host, tcpPort: null, udpPort: ingestUdpPort });
  } catch (e) {
    throw new BindError("INGEST_UDP_PORT", host, ingestUdpPort!, e);
  }
  // Stations' own ports: one that cannot be bound is reported and retried, never a reason not to start.
  await core.ingest.startReceivers(() => core.services.stations.receiverStations(), {
    host,
    idleTimeoutMs: core.config.ingestIdleTimeoutMs,
    onProblem: (message) => core.log.warn(message),
  });
  return { address, tcpPort: core.ingest.tcp?.port ?? null, udpPort: core.ingest.udp?.port ?? null };
}
