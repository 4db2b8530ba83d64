import { McpServer } from "@modelcontextprotocol/server";
import { buildMcpServer } from "./src/adapters/mcp/server.ts";
import { buildToolSpecs } from "./src/adapters/mcp/tools.ts";
import { rightsDocument } from "./src/adapters/mcp/rights-doc.ts";
import { PROMPTS } from "./src/adapters/mcp/prompts.ts";
import { OPERATIONS } from "./src/operations/registry.ts";
import { startTestService } from "./test/helpers/service.ts";
const t = await startTestService({ withData: true });
const deps = { pipeline: t.service.pipeline, tools: buildToolSpecs(OPERATIONS), rightsText: rightsDocument(t.service.services.sources) };
const ctx = { authorization: "x", clientAddress: "1", baseUrl: "http://x", requestId: "r", commercialScope: "none" as const };
function time(name: string, n: number, f: () => unknown) { for (let i = 0; i < 500; i++) f(); const t0 = performance.now(); for (let i = 0; i < n; i++) f(); console.log(name, ((performance.now() - t0) / n * 1000).toFixed(1), "us"); }
for (let r = 0; r < 2; r++) {
time("buildMcpServer", 3000, () => buildMcpServer(deps, ctx));
time("server + tools only", 3000, () => { const s = new McpServer({ name: "x", version: "1" }); for (const spec of deps.tools) s.registerTool(spec.name, { title: spec.title, description: spec.description, inputSchema: spec.inputSchema, outputSchema: spec.outputSchema, annotations: { readOnlyHint: true } }, async () => ({ content: [] })); });
time("server + prompts only", 3000, () => { const s = new McpServer({ name: "x", version: "1" }); for (const p of PROMPTS) s.registerPrompt(p.name, { title: p.title, description: p.description, argsSchema: p.argsSchema }, () => ({ messages: [] })); });
time("server with cacheHints", 3000, () => new McpServer({ name: "x", version: "1" }, { instructions: "x", cacheHints: { "tools/list": { ttlMs: 1, cacheScope: "public" } } }));
}
const { key } = await t.key("scale");
const body = (await t.service.app.inject({ method: "GET", url: "/api/v1/ports/NLRTM", headers: { authorization: `Bearer ${key}` } })).json();
const spec = deps.tools.find((s) => s.name === "get_port")!;
time("output validate (port)", 3000, () => spec.outputSchema["~standard"].validate({ ...body, commercialScope: "none" }));
time("JSON.stringify (port)", 3000, () => JSON.stringify(body));
await t.close();
