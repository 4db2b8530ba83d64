import { randomUUID } from "node:crypto";
import { logFailure } from "../shared/failure-log.ts";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { AppError } from "../../domain/errors.ts";
import { execute, type Pipeline } from "../../operations/execute.ts";
import type { Operation } from "../../operations/operation.ts";
import { failure, type Result } from "../../operations/answer.ts";
import type { Call } from "../../operations/call.ts";
import { errorBody } from "../../operations/envelope.ts";
import { sendResult } from "./result-reply.ts";
import { openApiDocument } from "./openapi.ts";
import { HttpMetrics } from "./metrics.ts";
import { registerMetricsRoute } from "./metrics-route.ts";
import { registerScreeningKeysRoute } from "./screening-keys-route.ts";
import type { Registry } from "prom-client";
import { publicBase } from "../shared/public-base.ts";

export interface AppOptions {
  pipeline: Pipeline;
  operations: readonly Operation[];
  /** Public base URL; when unset, taken from each request's Host. */
  baseUrl?: string;
  logLevel?: string;
  /** Further Prometheus registries served at /metrics (AIS ingest). */
  metricRegistries?: Registry[];
  /**
   * Host names (no port) links may be built from when `baseUrl` is unset; `*` allows any.
   * A request naming another host is refused (host_not_allowed) instead of being answered
   * with links to whatever host it claimed. Unset: every host (tests of the app alone).
   */
  allowedHosts?: readonly string[];
  /** Bearer token /metrics asks for; unset: /metrics answers loopback clients only. */
  metricsToken?: string;
  /** Proxies whose X-Forwarded-For names the client (TRUST_PROXY); unset: the connection's address is the client's. */
  trustProxy?: string;
  /** Socket limits of the HTTP listener; defaults in HTTP_LIMITS. */
  limits?: Partial<HttpLimits>;
}

/** How long a client may take, and how many may be connected, before the server lets go of it. */
export interface HttpLimits {
  /** Time to send the request headers (node's headersTimeout): a slow-header client is answered 408 and closed. */
  headersTimeoutMs: number;
  /** Time to send the whole request, body included (node's requestTimeout). */
  requestTimeoutMs: number;
  /** An idle socket (no bytes either way) is closed after this (Fastify's connectionTimeout). */
  idleTimeoutMs: number;
  /** A kept-alive socket with no next request is closed after this. */
  keepAliveTimeoutMs: number;
  /** How often node checks the header and request timeouts: the bound is exceeded by at most this. */
  checkIntervalMs: number;
  /** Open sockets at most on this listener; more are closed on accept. */
  maxConnections: number;
}

/**
 * Node's defaults (60 s for headers, checked every 30 s, no idle limit) let a client that
 * sends one byte at a time hold a socket for 65 to 95 s; these bound it to seconds. The
 * request limit leaves room for a station posting a large NMEA batch over a slow uplink.
 */
export const HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
  maxConnections: 10_000,
};

/** Paths that build no links and must answer whoever probes them by whatever name (health checks, scrapers); /mcp checks hosts itself. */
const HOST_CHECK_EXEMPT = /^\/(healthz|readyz|metrics|mcp)(?:[/?]|$)/;

/** The host name of a Host header, without its port, lower-cased ("[::1]" keeps its brackets). */
function hostName(header: string | undefined): string {
  const h = (header ?? "").trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const colon = h.indexOf(":");
  return colon < 0 ? h : h.slice(0, colon);
}

