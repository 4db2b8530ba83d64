/**
 * The vessel app as an MCP client sees it (MCP Apps, `io.modelcontextprotocol/ui`): the SDK's
 * client, in every revision, finds the extension declared, `get_vessel` and `get_vessel_events`
 * naming the app's `ui://` resource, and reads the resource: an HTML document of the app's MIME
 * type whose CSP metadata declares no domain and which references nothing outside itself. The
 * tools still answer with text for hosts that draw no app. The browser side is in
 * test/adapters/web/browser/vessel-app.test.ts.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as official from "@modelcontextprotocol/ext-apps/server";
import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "../../../src/adapters/mcp/apps/ui-extension.ts";
import { VESSEL_APP_URI } from "../../../src/adapters/mcp/apps/vessel-app.ts";
import { importFile, OFAC_2024_05_03 } from "../../helpers/sanctions.ts";
import { callTool, connect, type McpTestService, REVISIONS, startMcpService } from "../../helpers/mcp.ts";

describe("MCP: the vessel app", () => {
  let t: McpTestService;
  let key: string;
  before(async () => {
    t = await startMcpService({ withData: false });
    await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
    ({ key } = await t.key("pro"));
  });
  after(() => t.close());

  it("uses the names the official ext-apps package exports", () => {
    assert.equal(EXTENSION_ID, official.EXTENSION_ID);
    assert.equal(RESOURCE_MIME_TYPE, official.RESOURCE_MIME_TYPE);
    assert.equal(RESOURCE_URI_META_KEY, official.RESOURCE_URI_META_KEY);
  });

  for (const revision of REVISIONS) {
    it(`${revision}: the extension is declared, the two vessel tools name the app and no other tool does`, async () => {
      const client = await connect(t, key, revision);
      try {
        const caps = client.getServerCapabilities() as { extensions?: Record<string, { mimeTypes?: string[] }> } | undefined;
        assert.deepEqual(caps?.extensions?.[EXTENSION_ID], { mimeTypes: [RESOURCE_MIME_TYPE] });
        const { tools } = await client.listTools();
        const named = tools.filter((tool) => (tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri !== undefined).map((tool) => tool.name);
        assert.deepEqual(named.sort(), ["get_vessel", "get_vessel_events"]);
        for (const name of named) {
          const tool = tools.find((x) => x.name === name)!;
          assert.deepEqual(tool._meta?.ui, { resourceUri: VESSEL_APP_URI });
          // Hosts built before the nested form read the flat key.
          assert.equal(tool._meta?.[RESOURCE_URI_META_KEY], VESSEL_APP_URI);
        }
      } finally {
        await client.close();
      }
    });

    it(`${revision}: the resource is listed and reads as the app's HTML, with CSP metadata declaring no domain`, async () => {
      const client = await connect(t, key, revision);
      try {
        const { resources } = await client.listResources();
        const listed = resources.find((r) => r.uri === VESSEL_APP_URI);
        assert.ok(listed, "the app is listed");
        assert.equal(listed.mimeType, RESOURCE_MIME_TYPE);
        // The listing carries the same UI metadata, for hosts that review apps before any call.
        assert.deepEqual(listed._meta?.ui, { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true });
        const read = await client.readResource({ uri: VESSEL_APP_URI });
        assert.equal(read.contents.length, 1);
        const content = read.contents[0] as { uri: string; mimeType?: string; text?: string; _meta?: Record<string, any> };
        assert.equal(content.uri, VESSEL_APP_URI);
        assert.equal(content.mimeType, RESOURCE_MIME_TYPE);
        assert.deepEqual(content._meta?.ui, { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true });
        const html = content.text ?? "";
        assert.match(html, /^<!doctype html>/i);
        // Self-contained: no script, stylesheet, image or import is fetched from anywhere, this service included.
        assert.doesNotMatch(html, /<script[^>]*\bsrc=/i);
        assert.doesNotMatch(html, /<link\b/i);
        assert.doesNotMatch(html, /<img\b/i);
        assert.doesNotMatch(html, /@import|url\(\s*["']?(https?:|\/\/|images\/)/i);
      } finally {
        await client.close();
      }
    });
  }

  it("get_vessel still answers in text for hosts that draw no app", async () => {
    const client = await connect(t, key, "2026-07-28");
    try {
      const r = await callTool(client, "get_vessel", { id: "7406784" });
      assert.equal(r.isError, undefined);
      assert.equal(r.content[0]!.type, "text");
      assert.deepEqual(JSON.parse(r.content[0]!.text!), r.structuredContent);
      assert.equal(r.structuredContent!.data.sanctions[0].list, "ofac_sdn");
    } finally {
      await client.close();
    }
  });
});
