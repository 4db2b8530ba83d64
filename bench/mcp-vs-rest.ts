/**
 * A tool call over MCP against the same REST call, side by side in one run, over real HTTP
 * (loopback, keep-alive): the latency a client sees for one request, one at a time.
 *
 *   npx node bench/mcp-vs-rest.ts [requests-per-round] [rounds]
 *
 * Pairs: `get_port` vs GET /api/v1/ports/NLRTM (a small page), and `screen_vessels` with 10 ids
 * vs GET /api/v1/screen (a larger answer). Each MCP call is replayed byte for byte as the SDK's
 * own client sent it once (captured through the transport's fetch), in both eras: the 2025 one
 * (a stateless POST after `initialize`) and 2026-07-28 (one POST with the per-request
 * envelope), both answered as JSON. So the figures are server time plus
 * one HTTP exchange, without the client SDK's own result validation; one line times the
 * SDK client end to end for reference, and three give the server's own time (Fastify's
 * inject(), no sockets, no client). Service and client share one process on the embedded
 * SQLite store; variants alternate per round so drift in the machine's load hits them alike.
 *
 * Two "transport floor" lines answer the same exchanges from a bare Fastify route with the bytes
 * fixed (the REST body for a GET; the MCP answer for the MCP POST, same headers and body): what
 * HTTP costs for each shape with no service work at all. MCP is a POST with a body, and its
 * answer carries the data twice (structuredContent and the same JSON as text), so its floor is
 * above REST's whatever the server does.
 *
 * The lines marked "(undici request)" send the same requests with undici's `request()` over one
 * keep-alive Agent, REST, MCP and the two floors alike, and are compared with the REST line sent the same way:
 * the same client on both sides. `fetch` costs more for a POST with a body than for a GET, so
 * on the fetch lines part of MCP's multiple is the client's; the earlier lines are kept as they
 * were so runs stay comparable with earlier ones.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import Fastify from "fastify";
import { Agent, request } from "undici";
import { importMissingDatasets } from "../src/adapters/importers/datasets.ts";
import { importSanctions } from "../src/adapters/importers/sanctions-import.ts";
import { parseConfig } from "../src/config.ts";
import { createService, PROJECT_ROOT } from "../src/main.ts";
import { percentile } from "./percentile.ts";

const perRound = Number(process.argv[2] ?? 300);
const rounds = Number(process.argv[3] ?? 5);

type Sent = { url: string; headers: Record<string, string>; body: string };

const dataDir = mkdtempSync(join(tmpdir(), "mds-bench-mcp-"));
const service = await createService(parseConfig({ LOG_LEVEL: "silent", DATA_DIR: dataDir, INGEST_TCP_PORT: "off", INGEST_UDP_PORT: "off" }, PROJECT_ROOT));
try {
  console.warn("importing reference data and the OFAC sample...");
  await importMissingDatasets(service, { progress: false });
  await importSanctions(service.services, "ofac", [join(PROJECT_ROOT, "test/fixtures/sanctions/ofac/sdn_csv_vessel_rows_2024-05-03.csv")], { asOf: "2024-05-03" });
  const base = await service.app.listen({ port: 0, host: "127.0.0.1" });

  // Scale keys on accounts of their own, rotated, so the per-key rate limit stays in the path without throttling.
  const keys: string[] = [];
  for (let i = 0; i < 60; i++) {
    const a = await service.services.accounts.createAccount({ name: `bench ${i}`, webPlan: null, apiPlan: "scale" });
    keys.push((await service.services.accounts.createKey(a.id)).key);
  }
  const ofac = await service.services.sanctions.listActive("ofac", 0, 10);
  const ids = [...new Set(ofac.flatMap((r) => r.record.imos))].slice(0, 10).join(",");

  /** The exact request the SDK client sends for one tool call in an era (after its own handshake). */
  async function capture(era: "legacy" | "modern", name: string, args: Record<string, unknown>): Promise<Sent> {
    let sent: Sent | null = null;
    const recordingFetch = async (url: string | URL, init?: RequestInit) => {
      const body = typeof init?.body === "string" ? init.body : "";
      if (body.includes('"tools/call"')) sent = { url: String(url), headers: Object.fromEntries(new Headers(init?.headers).entries()), body };
      return fetch(url, init);
    };
    const client = new Client({ name: "bench", version: "1" }, era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { fetch: recordingFetch, requestInit: { headers: { Authorization: `Bearer ${keys[0]}` } } });
    await client.connect(transport);
    await client.callTool({ name, arguments: args });
    await client.close();
    if (!sent) throw new Error(`no tools/call captured for ${era}`);
    return sent;
  }

  let k = 0;
  const nextKey = () => keys[k++ % keys.length]!;
  const restCall = (path: string) => async () => {
    const r = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${nextKey()}` } });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${text.slice(0, 200)}`);
  };
  const mcpCall = (sent: Sent) => async () => {
    const r = await fetch(sent.url, { method: "POST", headers: { ...sent.headers, authorization: `Bearer ${nextKey()}` }, body: sent.body });
    const text = await r.text();
    if (r.status !== 200 || text.includes('"isError":true') || text.includes('"error":{')) throw new Error(`MCP call answered ${r.status}: ${text.slice(0, 300)}`);
  };
  // The same client for both faces: undici's request() over one keep-alive pool.
  const agent = new Agent();
  const restRequest = (url: string) => async () => {
    const r = await request(url, { dispatcher: agent, headers: { authorization: `Bearer ${nextKey()}` } });
    const text = await r.body.text();
    if (r.statusCode !== 200) throw new Error(`${url} answered ${r.statusCode}: ${text.slice(0, 200)}`);
  };
  const mcpRequest = (sent: Sent, url = sent.url) => async () => {
    const r = await request(url, { dispatcher: agent, method: "POST", headers: { ...sent.headers, authorization: `Bearer ${nextKey()}` }, body: sent.body });
    const text = await r.body.text();
    if (r.statusCode !== 200 || text.includes('"isError":true') || text.includes('"error":{')) throw new Error(`MCP call answered ${r.statusCode}: ${text.slice(0, 300)}`);
  };
  const sdkClient = new Client({ name: "bench-sdk", version: "1" });
  await sdkClient.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { fetch: (url, init) => fetch(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), authorization: `Bearer ${nextKey()}` } }) }));
  const sdkCall = (name: string, args: Record<string, unknown>) => async () => {
    const r = await sdkClient.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`SDK call failed: ${JSON.stringify(r).slice(0, 300)}`);
  };

  // Server time alone: the same requests through Fastify's inject(), no sockets and no client.
  const restInject = (path: string) => async () => {
    const r = await service.app.inject({ method: "GET", url: path, headers: { authorization: `Bearer ${nextKey()}` } });
    if (r.statusCode !== 200) throw new Error(`${path} answered ${r.statusCode}`);
  };
  const mcpInject = (sent: Sent) => async () => {
    const r = await service.app.inject({ method: "POST", url: new URL(sent.url).pathname, headers: { ...sent.headers, host: new URL(sent.url).host, authorization: `Bearer ${nextKey()}` }, payload: sent.body });
    if (r.statusCode !== 200 || r.body.includes('"isError":true')) throw new Error(`MCP call answered ${r.statusCode}: ${r.body.slice(0, 300)}`);
  };

  const portArgs = { unlocode: "NLRTM" };
  const screenArgs = { ids };
  const legacyPort = await capture("legacy", "get_port", portArgs);
  const modernPort = await capture("modern", "get_port", portArgs);
  // The transport floor: the same two exchanges answered with fixed bytes by a bare route.
  const restBytes = await (await fetch(`${base}/api/v1/ports/NLRTM`, { headers: { Authorization: `Bearer ${nextKey()}` } })).text();
  const mcpBytes = await (await fetch(legacyPort.url, { method: "POST", headers: { ...legacyPort.headers, authorization: `Bearer ${nextKey()}` }, body: legacyPort.body })).text();
  const floor = Fastify();
  floor.get("/api/v1/ports/NLRTM", async (_req, reply) => reply.header("content-type", "application/json; charset=utf-8").send(restBytes));
  void floor.register(async (scope) => {
    // As /mcp reads it: the body as text, parsed once.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => done(null, body));
    scope.post("/mcp", async (req, reply) => {
      JSON.parse(req.body as string);
      return reply.header("content-type", "application/json").send(Buffer.from(mcpBytes));
    });
  });
  const floorBase = await floor.listen({ port: 0, host: "127.0.0.1" });
  const floorRest = async () => {
    await (await fetch(`${floorBase}/api/v1/ports/NLRTM`, { headers: { Authorization: `Bearer ${nextKey()}` } })).text();
  };
  const floorMcp = async () => {
    await (await fetch(`${floorBase}/mcp`, { method: "POST", headers: { ...legacyPort.headers, authorization: `Bearer ${nextKey()}` }, body: legacyPort.body })).text();
  };

  const legacyScreen = await capture("legacy", "screen_vessels", screenArgs);
  const modernScreen = await capture("modern", "screen_vessels", screenArgs);

  /** [name, call, index of the REST line it is compared with] */
  const variants: [string, () => Promise<void>, number][] = [
    ["REST GET /api/v1/ports/NLRTM", restCall("/api/v1/ports/NLRTM"), 0],
    ["MCP get_port, 2025-11-25 (JSON answer)", mcpCall(legacyPort), 0],
    ["MCP get_port, 2026-07-28 (JSON answer)", mcpCall(modernPort), 0],
    ["REST GET /api/v1/screen (10 ids)", restCall(`/api/v1/screen?ids=${ids}`), 3],
    ["MCP screen_vessels 10 ids, 2025-11-25", mcpCall(legacyScreen), 3],
    ["MCP screen_vessels 10 ids, 2026-07-28", mcpCall(modernScreen), 3],
    ["MCP get_port through the SDK client, 2025-11-25", sdkCall("get_port", portArgs), 0],
    ["server time: REST GET /api/v1/ports/NLRTM (inject)", restInject("/api/v1/ports/NLRTM"), 7],
    ["server time: MCP get_port, 2025-11-25 (inject)", mcpInject(legacyPort), 7],
    ["server time: MCP get_port, 2026-07-28 (inject)", mcpInject(modernPort), 7],
    ["transport floor: GET, the REST body as fixed bytes", floorRest, 10],
    ["transport floor: POST, the MCP get_port answer as fixed bytes", floorMcp, 10],
    ["REST GET /api/v1/ports/NLRTM (undici request)", restRequest(`${base}/api/v1/ports/NLRTM`), 12],
    ["MCP get_port, 2025-11-25 (undici request)", mcpRequest(legacyPort), 12],
    ["MCP get_port, 2026-07-28 (undici request)", mcpRequest(modernPort), 12],
    ["REST GET /api/v1/screen (10 ids) (undici request)", restRequest(`${base}/api/v1/screen?ids=${ids}`), 15],
    ["MCP screen_vessels 10 ids, 2025-11-25 (undici request)", mcpRequest(legacyScreen), 15],
    ["MCP screen_vessels 10 ids, 2026-07-28 (undici request)", mcpRequest(modernScreen), 15],
    ["transport floor: GET, the REST body as fixed bytes (undici request)", restRequest(`${floorBase}/api/v1/ports/NLRTM`), 18],
    ["transport floor: POST, the MCP get_port answer as fixed bytes (undici request)", mcpRequest(legacyPort, `${floorBase}/mcp`), 18],
  ];
  const baselineOf = (i: number) => variants[i]![2];

  for (const [, call] of variants) for (let i = 0; i < 200; i++) await call(); // warm-up
  const times = variants.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (const [i, [, call]] of variants.entries()) {
      for (let n = 0; n < perRound; n++) {
        const started = performance.now();
        await call();
        times[i]!.push(performance.now() - started);
      }
    }
  }
  await sdkClient.close();
  await agent.close();
  await floor.close();

  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const rows = variants.map(([name], i) => {
    const xs = times[i]!;
    const b = times[baselineOf(i)]!;
    const ratio = i === baselineOf(i) ? "1.00 (baseline)" : `${(percentile(xs, 50) / percentile(b, 50)).toFixed(2)} / ${(mean(xs) / mean(b)).toFixed(2)}`;
    return `| ${name} | ${percentile(xs, 50).toFixed(2)} | ${percentile(xs, 90).toFixed(2)} | ${percentile(xs, 99).toFixed(2)} | ${mean(xs).toFixed(2)} | ${ratio} | ${xs.length} |`;
  });
  console.warn(`${rounds} rounds of ${perRound} sequential requests per variant over loopback HTTP, times in ms`);
  process.stdout.write(["| request | p50 ms | p90 ms | p99 ms | mean ms | vs REST (p50 / mean) | requests |", "|---|---|---|---|---|---|---|", ...rows].join("\n") + "\n");
} finally {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
}
