import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { PROMPTS } from "../../../src/adapters/mcp/prompts.ts";
import { RIGHTS_URI } from "../../../src/adapters/mcp/rights-doc.ts";
import { VESSEL_APP_URI } from "../../../src/adapters/mcp/apps/vessel-app.ts";
import { CASES, type Fixtures, prepareFixtures, sourcesWithoutUk } from "../../helpers/mcp-cases.ts";
import { callTool, connect, keyUsage, type McpTestService, REVISIONS, startMcpService, TOOL_OPERATIONS } from "../../helpers/mcp.ts";

/** The SDK's own client over real HTTP, once per protocol revision: the whole surface. */
describe("MCP clients of every protocol revision", () => {
  let t: McpTestService;
  let fx: Fixtures;
  let sourcesFile: string;
  before(async () => {
    sourcesFile = sourcesWithoutUk();
    t = await startMcpService({ env: { SOURCES_FILE: sourcesFile } });
    fx = await prepareFixtures(t);
  });
  after(async () => {
    await t.close();
    rmSync(dirname(sourcesFile), { recursive: true, force: true });
  });

  for (const revision of REVISIONS) {
    describe(revision, () => {
      it("negotiates the revision, lists every tool of the registry, and listing is free", async () => {
        const k = await t.key("developer");
        const client = await connect(t, k.key, revision);
        assert.equal(client.getNegotiatedProtocolVersion(), revision);
        assert.equal(client.getProtocolEra(), revision === "2026-07-28" ? "modern" : "legacy");
        const { tools } = await client.listTools();
        assert.deepEqual(
          tools.map((x) => x.name),
          TOOL_OPERATIONS.map((op) => op.tool),
        );
        for (const tool of tools) {
          assert.equal(tool.inputSchema.type, "object");
          assert.equal(tool.outputSchema?.type, "object", tool.name);
          assert.deepEqual(tool.annotations, { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
          assert.ok((tool.description ?? "").includes("credit") || (tool.description ?? "").includes("free"), `${tool.name} states its cost`);
        }
        await client.listResources();
        await client.listPrompts();
        await client.close();
        const u = await keyUsage(t, k);
        assert.deepEqual([u.used, u.keyCalls], [0, 0]);
      });

      it("calls every tool: structured content that matches the output schema and equals the text", async () => {
        // A pro account with a station: the private feed is part of "every tool".
        const k = await t.key("pro");
        const first = (tool: string) => CASES.find((c) => c.tool === tool && c.expect === "ok" && (c.plan === "pro" || !c.prepare))!;
        const feed = first("get_my_feed");
        await feed.prepare?.(t, k);
        // A screening of the account's own, whose receipt get_screening reads.
        await first("get_screening").prepare?.(t, k);
        // A watchlist of the account's own, which screen_watchlist screens.
        await first("screen_watchlist").prepare?.(t, k);
        const client = await connect(t, k.key, revision);
        const { tools } = await client.listTools();
        const ajv = new Ajv2020({ strict: false });
        for (const tool of tools) {
          // More tools than one key's 10 calls a second, on the test's stopped clock: let a fifth of a second pass per call.
          t.clock.t += 200;
          const r = (await client.callTool({ name: tool.name, arguments: first(tool.name).args(fx) })) as any;
          assert.ok(!r.isError, `${tool.name}: ${r.content?.[0]?.text}`);
          const validate = ajv.compile(tool.outputSchema!);
          assert.ok(validate(r.structuredContent), `${tool.name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
          assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent);
          assert.equal(r.structuredContent.commercialScope, "internal");
          assert.ok(Array.isArray(r.structuredContent.attribution) && Array.isArray(r.structuredContent.withheld));
        }
        await client.close();
      });

      it("a sandbox key calling get_my_feed gets an isError result naming the plans with private feeds", async () => {
        const k = await t.key("sandbox");
        const client = await connect(t, k.key, revision);
        const r = await callTool(client, "get_my_feed", {});
        await client.close();
        assert.equal(r.isError, true);
        assert.match(r.content[0]!.text!, /^Error plan_lacks_feature \(HTTP 403\): .*Pro, Team/);
        assert.equal(r._meta?.["mds/error"]?.code, "plan_lacks_feature");
      });

      it("an unknown tool is a protocol error, not a tool result", async () => {
        const k = await t.key("developer");
        const client = await connect(t, k.key, revision);
        await assert.rejects(client.callTool({ name: "get_weather", arguments: {} }), /get_weather/);
        await client.close();
      });

      it("lists the rights resource and the vessel app; reads the rights, written from the sources file, for free", async () => {
        const k = await t.key("developer");
        const client = await connect(t, k.key, revision);
        const { resources } = await client.listResources();
        assert.deepEqual(
          resources.map((r) => r.uri),
          [RIGHTS_URI, VESSEL_APP_URI],
        );
        const { contents } = await client.readResource({ uri: RIGHTS_URI });
        await client.close();
        const text = (contents[0] as { text: string }).text;
        for (const s of t.service.services.sources.all()) assert.ok(text.includes(`\`${s.id}\``), s.id);
        assert.match(text, /`withheld`/);
        assert.match(text, /attribution/);
        // The operator's file, not the shipped one: the UK list is not cleared here.
        assert.match(text, /withheld from every answer: .*`uk`/);
        assert.equal((await keyUsage(t, k)).used, 0);
      });

      it("gets both briefs, naming the tools to call; a bad argument is a protocol error", async () => {
        const k = await t.key("developer");
        const client = await connect(t, k.key, revision);
        const { prompts } = await client.listPrompts();
        assert.deepEqual(
          prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])]),
          [
            ["vessel_due_diligence_brief", [["vessel", true]]],
            ["port_activity_brief", [["unlocode", true]]],
          ],
        );
        const vessel = await client.getPrompt({ name: "vessel_due_diligence_brief", arguments: { vessel: "9074729" } });
        const vesselText = (vessel.messages[0]!.content as { text: string }).text;
        assert.match(vesselText, /`9074729`/);
        assert.match(vesselText, /`screen_vessels`/);
        assert.match(vesselText, /no match is not a clearance/);
        assert.match(vesselText, /`get_vessel`/, "named, as offered or as a check not made");
        const port = await client.getPrompt({ name: "port_activity_brief", arguments: { unlocode: "nlrtm" } });
        const portText = (port.messages[0]!.content as { text: string }).text;
        assert.match(portText, /`get_port` with `unlocode` = `NLRTM`/);
        assert.match(portText, /withheld/);
        await assert.rejects(client.getPrompt({ name: "port_activity_brief", arguments: { unlocode: "Rotterdam" } }));
        await client.close();
      });

      it("every tool call a brief names, with the arguments it names, is one the tool accepts", async () => {
        const k = await t.key("pro");
        const client = await connect(t, k.key, revision);
        const examples: Record<string, Record<string, string>> = { vessel_due_diligence_brief: { vessel: "9074729" }, port_activity_brief: { unlocode: "NLRTM" } };
        for (const prompt of PROMPTS) {
          const args = examples[prompt.name];
          assert.ok(args, `an example argument for ${prompt.name}`);
          const text = ((await client.getPrompt({ name: prompt.name, arguments: args })).messages[0]!.content as { text: string }).text;
          for (const step of prompt.steps(args).filter((s) => s.args)) {
            // The brief says the arguments as the step declares them, and the tool takes them.
            for (const [name, value] of Object.entries(step.args!)) assert.ok(text.includes(`\`${name}\` = ${typeof value === "number" ? value : `\`${value}\``}`), `${prompt.name}: ${step.tool} ${name}`);
            const r = await callTool(client, step.tool, step.args!);
            const code = (r._meta?.["mds/error"] as { code?: string } | undefined)?.code;
            assert.notEqual(code, "invalid_parameter", `${prompt.name}: ${step.tool} ${JSON.stringify(step.args)}: ${JSON.stringify(r.content)}`);
          }
        }
        await client.close();
      });
    });
  }
});
