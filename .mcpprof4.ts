import { createMcpHandler, isLegacyRequest, McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
const mk = () => { const s = new McpServer({ name: "x", version: "1" }); s.registerTool("noop", { description: "x" }, async () => ({ content: [{ type: "text", text: "ok" }] })); return s; };
const auto = createMcpHandler(mk);
const strict = createMcpHandler(mk, { legacy: "reject" });
const manualJson = async (request: Request, parsedBody: unknown) => {
  if (!(await isLegacyRequest(request, { parsedBody } as never))) return strict.fetch(request, { parsedBody });
  const server = mk();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try { return await transport.handleRequest(request, { parsedBody }); } finally { void server.close(); }
};
const n = 4000;
const lbody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "noop", arguments: {} } });
const lh = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
const res = new Map<string, number[]>();
const variants: [string, () => Promise<unknown>][] = [
  ["sdk legacy (SSE)", async () => (await auto.fetch(new Request("http://localhost/mcp", { method: "POST", headers: lh, body: lbody }))).text()],
  ["sdk legacy parsedBody", async () => (await auto.fetch(new Request("http://localhost/mcp", { method: "POST", headers: lh, body: lbody }), { parsedBody: JSON.parse(lbody) })).text()],
  ["manual legacy JSON", async () => (await manualJson(new Request("http://localhost/mcp", { method: "POST", headers: lh, body: lbody }), JSON.parse(lbody))).text()],
];
for (const [, f] of variants) for (let i = 0; i < 300; i++) await f();
for (let r = 0; r < 5; r++) for (const [name, f] of variants) { const t0 = performance.now(); for (let i = 0; i < n / 5; i++) await f(); res.set(name, [...(res.get(name) ?? []), (performance.now() - t0) / (n / 5) * 1000]); }
for (const [name, xs] of res) console.log(name, [...xs].sort((a, b) => a - b)[2]!.toFixed(1), "us");
console.log((await manualJson(new Request("http://localhost/mcp", { method: "POST", headers: lh, body: lbody }), JSON.parse(lbody))).headers.get("content-type"));
