import { buildMcpServer } from "./src/adapters/mcp/server.ts";
import { buildToolSpecs } from "./src/adapters/mcp/tools.ts";
import { OPERATIONS } from "./src/operations/registry.ts";
const deps = { pipeline: null as never, tools: buildToolSpecs(OPERATIONS), rightsText: "x" };
const ctx = { authorization: "x", clientAddress: "1", baseUrl: "http://x", requestId: "r", commercialScope: "none" as const };
for (let i = 0; i < 2000; i++) buildMcpServer(deps, ctx);
const t0 = performance.now(); for (let i = 0; i < 20000; i++) buildMcpServer(deps, ctx); console.log(((performance.now() - t0) / 20000 * 1000).toFixed(1), "us");