/** Builds the Fastify app (no listen): one route per operation, all through execute(). */
export function buildApp(options: AppOptions): FastifyInstance {
  const limits = { ...HTTP_LIMITS, ...options.limits };
  const app = Fastify({
    connectionTimeout: limits.idleTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: limits.checkIntervalMs },
    logger: { level: options.logLevel ?? "info", redact: ["req.headers.authorization"] },
    // One log line per failure (below) rather than two per request: the access log is the metrics.
    logController: new LogController({ disableRequestLogging: true }),
    // req.ip, the address every per-address limit counts, is the client's behind a trusted proxy.
    trustProxy: options.trustProxy ?? false,
    genReqId: () => `req_${randomUUID().replaceAll("-", "")}`,
    // A path parameter longer than this is a 404 of the router, not a crash.
    routerOptions: { maxParamLength: 200 },
    // Fastify's own rejections (an undecodable URL) get the same error body as ours.
    frameworkErrors: (err, req, reply) => {
      const error = new AppError("invalid_parameter", `The request is malformed: ${err.message}`, { param: "url", rule: "must be a well-formed, percent-encoded URL" });
      const body = errorBody(error, { baseUrl: publicBase(options.baseUrl, req), requestId: req.id });
      (reply as FastifyReply).code(400).header("content-type", "application/json; charset=utf-8").send(JSON.stringify(body));
    },
  });
  app.server.maxConnections = limits.maxConnections;
  const metrics = new HttpMetrics(options.metricRegistries);
  const baseOf = (req: FastifyRequest) => publicBase(options.baseUrl, req);

  const allowed = options.baseUrl || !options.allowedHosts || options.allowedHosts.includes("*") ? null : new Set(options.allowedHosts);
  if (allowed) {
    // A callback hook, not an async one: every request passes it, and an allowed host then costs no promise and no microtask turn.
    // A refusal is sent without calling done(), which stops the request there.
    app.addHook("onRequest", (req, reply, done) => {
      if (HOST_CHECK_EXEMPT.test(req.url) || allowed.has(hostName(req.headers.host))) {
        done();
        return;
      }
      const error = new AppError("host_not_allowed", undefined, { param: "Host", rule: `must be one of ${[...allowed].join(", ")}, or set BASE_URL` });
      // The docs link stays relative: the claimed host is exactly what must not appear in it.
      reply.code(error.status).send(errorBody(error, { baseUrl: "", requestId: req.id }));
    });
  }

  for (const op of options.operations) {
    const url = op.path.replace(/\{(\w+)\}/g, ":$1");
    app.route({
      method: op.method,
      url,
      handler: async (req, reply) => {
        const started = performance.now();
        const call: Call = { params: req.params as Record<string, string>, query: req.query as Record<string, unknown>, body: req.body, baseUrl: baseOf(req), requestId: req.id };
        let result: Result;
        try {
          const principal = await options.pipeline.auth.authenticate(req.headers.authorization, op.auth === "key", req.ip);
          result = await execute(options.pipeline, op, principal, call);
        } catch (e) {
          result = failure(e, call.requestId);
        }
        const status = result.ok ? 200 : result.error.status;
        if (!result.ok) logFailure(req.log, result.error, { op: op.id, requestId: req.id, via: "rest" });
        if (result.metering.denials.length > 0) req.log.debug({ op: op.id, denials: result.metering.denials }, "parts withheld by source rights");
        metrics.observe(op.id, status, result.metering.credits.cost, performance.now() - started);
        return sendResult(reply, op, call, result);
      },
    });
  }

  app.get("/api/v1/openapi.json", async (req) => openApiDocument(options.operations, baseOf(req)));
  registerScreeningKeysRoute(app, options.pipeline.services.receiptSigner, baseOf);
  registerMetricsRoute(app, metrics, { token: options.metricsToken, baseUrl: options.baseUrl });
  app.get("/healthz", async () => ({ ok: true }));

  app.setNotFoundHandler(async (req, reply) => {
    const error = new AppError("route_not_found", `No operation answers ${req.method} ${req.url.split("?")[0]}; see ${baseOf(req)}/api/v1/openapi.json.`);
    return reply.code(404).send(errorBody(error, { baseUrl: baseOf(req), requestId: req.id }));
  });
  app.setErrorHandler(async (err: { statusCode?: number; message?: string; code?: string; name?: string }, req, reply) => {
    // Fastify's own 4xx (malformed URL, oversized parameter, a body it cannot parse) are the client's; anything else is ours.
    const clientError = typeof err.statusCode === "number" && err.statusCode >= 400 && err.statusCode < 500;
    const error = clientError ? new AppError("invalid_parameter", `The request is malformed: ${err.message}`, malformedPart(err)) : new AppError("internal_error");
    if (!clientError) req.log.error({ err }, "unhandled error");
    return reply.code(error.status).send(errorBody(error, { baseUrl: baseOf(req), requestId: req.id }));
  });
  return app;
}

/**
 * Which part of a request Fastify could not read, and the rule it broke: the body when its
 * content-type parser failed (JSON that does not parse, a body over the limit), else the URL.
 */
function malformedPart(err: { code?: string; name?: string }): { param: string; rule: string } {
  if (err.code === "FST_ERR_CTP_BODY_TOO_LARGE") return { param: "body", rule: "must not be larger than the body limit" };
  if (err.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return { param: "body", rule: "must be sent as application/json" };
  if (err.name === "SyntaxError" || err.code?.startsWith("FST_ERR_CTP_")) return { param: "body", rule: "must be well-formed JSON" };
  return { param: "request", rule: "must be a well-formed URL" };
}
