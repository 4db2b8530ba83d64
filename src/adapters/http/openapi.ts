import type { z } from "zod";
import { ERROR_CODES } from "../../domain/errors.ts";
import { openApiWebhooks } from "./openapi-webhooks.ts";
import { SCREENING_KEYS_OPENAPI, SCREENING_KEYS_PATH } from "./screening-keys-route.ts";
import { describeCost } from "../../operations/cost.ts";
import type { Operation } from "../../operations/operation.ts";
import { ErrorBodySchema, jsonSchemaOf as toSchema, pathParamsOf, responseSchema } from "../../operations/response-schema.ts";

const ERROR_STATUSES = [...new Set(Object.values(ERROR_CODES).map((e) => e.status))].sort();

/** OpenAPI 3.1, generated from the operation schemas so it cannot drift from what is served. */
export function openApiDocument(operations: readonly Operation[], serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const pathParams = pathParamsOf(op);
    const parameters = Object.entries(op.input.shape).map(([name, schema]) => ({
      name,
      in: pathParams.has(name) ? "path" : "query",
      required: pathParams.has(name) || !(schema as z.ZodType).safeParse(undefined).success,
      // The operation's own words for the parameter, the same the MCP tool shows.
      ...((schema as z.ZodType).description ? { description: (schema as z.ZodType).description } : {}),
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
        description: `${op.description}\n\nCredits: ${creditsText(op)}. Auth: ${op.auth === "key" ? "API key required" : "optional"}.`,
        ...(op.auth === "key" ? { security: [{ bearer: [] }] } : { security: [{ bearer: [] }, {}] }),
        parameters,
        ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: toSchema(op.body, "input") } } } } : {}),
        responses,
        "x-credits": creditsText(op),
        ...(op.tool ? { "x-mcp-tool": op.tool } : {}),
      },
    };
  }
  // Not an operation (no envelope, no key, no credits), but part of the API a client reads: the receipts' keys.
  paths[SCREENING_KEYS_PATH] = SCREENING_KEYS_OPENAPI;
  return {
    openapi: "3.1.0",
    info: { title: "Maritime Data Service API", version: "1", description: "Read-only maritime data: every JSON answer is a data envelope whose sourced facts are shown only when their sources permit it." },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "An API key, `mds_sk_...`" } },
      schemas: { Error: toSchema(ErrorBodySchema, "output") },
    },
    paths,
    webhooks: openApiWebhooks(),
  };
}

/** `x-credits`: the flat price, `free`, or a note that the input decides. */
function creditsText(op: Operation): string {
  const cost = describeCost(op);
  if (cost.kind !== "flat") return "depends on the input";
  return cost.credits === 0 ? "free" : `${cost.credits}`;
}
