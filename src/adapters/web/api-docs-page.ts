import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import { describeCost } from "../../operations/cost.ts";
import type { Operation } from "../../operations/operation.ts";
import { jsonSchemaOf, type JsonSchema, pathParamsOf, responseSchema } from "../../operations/response-schema.ts";
import { type Html, html } from "../shared/html.ts";
import { sendPage } from "./context.ts";
import { boundsOf, exampleOf, typeOf } from "./schema-example.ts";

/** A call's price as a person reads it: the cost is data on the operation (a number, or per element of a list). */
function priceOf(op: Operation): string {
  const cost = describeCost(op);
  if (cost.kind === "flat") return cost.credits === 0 ? "free" : `${cost.credits} credit${cost.credits === 1 ? "" : "s"}`;
  if (cost.kind === "per") return `1 credit per element of \`${cost.param}\``;
  return "depends on the request (see its description)";
}

interface Param {
  name: string;
  where: "path" | "query" | "body";
  required: boolean;
  schema: JsonSchema;
  description: string;
}

function paramsOf(op: Operation): Param[] {
  const pathParams = pathParamsOf(op);
  const fromShape = (shape: Record<string, unknown>, where: (name: string) => Param["where"]) =>
    Object.entries(shape).map(([name, s]) => {
      const schema = s as z.ZodType;
      const w = where(name);
      return { name, where: w, required: w === "path" || !schema.safeParse(undefined).success, schema: jsonSchemaOf(schema, "input"), description: schema.description ?? "" };
    });
  return [...fromShape(op.input.shape, (n) => (pathParams.has(n) ? "path" : "query")), ...(op.body ? fromShape(op.body.shape, () => "body") : [])];
}

/** The request as curl sends it: required parameters only, each as a placeholder or its example. */
function exampleRequest(op: Operation, params: Param[], base: string): string {
  const value = (p: Param) => {
    const ex = exampleOf(p.schema);
    return ex === null || ex === "string" ? `<${p.name}>` : String(ex);
  };
  let path = op.path;
  for (const p of params.filter((x) => x.where === "path")) path = path.replace(`{${p.name}}`, value(p));
  const query = params.filter((p) => p.where === "query" && p.required).map((p) => `${p.name}=${encodeURIComponent(value(p))}`);
  const body = params.filter((p) => p.where === "body" && p.required);
  const url = `${base}${path}${query.length > 0 ? `?${query.join("&")}` : ""}`;
  const lines = [`curl${op.method === "GET" ? "" : ` -X ${op.method}`} "${url}"`, `  -H "Authorization: Bearer $API_KEY"`];
  if (op.body) lines.push(`  -H "Content-Type: application/json"`, `  -d '${JSON.stringify(Object.fromEntries(body.map((p) => [p.name, exampleOf(p.schema) ?? `<${p.name}>`])))}'`);
  return lines.join(" \\\n");
}

function operationSection(op: Operation, base: string): Html {
  const params = paramsOf(op);
  const answer = JSON.stringify(exampleOf(jsonSchemaOf(responseSchema(op), "output")), null, 2);
  return html`<section class="operation" id="${op.id}" aria-labelledby="${op.id}-h">
<h2 id="${op.id}-h"><code>${op.method} ${op.path}</code></h2>
<p><strong>${op.summary}.</strong> ${op.description}</p>
<p>Price: ${priceOf(op)}. Key: ${op.auth === "key" ? "required" : "optional"}.${op.tool ? html` MCP tool: <code>${op.tool}</code>.` : ""}</p>
${params.length === 0
  ? html`<p>No parameters.</p>`
  : html`<table><caption>Parameters of ${op.id}</caption><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Required</th><th scope="col">Type</th><th scope="col">Bounds</th><th scope="col">Meaning</th></tr></thead>
<tbody>${params.map((p) => html`<tr><td><code>${p.name}</code></td><td>${p.where}</td><td>${p.required ? "yes" : "no"}</td><td>${typeOf(p.schema)}</td><td>${boundsOf(p.schema) || "-"}</td><td>${p.description}</td></tr>`)}</tbody></table>`}
<details><summary>Example request and answer</summary>
<pre><code>${exampleRequest(op, params, base)}</code></pre>
<p class="hint">The answer's shape, with made-up values:</p>
<pre><code>${answer}</code></pre>
</details>
</section>`;
}

/**
 * `/docs/api`: every operation of the registry with its parameters, bounds, price and an
 * example request and answer, made from the same schemas as the OpenAPI document and the MCP
 * tool list, so this page cannot fall behind what the service answers.
 */
export function registerApiDocsPage(app: FastifyInstance, operations: readonly Operation[], baseOf: (req: FastifyRequest) => string): void {
  app.get("/docs/api", async (req, reply) =>
    sendPage(
      req,
      reply,
      { title: "API" },
      html`<p>Send <code>Authorization: Bearer &lt;API_KEY&gt;</code> with each call; a key comes from the <a href="/account/keys">API keys page</a>.
The machine-readable description is <a href="/api/v1/openapi.json">the OpenAPI document</a>; errors are listed in <a href="/docs/errors">the error reference</a>
and webhook payloads in <a href="/docs/webhooks">the webhook reference</a>. The MCP server at <code>/mcp</code> (see <a href="/docs/mcp">MCP</a> and <a href="/docs/oauth">OAuth</a>) offers the operations marked with a tool as read-only tools.</p>
<table>
<caption>Operations</caption>
<thead><tr><th scope="col">Method and path</th><th scope="col">What it does</th><th scope="col">Price</th><th scope="col">Key</th><th scope="col">MCP tool</th></tr></thead>
<tbody>${operations.map(
        (op) => html`<tr><td><a href="#${op.id}"><code>${op.method} ${op.path}</code></a></td><td>${op.summary}</td><td>${priceOf(op)}</td><td>${op.auth === "key" ? "required" : "optional"}</td><td>${op.tool ? html`<code>${op.tool}</code>` : "-"}</td></tr>`,
      )}</tbody>
</table>
${operations.map((op) => operationSection(op, baseOf(req)))}`,
    ),
  );
}
