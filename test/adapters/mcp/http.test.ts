import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { hostPolicy as mcpHostPolicy } from "../../../src/compose/host-policy.ts";
import { buildToolSpecs, MCP_PAGE_SIZE } from "../../../src/adapters/mcp/tools.ts";
import { parseConfig } from "../../../src/config.ts";
import { OPERATIONS } from "../../../src/operations/registry.ts";
import { connect, type McpTestService, startMcpService, TOOL_OPERATIONS } from "../../helpers/mcp.ts";

const LIST_TOOLS = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
const ACCEPT = "application/json, text/event-stream";

/** A raw request, so Host and Origin can be anything (fetch will not forge Host). */
function raw(t: McpTestService, options: { method?: string; path?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const url = new URL(t.address);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: options.method ?? "POST", path: options.path ?? "/mcp", headers: options.headers ?? {} }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The JSON-RPC message of an answer that may come as JSON or as one SSE event. */
function message(text: string): Record<string, any> {
  const data = text.split("\n").find((l) => l.startsWith("data: "));
  return JSON.parse(data ? data.slice(6) : text);
}

describe("the /mcp endpoint over HTTP", () => {
  let t: McpTestService;
  let key: string;
  let metadataUrl: string;
  before(async () => {
    t = await startMcpService({ withData: false });
    ({ key } = await t.key("developer"));
    metadataUrl = `${t.address}/.well-known/oauth-protected-resource/mcp`;
  });
  after(() => t.close());

  const post = (headers: Record<string, string>, body = LIST_TOOLS) => raw(t, { headers: { "content-type": "application/json", accept: ACCEPT, ...headers }, body });

  it("without a credential: 401 with the challenge pointing at the protected resource metadata", async () => {
    const r = await post({});
    assert.equal(r.status, 401);
    assert.equal(r.headers["www-authenticate"], `Bearer resource_metadata="${metadataUrl}"`);
    assert.equal(JSON.parse(r.text).error.code, "missing_api_key");
  });

  it("with a bad or revoked key: 401, the same challenge plus invalid_token", async () => {
    const bad = await post({ authorization: "Bearer mds_sk_00000000000000000000000000000000" });
    assert.equal(bad.status, 401);
    assert.match(String(bad.headers["www-authenticate"]), new RegExp(`^Bearer resource_metadata="${metadataUrl}", error="invalid_token", error_description="`));
    assert.equal(JSON.parse(bad.text).error.code, "invalid_api_key");
    const k = await t.key("sandbox");
    await t.service.services.accounts.revokeKey(k.keyId);
    t.service.pipeline.auth.forget();
    const revoked = await post({ authorization: `Bearer ${k.key}` });
    assert.equal(revoked.status, 401);
    assert.equal(JSON.parse(revoked.text).error.code, "api_key_revoked");
  });

  it("serves the protected resource metadata (RFC 9728) at the path-aware and the root location", async () => {
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const r = await fetch(`${t.address}${path}`);
      assert.equal(r.status, 200);
      assert.deepEqual(await r.json(), {
        resource: `${t.address}/mcp`,
        authorization_servers: [t.address],
        scopes_supported: ["mcp"],
        bearer_methods_supported: ["header"],
        resource_name: "Maritime Data Service",
      });
    }
  });

  it("the free sandbox key connects; a 2025 client may list tools without initialize (stateless)", async () => {
    const k = await t.key("sandbox");
    const r = await post({ authorization: `Bearer ${k.key}`, "mcp-protocol-version": "2025-11-25" });
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers["content-type"]), /^application\/json/, "a plain JSON answer to a client that accepts it");
    assert.deepEqual(
      message(r.text).result.tools.map((x: { name: string }) => x.name),
      TOOL_OPERATIONS.map((op) => op.tool),
    );
  });

  it("refuses a foreign Host (DNS rebinding) with 403 before authentication", async () => {
    for (const host of ["evil.example", "evil.example:8080", "127.0.0.1.nip.io"]) {
      const r = await post({ host, authorization: `Bearer ${key}` });
      assert.equal(r.status, 403, host);
      assert.equal(message(r.text).error.code, -32000);
      assert.equal(r.headers["www-authenticate"], undefined);
    }
    assert.equal((await post({ host: `localhost:${new URL(t.address).port}`, authorization: `Bearer ${key}` })).status, 200);
  });

  it("refuses a foreign Origin with 403; an allowed browser origin passes with CORS headers", async () => {
    const evil = await post({ origin: "http://evil.example", authorization: `Bearer ${key}` });
    assert.equal(evil.status, 403);
    const local = await post({ origin: "http://localhost:6274", authorization: `Bearer ${key}` });
    assert.equal(local.status, 200);
    assert.equal(local.headers["access-control-allow-origin"], "http://localhost:6274");
    assert.match(String(local.headers["access-control-expose-headers"]), /WWW-Authenticate/);
    const preflight = await raw(t, { method: "OPTIONS", headers: { origin: "http://localhost:6274", "access-control-request-method": "POST" } });
    assert.equal(preflight.status, 204);
    assert.match(String(preflight.headers["access-control-allow-headers"]), /Authorization.*Mcp-Protocol-Version.*Mcp-Method/);
    assert.equal((await raw(t, { method: "OPTIONS", headers: { origin: "http://evil.example" } })).status, 403);
  });

  it("GET (no server-sent stream in stateless serving) is 405; a malformed body is a JSON-RPC parse error", async () => {
    assert.equal((await raw(t, { method: "GET", headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" } })).status, 405);
    const r = await post({ authorization: `Bearer ${key}` }, "{not json");
    assert.equal(r.status, 400);
    assert.equal(message(r.text).error.code, -32700);
  });
});

describe("shutting down with a 2026 subscription stream open", () => {
  it("the service closes promptly and the stream ends", async () => {
    const t = await startMcpService({ withData: false });
    const { key } = await t.key("developer");
    const client = await connect(t, key, "2026-07-28");
    const subscription = await client.listen({ toolsListChanged: true });
    const started = Date.now();
    await t.close();
    assert.ok(Date.now() - started < 5_000, `closed in ${Date.now() - started} ms`);
    assert.ok(["graceful", "remote"].includes(await subscription.closed));
    await client.close();
  });
});

describe("tool definitions generated from the registry", () => {
  const specs = buildToolSpecs(OPERATIONS);

  it("every operation with a tool name, and only those, becomes a tool", () => {
    assert.deepEqual(
      specs.map((s) => s.name),
      OPERATIONS.flatMap((op) => (op.tool ? [op.tool] : [])),
    );
    assert.ok(TOOL_OPERATIONS.length >= 5);
  });

  it("every parameter is described, typed for the model, and closed to unknown ones", () => {
    for (const spec of specs) {
      const schema = spec.inputSchema["~standard"].jsonSchema.input({ target: "draft-2020-12" }) as Record<string, any>;
      assert.equal(schema.additionalProperties, false);
      assert.deepEqual(Object.keys(schema.properties).sort(), Object.keys(spec.op.input.shape).sort(), spec.name);
      for (const [name, p] of Object.entries<Record<string, any>>(schema.properties)) {
        assert.ok(typeof p.description === "string" && p.description.length > 10, `${spec.name}.${name} has a description`);
        assert.ok(["string", "integer", "number"].includes(p.type), `${spec.name}.${name}: ${p.type}`);
      }
      for (const path of spec.pathParams) assert.ok(schema.required.includes(path));
    }
    const list = specs.find((s) => s.name === "list_sanctioned_vessels")!["inputSchema"]["~standard"].jsonSchema.input({ target: "draft-2020-12" }) as Record<string, any>;
    assert.deepEqual(list.properties.limit, { type: "integer", minimum: 1, maximum: 100, default: MCP_PAGE_SIZE, description: "Rows per page. Default 10." });
    assert.deepEqual(list.required, ["list"]);
    const feed = specs.find((s) => s.name === "get_my_feed")!["inputSchema"]["~standard"].jsonSchema.input({ target: "draft-2020-12" }) as Record<string, any>;
    assert.equal(feed.properties.maxAge.type, "integer");
    assert.equal(feed.properties.maxAge.default, 60, "the REST default where the operation does not page");
  });
});

describe("allowed hosts and origins", () => {
  it("local names, BASE_URL's host, a named listen address and the operator's additions", () => {
    assert.deepEqual(mcpHostPolicy({ listenHost: "0.0.0.0" }).hosts, ["localhost", "127.0.0.1", "[::1]"]);
    const p = mcpHostPolicy({ baseUrl: "https://Maritime.example.org/", listenHost: "10.0.0.5", extraHosts: ["mcp.internal"], extraOrigins: ["chrome-extension://*"] });
    assert.deepEqual(p.hosts, ["localhost", "127.0.0.1", "[::1]", "maritime.example.org", "10.0.0.5", "mcp.internal"]);
    assert.deepEqual(p.origins, ["localhost", "127.0.0.1", "[::1]", "maritime.example.org", "10.0.0.5", "chrome-extension://*"]);
    assert.ok(mcpHostPolicy({ listenHost: "::1" }).hosts.includes("[::1]"));
    const c = parseConfig({ MCP_ALLOWED_HOSTS: "a.example, b.example", MCP_ALLOWED_ORIGINS: "" }, "/p");
    assert.deepEqual([c.mcpAllowedHosts, c.mcpAllowedOrigins], [["a.example", "b.example"], []]);
  });
});
