import Fastify, { type FastifyInstance } from "fastify";

/**
 * The HTTP face of a process without the API (`--role ingest` or `worker`): liveness and
 * readiness only, on PORT, so a supervisor or orchestrator probes every process alike.
 */
export function buildOpsServer(): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get("/healthz", async () => ({ ok: true }));
  return app;
}
