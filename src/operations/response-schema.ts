import { z } from "zod";
import { ERROR_CODES } from "../domain/errors.ts";
import { EnvelopeBase } from "./envelope-schemas.ts";
import type { Operation } from "./operation.ts";
import { SCREENING_ID_FIELD } from "./screening-receipt.ts";

/**
 * The schemas of what operations answer, shared by every face: OpenAPI documents them, MCP
 * advertises them as output schemas. They live with the operations so neither adapter
 * reaches into the other.
 */

export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_CODES) as [string, ...string[]]),
    status: z.number().int(),
    message: z.string(),
    retryable: z.boolean(),
    param: z.string().optional(),
    rule: z.string().optional(),
    requestId: z.string(),
    docs: z.string(),
  }),
});

/** The whole response of an operation: the envelope, its extra top-level fields, and `data`. */
export function responseSchema(op: Operation): z.ZodObject {
  return z.object({
    ...EnvelopeBase,
    ...(op.receipt === "screening" ? SCREENING_ID_FIELD : {}),
    ...(op.output.top ?? {}),
    ...(op.paged || op.output.data instanceof z.ZodArray ? { count: z.number().int() } : {}),
    ...(op.paged ? { next: z.string().optional() } : {}),
    data: op.output.data,
  });
}

export type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12, without `$schema` (it is embedded in a larger document). */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  return rest;
}

/** The names in an operation's path template, e.g. `id` of `/api/v1/vessels/{id}`. */
export function pathParamsOf(op: Operation): Set<string> {
  return new Set([...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
}
