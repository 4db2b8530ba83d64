/**
 * What the assistants' connector directories require of a listed server (docs/mcp.md,
 * "Directory readiness"), checked on what a client really gets over HTTP, on every protocol
 * revision: every tool titled, named within 64 characters of the allowed alphabet, with all
 * three safety hints stated and true to what the tool does; OAuth with registration and
 * client metadata documents, so no directory needs a static token; the app's widget bounded.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { VESSEL_APP_URI } from "../../../src/adapters/mcp/apps/vessel-app.ts";
import { connect, type McpTestService, REVISIONS, startMcpService, TOOL_OPERATIONS } from "../../helpers/mcp.ts";

describe("MCP directory readiness", () => {
  let t: McpTestService;
  before(async () => {
    t = await startMcpService({ withData: false });
  });
  after(() => t.close());

  for (const revision of REVISIONS) {
    it(`${revision}: every tool has a title, a portable name and all three safety hints, read-only exactly when its operation only reads`, async () => {
      const k = await t.key("developer");
      const client = await connect(t, k.key, revision);
      try {
        const { tools } = await client.listTools();
        assert.equal(tools.length, TOOL_OPERATIONS.length);
        for (const tool of tools) {
          assert.match(tool.name, /^[a-z0-9_-]{1,64}$/, `${tool.name}: at most 64 characters of a-z, 0-9, _ and -`);
          assert.ok((tool.title ?? "").trim().length > 0, `${tool.name} has a title`);
          const a = tool.annotations ?? {};
          for (const hint of ["readOnlyHint", "destructiveHint", "openWorldHint"] as const) assert.equal(typeof a[hint], "boolean", `${tool.name} states ${hint}`);
          const op = TOOL_OPERATIONS.find((o) => o.tool === tool.name)!;
          assert.equal(a.readOnlyHint, op.method === "GET", `${tool.name} (${op.method}) is read-only exactly when it only reads`);
          if (a.readOnlyHint) assert.equal(a.destructiveHint, false, `${tool.name}: a read-only tool destroys nothing`);
        }
      } finally {
        await client.close();
      }
    });
  }

  it("OAuth lets a directory's host connect without a static token: registration and client metadata documents, from the resource's own metadata", async () => {
    const resource = await fetch(`${t.address}/.well-known/oauth-protected-resource/mcp`);
    assert.equal(resource.status, 200);
    const { authorization_servers: servers } = (await resource.json()) as { authorization_servers: string[] };
    assert.ok(servers.length > 0);
    const as = (await (await fetch(`${servers[0]}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    assert.equal(typeof as.registration_endpoint, "string", "dynamic client registration");
    assert.equal(as.client_id_metadata_document_supported, true, "client metadata documents");
    assert.ok((as.code_challenge_methods_supported as string[]).includes("S256"), "PKCE");
    // Without a token the server answers 401 pointing at that metadata: the path every host follows.
    const bare = await fetch(`${t.address}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    assert.equal(bare.status, 401);
    assert.match(bare.headers.get("www-authenticate") ?? "", /resource_metadata="[^"]+oauth-protected-resource/);
  });

  it("the vessel app asks for a border and no outside origin; its height is bounded by the app itself (the browser test measures it)", async () => {
    const k = await t.key("developer");
    const client = await connect(t, k.key, "2026-07-28");
    try {
      const { contents } = await client.readResource({ uri: VESSEL_APP_URI });
      const ui = (contents[0]!._meta as { ui?: { csp?: { connectDomains?: string[]; resourceDomains?: string[] }; prefersBorder?: boolean } } | undefined)?.ui;
      assert.deepEqual([ui?.csp?.connectDomains, ui?.csp?.resourceDomains, ui?.prefersBorder], [[], [], true]);
    } finally {
      await client.close();
    }
  });
});
