/**
 * Server time of one MCP tool call against its REST twin, through Fastify's inject() (no
 * sockets, no client), in long loops that a CPU profile can be taken of:
 *
 *   npx node --cpu-prof --cpu-prof-dir=<dir> bench/mcp-server-profile.ts [calls] [mcp|rest|both]
 *
 * The MCP request is the one the SDK's client sends in the 2025 era (content type, accept,
 * protocol version header; no envelope), so the profile shows what the MCP face does per call
 * that REST does not. Prints p50 and mean per face.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importMissingDatasets } from "../src/adapters/importers/datasets.ts";
import { parseConfig } from "../src/config.ts";
import { createService, PROJECT_ROOT } from "../src/main.ts";
import { percentile } from "./percentile.ts";

const calls = Number(process.argv[2] ?? 20_000);
const which = process.argv[3] ?? "both";

const dataDir = mkdtempSync(join(tmpdir(), "mds-bench-mcp-profile-"));
const service = await createService(parseConfig({ LOG_LEVEL: "silent", DATA_DIR: dataDir, INGEST_TCP_PORT: "off", INGEST_UDP_PORT: "off" }, PROJECT_ROOT));
try {
  await importMissingDatasets(service, { progress: false });
  const keys: string[] = [];
  for (let i = 0; i < 60; i++) {
    const a = await service.services.accounts.createAccount({ name: `profile ${i}`, webPlan: null, apiPlan: "scale" });
    keys.push((await service.services.accounts.createKey(a.id)).key);
  }
  let k = 0;
  const nextKey = () => keys[k++ % keys.length]!;
  const mcpBody = JSON.stringify({ method: "tools/call", params: { name: "get_port", arguments: { unlocode: "NLRTM" } }, jsonrpc: "2.0", id: 1 });
  const rest = async () => {
    const r = await service.app.inject({ method: "GET", url: "/api/v1/ports/NLRTM", headers: { host: "127.0.0.1", authorization: `Bearer ${nextKey()}` } });
    if (r.statusCode !== 200) throw new Error(`REST answered ${r.statusCode}`);
  };
  const mcp = async () => {
    const r = await service.app.inject({
      method: "POST",
      url: "/mcp",
      headers: { host: "127.0.0.1", authorization: `Bearer ${nextKey()}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      payload: mcpBody,
    });
    if (r.statusCode !== 200 || r.body.includes('"isError":true')) throw new Error(`MCP answered ${r.statusCode}: ${r.body.slice(0, 300)}`);
  };
  const faces: [string, () => Promise<void>][] = [];
  if (which !== "mcp") faces.push(["REST GET /api/v1/ports/NLRTM", rest]);
  if (which !== "rest") faces.push(["MCP get_port, 2025-11-25", mcp]);
  for (const [name, call] of faces) {
    for (let i = 0; i < 500; i++) await call();
    const times: number[] = [];
    for (let i = 0; i < calls; i++) {
      const started = performance.now();
      await call();
      times.push(performance.now() - started);
    }
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    process.stdout.write(`${name}: p50 ${percentile(times, 50).toFixed(3)} ms, mean ${mean.toFixed(3)} ms, ${calls} calls\n`);
  }
} finally {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
}
