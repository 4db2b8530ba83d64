import type { FastifyReply } from "fastify";
import type { Result } from "../../operations/answer.ts";
import type { Call } from "../../operations/call.ts";
import { envelopeOf, errorBody } from "../../operations/envelope.ts";
import type { Operation } from "../../operations/operation.ts";

/**
 * The one place REST turns a result into a response: the status, the envelope or error
 * object as JSON, and the headers clients read (docs/errors.md, "Headers").
 */
export function sendResult(reply: FastifyReply, op: Operation, call: Call, result: Result): string {
  const m = result.metering;
  reply.code(result.ok ? 200 : result.error.status).header("x-request-id", m.requestId);
  const rate = m.rateLimit;
  if (rate) {
    reply.header("x-ratelimit-limit", String(rate.limit));
    reply.header("x-ratelimit-remaining", String(rate.remaining));
    reply.header("x-ratelimit-reset", String(Math.ceil(rate.resetMs / 1000)));
  }
  if (m.retryAfter !== null) reply.header("retry-after", String(m.retryAfter));
  if (m.credits.remaining !== null) reply.header("x-credits-remaining", String(m.credits.remaining));
  reply.header("x-credits-cost", String(m.credits.cost)).header("content-type", "application/json; charset=utf-8");
  return JSON.stringify(result.ok ? envelopeOf(op, result, call) : errorBody(result.error, call));
}
