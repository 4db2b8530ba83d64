import Fastify, { type FastifyInstance } from "fastify";
import { Registry } from "prom-client";
import { registerMetricsRoute } from "../adapters/http/metrics-route.ts";
import { type Role, runs } from "./roles.ts";
import type { ServiceCore } from "./services.ts";

/**
 * The Prometheus registries a process of this role fills: ingest and feed counters where
 * stations or feeds are read, delivery counters where webhooks are sent. (The API's own
 * counters live in its app; compose/server.ts serves these beside them.)
 */
export function roleMetricRegistries(core: Pick<ServiceCore, "ingest" | "webhooks">, role: Role): Registry[] {
  return [
    ...(runs(role, "station-listeners") || runs(role, "feeds") ? [core.ingest.metrics.registry] : []),
    ...(runs(role, "deliveries") ? [core.webhooks.metrics.registry] : []),
  ];
}

/**
 * The HTTP face of a process without the API (`--role ingest` or `worker`), on PORT:
 * liveness and readiness, so a supervisor or orchestrator probes every process alike, and
 * `/metrics` with what the role produces, under the same access rule as the API's
 * (METRICS_TOKEN, else loopback only).
 */
export function buildOpsServer(options: { registries: readonly Registry[]; metricsToken?: string; baseUrl?: string } = { registries: [] }): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get("/healthz", async () => ({ ok: true }));
  const merged = () => (options.registries.length === 1 ? options.registries[0]! : Registry.merge([...options.registries]));
  registerMetricsRoute(app, { contentType: Registry.PROMETHEUS_CONTENT_TYPE, render: () => merged().metrics() }, { token: options.metricsToken, baseUrl: options.baseUrl });
  return app;
}
