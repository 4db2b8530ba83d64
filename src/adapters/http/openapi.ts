import { z } from "zod";
import { ERROR_CODES } from "../../domain/errors.ts";
import { EnvelopeBase } from "../../operations/envelope-schemas.ts";
import type { Operation } from "../../operations/operation.ts";

const ErrorBodySchema = z.object({
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
    ...(op.output.top ?? {}),
    ...(op.paged || op.output.data instanceof z.ZodArray ? { count: z.number().int() } : {}),
    ...(op.paged ? { next: z.string().optional() } : {}),
    data: op.output.data,
  });
}

function toSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  return rest;
}

const ERROR_STATUSES = [...new Set(Object.values(ERROR_CODES).map((e) => e.status))].sort();

/** OpenAPI 3.1, generated from the operation schemas so it cannot drift from what is served. */
export function openApiDocument(operations: readonly Operation[], serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const pathParams = new Set([...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
    const parameters = Object.entries(op.input.shape).map(([name, schema]) => ({
      name,
      in: pathParams.has(name) ? "path" : "query",
      required: pathParams.has(name) || !(schema as z.ZodType).safeParse(undefined).success,
      schema: toSchema(schema as z.ZodType, "input"),
    }));
    const responses: Record<string, unknown> = {
      "200": { description: "The data envelope", content: { "application/json": { schema: toSchema(responseSchema(op), "output") } } },
    };
    for (const status of ERROR_STATUSES) {
      const codes = Object.entries(ERROR_CODES).filter(([, e]) => e.status === status).map(([c]) => c);
      responses[String(status)] = { description: `Error: ${codes.join(", ")}`, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
    }
    paths[op.path] = {
      ...(paths[op.path] ?? {}),
      [op.method.toLowerCase()]: {
        operationId: op.id,
        summary: op.summary,
        description: `${op.description}\n\nCredits: ${describeCost(op)}. Auth: ${op.auth === "key" ? "API key required" : "optional"}.`,
        ...(op.auth === "key" ? { security: [{ bearer: [] }] } : { security: [{ bearer: [] }, {}] }),
        parameters,
        ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: toSchema(op.body, "input") } } } } : {}),
        responses,
        "x-credits": describeCost(op),
        ...(op.tool ? { "x-mcp-tool": op.tool } : {}),
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Maritime Data Service API", version: "1", description: "Read-only maritime data: every JSON answer is a data envelope whose sourced facts are shown only when their sources permit it." },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "An API key, `mds_sk_...`" } },
      schemas: { Error: toSchema(ErrorBodySchema, "output") },
    },
    paths,
  };
}

function describeCost(op: Operation): string {
  const c = op.cost as (i: never) => number;
  try {
    const n = c({} as never);
    return n === 0 ? "free" : `${n}`;
  } catch {
    return "depends on the input";
  }
}
