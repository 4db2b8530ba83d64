import { Counter, Histogram, Registry } from "prom-client";
import type { AttemptResult } from "../../interfaces/webhooks.ts";

/**
 * Prometheus metrics of webhook delivery in this process, in a registry of their own that
 * /metrics merges with the others the process serves. Labels are the outcome and the
 * error class (a fixed set), never the endpoint or account: those are many.
 */
export class WebhookMetrics {
  readonly registry = new Registry();
  readonly #attempts = new Counter({
    name: "mds_webhook_attempts_total",
    help: "Delivery attempts recorded by this process, by outcome (delivered, failed) and error class (dns, connect, tls, timeout, http_status, ...; none when delivered)",
    labelNames: ["outcome", "error_class"],
    registers: [this.registry],
  });
  readonly #duration = new Histogram({
    name: "mds_webhook_attempt_duration_seconds",
    help: "Time of one delivery attempt, from connect to the receiver's answer",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly #disabled = new Counter({
    name: "mds_webhook_endpoints_disabled_total",
    help: "Endpoints turned off by this process after repeated failures",
    registers: [this.registry],
  });

  attempt(result: AttemptResult, endpointDisabled: boolean): void {
    this.#attempts.inc({ outcome: result.success ? "delivered" : "failed", error_class: result.errorClass ?? "none" });
    this.#duration.observe(result.durationMs / 1000);
    if (endpointDisabled) this.#disabled.inc();
  }
}
