/**
 * Plain `tools/call` requests are answered without the SDK's per-request server
 * (src/adapters/mcp/direct-tool-call.ts). The SDK stays the reference: every request here
 * goes to the service and to a second MCP endpoint on the same pipeline that sends
 * everything through the SDK, and the two answers must be the same, request for request.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Fastify, { type FastifyInstance } from "fastify";
import { SERVER_INFO_META_KEY } from "@modelcontextprotocol/server";
import { directToolCall, directToolCallResponse } from "../../../src/adapters/mcp/direct-tool-call.ts";
import { rememberJson } from "../../../src/adapters/mcp/known-json.ts";
import { registerMcp } from "../../../src/adapters/mcp/http.ts";
import { MAX_TOOL_INPUT_ELEMENTS } from "../../../src/adapters/mcp/server.ts";
import { buildToolSpecs } from "../../../src/adapters/mcp/tools.ts";
import { OPERATIONS } from "../../../src/operations/registry.ts";
import { startTestService, type TestService } from "../../helpers/service.ts";

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "mds-test", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const JSON_AND_SSE = "application/json, text/event-stream";

interface Sent {
  name: string;
  headers: Record<string, string>;
  body: unknown;
  /** Whether the direct path is meant to answer it (else the SDK does, on both sides). */
  direct: boolean;
}

const legacy = (name: string, body: unknown, direct = true, headers: Record<string, string> = {}): Sent => ({
  name: `2025: ${name}`,
  headers: { "content-type": "application/json", accept: JSON_AND_SSE, "mcp-protocol-version": "2025-11-25", ...headers },
  body,
  direct,
});
const modern = (name: string, toolName: unknown, params: Record<string, unknown>, direct = true, headers: Record<string, string> = {}): Sent => ({
  name: `2026-07-28: ${name}`,
  headers: { "content-type": "application/json", accept: JSON_AND_SSE, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": String(toolName), ...headers },
  body: { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: toolName, _meta: MODERN_META, ...params } },
  direct,
});
const call = (name: unknown, args?: unknown, id: unknown = 1) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, ...(args === undefined ? {} : { arguments: args }) } });

const REQUESTS: Sent[] = [
  legacy("a port", call("get_port", { unlocode: "NLRTM" })),
  legacy("a port, 2025-06-18", call("get_port", { unlocode: "nlrtm" }), true, { "mcp-protocol-version": "2025-06-18" }),
  legacy("no version header", call("get_port", { unlocode: "NLRTM" }), true, { "mcp-protocol-version": "" }),
  legacy("an unknown port (isError)", call("get_port", { unlocode: "XXXXX" })),
  legacy("a bad argument (isError)", call("get_port", { unlocode: "?" })),
  legacy("no arguments (isError: required)", call("get_port")),
  legacy("a string id", call("get_usage", {}, "abc")),
  legacy("a paged list", call("list_sanctioned_vessels", { list: "ofac", limit: 2 })),
  legacy("a plan gate (isError)", call("get_my_feed", {})),
  legacy("screening", call("screen_vessels", { ids: "9074729,mmsi-273456789" })),
  legacy("an unknown tool", call("no_such_tool", {}), false),
  legacy("arguments as an array", call("get_port", ["NLRTM"]), false),
  legacy("too many argument elements", call("screen_vessels", { ids: Array.from({ length: MAX_TOOL_INPUT_ELEMENTS + 1 }, () => "9074729") }), false),
  legacy("a null id", call("get_port", { unlocode: "NLRTM" }, null), false),
  legacy("a progress token", { ...call("get_port", { unlocode: "NLRTM" }), params: { name: "get_port", arguments: { unlocode: "NLRTM" }, _meta: { progressToken: 1 } } }, false),
  legacy("an unsupported version", call("get_port", { unlocode: "NLRTM" }), false, { "mcp-protocol-version": "1999-01-01" }),
  legacy("JSON only in Accept", call("get_port", { unlocode: "NLRTM" }), false, { accept: "application/json" }),
  legacy("an extra member", { ...call("get_port", { unlocode: "NLRTM" }), extra: 1 }, false),
  modern("a port", "get_port", { arguments: { unlocode: "NLRTM" } }),
  modern("an unknown port (isError)", "get_port", { arguments: { unlocode: "XXXXX" } }),
  modern("a plan gate (isError)", "get_my_feed", { arguments: {} }),
  modern("no arguments", "get_usage", {}),
  modern("Mcp-Name disagrees", "get_port", { arguments: { unlocode: "NLRTM" } }, false, { "mcp-name": "get_usage" }),
  modern("Mcp-Name missing", "get_port", { arguments: { unlocode: "NLRTM" } }, false, { "mcp-name": "" }),
  modern("Mcp-Method missing", "get_port", { arguments: { unlocode: "NLRTM" } }, false, { "mcp-method": "" }),
  modern("header and envelope disagree", "get_port", { arguments: { unlocode: "NLRTM" } }, false, { "mcp-protocol-version": "2025-11-25" }),
  modern("an envelope without client info", "get_port", { arguments: { unlocode: "NLRTM" }, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }, false),
  modern("an unknown tool", "no_such_tool", { arguments: {} }, false),
  modern("a malformed client info", "get_port", { arguments: { unlocode: "NLRTM" }, _meta: { ...MODERN_META, "io.modelcontextprotocol/clientInfo": 5 } }, false),
  modern("a progress token in the envelope", "get_port", { arguments: { unlocode: "NLRTM" }, _meta: { ...MODERN_META, progressToken: "p1" } }, false),
  legacy("the 2026 version header without an envelope", call("get_port", { unlocode: "NLRTM" }), false, { "mcp-protocol-version": "2026-07-28" }),
  legacy("2026 headers on a 2025 call", call("get_port", { unlocode: "NLRTM" }), false, { "mcp-method": "tools/call", "mcp-name": "get_port" }),
];

