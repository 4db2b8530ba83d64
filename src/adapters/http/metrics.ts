import { Counter, Histogram, Registry } from "prom-client";

/** Prometheus metrics of the API: calls, credits charged and latency per operation and status. */
export class HttpMetrics {
  readonly #registry = new Registry();
  readonly #calls = new Counter({ name: "mds_api_calls_total", help: "API calls by operation and status", labelNames: ["op", "status"], registers: [this.#registry] });
  readonly #credits = new Counter({ name: "mds_api_credits_charged_total", help: "Credits charged by operation", labelNames: ["op"], registers: [this.#registry] });
  readonly #latency = new Histogram({
    name: "mds_api_duration_seconds",
    help: "Time in the pipeline by operation",
    labelNames: ["op"],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.#registry],
  });

  /** Registries of other parts (AIS ingest) served alongside. */
  readonly #others: Registry[];

  constructor(others: Registry[] = []) {
    this.#others = others;
  }

  get contentType(): string {
    return this.#registry.contentType;
  }

  /** Each series' child, looked up once: labelling on every call (prom-client hashes the labels) is a measurable share of a cached call. */
  readonly #children = new Map<string, { calls: Counter.Internal; credits: Counter.Internal; latency: Histogram.Internal<"op"> }>();

  observe(op: string, status: number, credits: number, ms: number): void {
    const key = `${op} ${status}`;
    let c = this.#children.get(key);
    if (!c) {
      c = { calls: this.#calls.labels(op, String(status)), credits: this.#credits.labels(op), latency: this.#latency.labels(op) };
      this.#children.set(key, c);
    }
    c.calls.inc();
    if (credits > 0) c.credits.inc(credits);
    c.latency.observe(ms / 1000);
  }

  render(): Promise<string> {
    return this.#others.length === 0 ? this.#registry.metrics() : Registry.merge([this.#registry, ...this.#others]).metrics();
  }
}
