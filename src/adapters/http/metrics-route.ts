import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { AppError } from "../../domain/errors.ts";
import { errorBody } from "../../operations/envelope.ts";
import { publicBase } from "../shared/public-base.ts";

export interface MetricsSource {
  contentType: string;
  render(): Promise<string>;
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || /^(::ffff:)?127\./.test(address);
}

function sameSecret(given: string, expected: string): boolean {
  // Digests first: equal lengths for timingSafeEqual, and no length leak.
  return timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest());
}

/**
 * `GET /metrics` for Prometheus, on the API's app and on the ops server of the other roles
 * alike. Per-station and per-feed activity is the operators' business: with `token` set
 * (METRICS_TOKEN) a scrape must carry it as a bearer credential, without one only loopback
 * clients are answered.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: MetricsSource, options: { token?: string; baseUrl?: string }): void {
  app.get("/metrics", async (req, reply) => {
    const token = options.token;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
    if (token ? !(m && sameSecret(m[1]!, token)) : !isLoopback(req.socket.remoteAddress)) {
      const error = new AppError("metrics_not_allowed");
      return reply.code(error.status).send(errorBody(error, { baseUrl: publicBase(options.baseUrl, req), requestId: req.id }));
    }
    reply.header("content-type", metrics.contentType);
    return metrics.render();
  });
}
