import type { FastifyInstance } from "fastify";
import type { Probe } from "../adapters/storage/probes.ts";
import type { ReadinessGate } from "./readiness-gate.ts";

/**
 * `/readyz`: whether this process should receive traffic now. 200 when every dependency
 * answers (the store, Redis when configured) and the process has finished starting; 503
 * with the failing checks otherwise, so a load balancer takes it out of rotation. Liveness
 * (`/healthz`) stays a plain 200: a process whose database is down is alive and must not be
 * restarted for it.
 */
export function registerReadiness(app: FastifyInstance, probes: readonly Probe[], gate: ReadinessGate | null, stopping: () => boolean): void {
  app.get("/readyz", async (_req, reply) => {
    const checks: Record<string, string> = {};
    await Promise.all(
      probes.map(async (p) => {
        try {
          await p.check();
          checks[p.name] = "ok";
        } catch (e) {
          checks[p.name] = e instanceof Error ? e.message : String(e);
        }
      }),
    );
    if (gate) checks.data = gate.ready ? "ok" : "importing the bundled reference data";
    if (stopping()) checks.process = "shutting down";
    const ready = Object.values(checks).every((v) => v === "ok") && !stopping();
    return reply.code(ready ? 200 : 503).header("cache-control", "no-store").send({ ready, checks });
  });
  app.addHook("onClose", async () => {
    for (const p of probes) await p.close?.();
  });
}
