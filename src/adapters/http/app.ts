import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { AppError } from "../../domain/errors.ts";
import { execute, type Pipeline } from "../../operations/execute.ts";
import type { Operation } from "../../operations/operation.ts";
import { errorBody, failedOutcome, type Outcome } from "../../operations/outcome.ts";
import { sendOutcome } from "./outcome-reply.ts";
import { openApiDocument } from "./openapi.ts";
import { HttpMetrics } from "./metrics.ts";
import type { Registry } from "prom-client";

export interface AppOptions {
  pipeline: Pipeline;
  operations: readonly Operation[];
  /** Public base URL; when unset, taken from each request's Host. */
  baseUrl?: string;
  logLevel?: string;
  /** The text served at /docs/errors. */
  errorsDocPath?: string;
  /** Further Prometheus registries served at /metrics (AIS ingest). */
  metricRegistries?: Registry[];
}

/** Builds the Fastify app (no listen): one route per operation, all through execute(). */
export function buildApp(options: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: { level: options.logLevel ?? "info", redact: ["req.headers.authorization"] },
    // One log line per failure (below) rather than two per request: the access log is the metrics.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => `req_${randomUUID().replaceAll("-", "")}`,
    // A path parameter longer than this is a 404 of the router, not a crash.
    routerOptions: { maxParamLength: 200 },
    // Fastify's own rejections (an undecodable URL) get the same error body as ours.
    frameworkErrors: (err, req, reply) => {
      const error = new AppError("invalid_parameter", `The request is malformed: ${err.message}`, { param: "url", rule: "must be a well-formed, percent-encoded URL" });
      const body = errorBody(error, { baseUrl: options.baseUrl ?? `${req.protocol}://${req.host}`, requestId: req.id });
      (reply as FastifyReply).code(400).header("content-type", "application/json; charset=utf-8").send(JSON.stringify(body));
    },
  });
  const metrics = new HttpMetrics(options.metricRegistries);
  const baseOf = (req: FastifyRequest) => options.baseUrl ?? `${req.protocol}://${req.host}`;

  for (const op of options.operations) {
    const url = op.path.replace(/\{(\w+)\}/g, ":$1");
    app.route({
      method: op.method,
      url,
      handler: async (req, reply) => {
        const started = performance.now();
        const call = { params: req.params as Record<string, string>, query: req.query as Record<string, unknown>, body: req.body, baseUrl: baseOf(req), requestId: req.id };
        let outcome: Outcome;
        try {
          const principal = await options.pipeline.auth.authenticate(req.headers.authorization, op.auth === "key", req.ip);
          outcome = await execute(options.pipeline, op, principal, call);
        } catch (e) {
          outcome = failedOutcome(e, call);
        }
        if (outcome.error && outcome.status >= 500) req.log.error({ err: outcome.error.cause ?? outcome.error, op: op.id }, "operation failed");
        if (outcome.denials.length > 0) req.log.debug({ op: op.id, denials: outcome.denials }, "parts withheld by source rights");
        metrics.observe(op.id, outcome.status, outcome.credits.cost, performance.now() - started);
        return sendOutcome(reply, outcome);
      },
    });
  }

  app.get("/api/v1/openapi.json", async (req) => openApiDocument(options.operations, baseOf(req)));
  app.get("/metrics", async (_req, reply) => {
    reply.header("content-type", metrics.contentType);
    return metrics.render();
  });
  app.get("/healthz", async () => ({ ok: true }));
  if (options.errorsDocPath) {
    const text = readFileSync(options.errorsDocPath, "utf8");
    app.get("/docs/errors", async (_req, reply) => reply.header("content-type", "text/markdown; charset=utf-8").send(text));
  }

  app.setNotFoundHandler(async (req, reply) => {
    const error = new AppError("route_not_found", `No operation answers ${req.method} ${req.url.split("?")[0]}; see ${baseOf(req)}/api/v1/openapi.json.`);
    return reply.code(404).send(errorBody(error, { baseUrl: baseOf(req), requestId: req.id }));
  });
  app.setErrorHandler(async (err: { statusCode?: number; message?: string }, req, reply) => {
    // Fastify's own 4xx (malformed URL, oversized parameter) are the client's; anything else is ours.
    const clientError = typeof err.statusCode === "number" && err.statusCode >= 400 && err.statusCode < 500;
    const error = clientError ? new AppError("invalid_parameter", `The request is malformed: ${err.message}`, { param: "request", rule: "must be a well-formed URL" }) : new AppError("internal_error");
    if (!clientError) req.log.error({ err }, "unhandled error");
    return reply.code(error.status).send(errorBody(error, { baseUrl: baseOf(req), requestId: req.id }));
  });
  return app;
}
