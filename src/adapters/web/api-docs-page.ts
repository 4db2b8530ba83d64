import type { FastifyInstance } from "fastify";
import type { Operation } from "../../operations/operation.ts";
import { html } from "../shared/html.ts";
import { sendPage } from "./context.ts";

/** A call's price as a person reads it: the cost is data on the operation (a number, or per element of a list). */
function priceOf(op: Operation): string {
  const cost = op.cost as unknown;
  if (typeof cost === "number") return cost === 0 ? "free" : `${cost} credit${cost === 1 ? "" : "s"}`;
  if (typeof cost === "object" && cost !== null && "per" in cost) return `1 credit per element of \`${String((cost as { per: string }).per)}\``;
  return "depends on the request (see its description)";
}

/**
 * `/docs/api`: every operation of the registry, as the OpenAPI document and the MCP tool list
 * are made from it, so this page cannot fall behind what the service answers.
 */
export function registerApiDocsPage(app: FastifyInstance, operations: readonly Operation[]): void {
  app.get("/docs/api", async (req, reply) =>
    sendPage(
      req,
      reply,
      { title: "API" },
      html`<p>Send <code>Authorization: Bearer &lt;API_KEY&gt;</code> with each call; a key comes from the <a href="/account/keys">API keys page</a>.
The machine-readable description is <a href="/api/v1/openapi.json">the OpenAPI document</a>; errors are listed in <a href="/docs/errors">the error reference</a>
and webhook payloads in <a href="/docs/webhooks">the webhook reference</a>. The MCP server at <code>/mcp</code> offers the operations marked with a tool as read-only tools.</p>
<table>
<caption>Operations</caption>
<thead><tr><th scope="col">Method and path</th><th scope="col">What it does</th><th scope="col">Price</th><th scope="col">Key</th><th scope="col">MCP tool</th></tr></thead>
<tbody>${operations.map(
        (op) => html`<tr><td><code>${op.method} ${op.path}</code></td><td>${op.summary}</td><td>${priceOf(op)}</td><td>${op.auth === "key" ? "required" : "optional"}</td><td>${op.tool ? html`<code>${op.tool}</code>` : "-"}</td></tr>`,
      )}</tbody>
</table>`,
    ),
  );
}
