import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../domain/errors.ts";
import { errorBody } from "../operations/envelope.ts";
import { publicBase } from "../adapters/shared/public-base.ts";

/** Paths that read the store: they wait for the bundled data; health, metrics, docs and station ingest do not. */
const GATED = /^\/(api\/|mcp(\/|$|\?))/;

/** Seconds a client is asked to wait while the first import runs. */
const RETRY_AFTER_SECONDS = 5;

/**
 * `serve` binds its ports before the first import of the bundled data, so a busy port
 * fails at once. Until the import is done, the API and MCP answer 503 with Retry-After
 * (not charged) rather than serve a half-empty store or hold requests behind the
 * import's transaction.
 */
export class ReadinessGate {
  #ready: boolean;

  constructor(ready: boolean) {
    this.#ready = ready;
  }

  get ready(): boolean {
    return this.#ready;
  }

  open(): void {
    this.#ready = true;
  }

  register(app: FastifyInstance, baseUrl: string | undefined): void {
    const baseOf = (req: FastifyRequest) => publicBase(baseUrl, req);
    // A callback hook, not an async one: every request passes it, and an open gate then costs no promise and no microtask turn.
    // It answers by sending without calling done(), which stops the request there (Fastify's "Respond to a request from a hook").
    app.addHook("onRequest", (req, reply, done) => {
      if (this.#ready || !GATED.test(req.url)) {
        done();
        return;
      }
      const error = new AppError("service_unavailable", "The service is importing its reference data; retry in a few seconds. Not charged.");
      reply
        .code(503)
        .header("retry-after", String(RETRY_AFTER_SECONDS))
        .header("content-type", "application/json; charset=utf-8")
        .send(JSON.stringify(errorBody(error, { baseUrl: baseOf(req), requestId: req.id })));
    });
  }
}
