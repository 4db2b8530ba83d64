import type { FastifyBaseLogger } from "fastify";
import type { AppError } from "../../domain/errors.ts";

/**
 * How a failed call is logged, the same for REST and MCP: a fault at error level with its
 * cause and stack, so an operator's error alert means something broke; a client's error or
 * a documented unavailability (sanctions lists not loaded) at info, one line without a stack,
 * so it is counted and findable but wakes no one.
 */
export function logFailure(log: FastifyBaseLogger, error: AppError, context: { op: string; requestId: string; via: "rest" | "mcp" }): void {
  if (error.fault) log.error({ err: error.cause ?? error, ...context, code: error.code }, "operation failed");
  else log.info({ ...context, code: error.code, status: error.status }, `answered ${error.status} ${error.code}`);
}
