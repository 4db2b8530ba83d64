import { startTestService } from "./test/helpers/service.ts";
const t = await startTestService();
const keys: string[] = [];
for (let i = 0; i < 50; i++) keys.push((await t.key("scale")).key);
let k = 0;
const base = await t.service.app.listen({ port: 0, host: "127.0.0.1" });
const legacyBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_port", arguments: { unlocode: "NLRTM" } } });
const via = process.argv[2] ?? "inject";
const mcp = async () => {
  const headers = { host: "localhost", "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", authorization: `Bearer ${keys[k++ % 50]}` };
  if (via === "inject") return (await t.service.app.inject({ method: "POST", url: "/mcp", headers, payload: legacyBody })).body;
  const { host: _h, ...h } = headers; return (await fetch(`${base}/mcp`, { method: "POST", headers: h, body: legacyBody })).text();
};
const rest = async () => {
  if (via === "inject") return (await t.service.app.inject({ method: "GET", url: "/api/v1/ports/NLRTM", headers: { authorization: `Bearer ${keys[k++ % 50]}` } })).body;
  return (await fetch(`${base}/api/v1/ports/NLRTM`, { headers: { authorization: `Bearer ${keys[k++ % 50]}` } })).text();
};
const r = await mcp(); if (!r.includes("Rotterdam")) throw new Error(r.slice(0, 500));
for (let i = 0; i < 300; i++) { await mcp(); await rest(); }
const variants: [string, () => Promise<unknown>, string][] = [["rest", rest, "0"], ["mcp stream", mcp, "0"], ["mcp buffered", mcp, "1"]];
const res = new Map<string, number[]>();
for (let round = 0; round < 8; round++) for (const [name, f, buf] of variants) {
  process.env.MCP_BUFFER = buf;
  const t0 = performance.now(); for (let i = 0; i < 300; i++) await f();
  res.set(name, [...(res.get(name) ?? []), (performance.now() - t0) / 300]);
}
for (const [name, xs] of res) console.log(name, [...xs].sort((a, b) => a - b)[4]!.toFixed(3), "ms/call (median of rounds)");
await t.close();
