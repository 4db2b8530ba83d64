import type { FastifyReply } from "fastify";
import type { Outcome } from "../../operations/outcome.ts";

/**
 * The one place REST turns an outcome into a response: the status, the body as JSON and the
 * headers clients read (docs/errors.md, "Headers"), for successes and failures alike.
 */
export function sendOutcome(reply: FastifyReply, outcome: Outcome): string {
  reply.code(outcome.status).header("x-request-id", outcome.requestId);
  const rate = outcome.rateLimit;
  if (rate) {
    reply.header("x-ratelimit-limit", String(rate.limit));
    reply.header("x-ratelimit-remaining", String(rate.remaining));
    reply.header("x-ratelimit-reset", String(Math.ceil(rate.resetMs / 1000)));
  }
  if (outcome.retryAfter !== null) reply.header("retry-after", String(outcome.retryAfter));
  if (outcome.credits.remaining !== null) reply.header("x-credits-remaining", String(outcome.credits.remaining));
  reply.header("x-credits-cost", String(outcome.credits.cost)).header("content-type", "application/json; charset=utf-8");
  return JSON.stringify(outcome.body);
}