/** The tools as the endpoint builds them, for asking directToolCall which path a request takes. */
const tools = new Map(buildToolSpecs(OPERATIONS).map((s) => [s.name, s]));

/** Request ids and the two sides' key ids differ (also inside the text content); everything else must not. */
const normalized = (text: string) =>
  text
    .replace(/(requestId\\?":\\?")[^"\\]*/g, "$1X")
    .replace(/Request id [^;]*;/g, "Request id X;")
    .replace(/key_[A-Za-z0-9]+/g, "key_X");

describe("plain tool calls answered directly, the same as the SDK answers them", () => {
  let t: TestService;
  let reference: FastifyInstance;
  let keys: { direct: string; sdk: string; directSandbox: string; sdkSandbox: string };

  before(async () => {
    t = await startTestService({ withData: true });
    reference = Fastify();
    registerMcp(reference, { pipeline: t.service.pipeline, operations: OPERATIONS, sources: t.service.services.sources, allowedHosts: ["*"], allowedOrigins: [], directToolCalls: false, tasks: t.service.mcpTasks });
    await reference.ready();
    // One account per side, so credits remaining run the same on both.
    keys = { direct: (await t.key("scale")).key, sdk: (await t.key("scale")).key, directSandbox: (await t.key("sandbox")).key, sdkSandbox: (await t.key("sandbox")).key };
  });
  after(async () => {
    await reference.close();
    await t.close();
  });

  const send = (app: FastifyInstance, r: Sent, key: string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    for (const [k, v] of Object.entries(r.headers)) if (v !== "") headers[k] = v;
    return app.inject({ method: "POST", url: "/mcp", headers, payload: JSON.stringify(r.body) });
  };

  for (const r of REQUESTS) {
    it(`${r.name}: ${r.direct ? "answered directly" : "left to the SDK"}, same answer`, async () => {
      const headers = Object.fromEntries(Object.entries(r.headers).filter(([, v]) => v !== ""));
      assert.equal(directToolCall("POST", headers, r.body, tools, MAX_TOOL_INPUT_ELEMENTS) !== null, r.direct);

      const sandbox = r.name.includes("plan gate");
      const mine = await send(t.service.app, r, sandbox ? keys.directSandbox : keys.direct);
      const theirs = await send(reference, r, sandbox ? keys.sdkSandbox : keys.sdk);
      assert.equal(mine.statusCode, theirs.statusCode, mine.body);
      assert.equal(mine.headers["content-type"], theirs.headers["content-type"]);
      assert.deepEqual(JSON.parse(normalized(mine.body)), JSON.parse(normalized(theirs.body)));
    });
  }

  it("garbage bodies are left to the SDK", () => {
    const headers = { "content-type": "application/json", accept: JSON_AND_SSE };
    for (const body of [undefined, null, 1, "x", [], [call("get_port", {})], {}, { jsonrpc: "1.0", id: 1, method: "tools/call", params: { name: "get_port" } }, { jsonrpc: "2.0", id: 1.5, method: "tools/call", params: { name: "get_port" } }, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { jsonrpc: "2.0", id: 1, method: "tools/call", params: "get_port" }, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 5 } }]) {
      assert.equal(directToolCall("POST", headers, body, tools, MAX_TOOL_INPUT_ELEMENTS), null, JSON.stringify(body));
    }
    assert.equal(directToolCall("GET", headers, call("get_port", {}), tools, MAX_TOOL_INPUT_ELEMENTS), null);
    assert.equal(directToolCall("POST", { ...headers, "content-type": "text/plain" }, call("get_port", {}), tools, MAX_TOOL_INPUT_ELEMENTS), null);
  });
});

describe("the direct answer's text", () => {
  it("is JSON.stringify's of the JSON-RPC response byte for byte, in both eras, with number and string ids", () => {
    const spec = tools.get("get_port")!;
    const structured = { type: "port", data: { name: "Rotterdam", note: 'quote " and \\ and \u2028' }, commercialScope: "none" };
    const text = JSON.stringify(structured);
    rememberJson(structured, text);
    const result = { content: [{ type: "text" as const, text }], structuredContent: structured, _meta: { "mds/request": { requestId: "r", creditsCharged: 1, creditsRemaining: 9 } } };
    const serverInfo = { name: "mds", version: "1" };
    for (const era of ["legacy", "modern"] as const) {
      for (const id of [7, "call-7", 0]) {
        const out = era === "modern" ? { ...result, _meta: { ...result._meta, [SERVER_INFO_META_KEY]: serverInfo }, resultType: "complete" } : result;
        assert.equal(directToolCallResponse({ id, spec, args: {}, era }, result, serverInfo), JSON.stringify({ result: out, jsonrpc: "2.0", id }), `${era} ${id}`);
      }
    }
    // An error result: no structured content, `isError` kept.
    const failed = { content: [{ type: "text" as const, text: "Error x" }], isError: true, _meta: { "mds/error": { code: "x" } } };
    assert.equal(directToolCallResponse({ id: 1, spec, args: {}, era: "legacy" }, failed, serverInfo), JSON.stringify({ result: failed, jsonrpc: "2.0", id: 1 }));
  });
});
