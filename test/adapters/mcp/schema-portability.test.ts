import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { portableSchema } from "../../../src/adapters/mcp/portable-schema.ts";
import { PROJECT_ROOT } from "../../../src/main.ts";
import { connect, type McpTestService, REVISIONS, startMcpService } from "../../helpers/mcp.ts";
import { portabilityFindings } from "../../helpers/schema-portability.ts";

/**
 * Tool schemas a single-`type` client dialect can read: the Inspector's `--strict` rules hold
 * for every tool's input and output schema as each protocol revision lists them, and the
 * Inspector CLI itself passes them in both eras.
 */
describe("portable tool schemas", () => {
  let t: McpTestService;
  let key: string;
  before(async () => {
    t = await startMcpService({ withData: false });
    ({ key } = await t.key("developer"));
  });
  after(() => t.close());

  for (const revision of REVISIONS) {
    it(`${revision}: no tool schema breaks a portability rule (nullable fields as anyOf, no bare booleans, no untyped schemas)`, async () => {
      const client = await connect(t, key, revision);
      const { tools } = await client.listTools();
      await client.close();
      assert.ok(tools.length >= 5);
      const findings = tools.flatMap((tool) => [...portabilityFindings(tool.inputSchema, `${tool.name}.inputSchema`), ...portabilityFindings(tool.outputSchema, `${tool.name}.outputSchema`)]);
      assert.deepEqual(findings, []);
    });
  }

  it("the MCP Inspector CLI's --strict check passes every tool, in the 2025 and the 2026 era, with no finding", async () => {
    const inspector = join(PROJECT_ROOT, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
    const work = mkdtempSync(join(tmpdir(), "mds-inspector-"));
    try {
      for (const era of ["legacy", "modern"]) {
        const config = join(work, `${era}.json`);
        writeFileSync(config, JSON.stringify({ mcpServers: { s: { type: "streamable-http", url: `${t.address}/mcp`, headers: { Authorization: `Bearer ${key}` }, protocolEra: era } } }));
        const env = { ...process.env, MCP_INSPECTOR_SECRET_STORE: "memory", HOME: work, MCP_CLIENT_CONFIG_PATH: join(work, "client.json") };
        const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
          execFile(process.execPath, [inspector, "--cli", "--config", config, "--server", "s", "--method", "tools/list", "--strict", "--format", "json"], { env, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
            resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
          ),
        );
        assert.equal(r.code, 0, `${era}: exit ${r.code}\n${r.stderr.slice(0, 2000)}`);
        const out = JSON.parse(r.stdout) as { result: { tools: unknown[] }; schemaFindings?: unknown[] };
        assert.ok(out.result.tools.length >= 5);
        // Warnings too: the Inspector exits 0 on them, but they are what a single-type dialect drops.
        assert.equal(out.schemaFindings, undefined, `${era}: ${String(JSON.stringify(out.schemaFindings)).slice(0, 2000)}`);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe("portableSchema", () => {
  const ajv = new Ajv2020({ strict: false });
  /** The rewrite accepts and refuses exactly what the original does, on the given values. */
  const sameVerdicts = (before: Record<string, unknown>, after: Record<string, unknown>, values: unknown[]) => {
    const [a, b] = [ajv.compile(before), ajv.compile(after)];
    for (const v of values) assert.equal(b(v), a(v), `${JSON.stringify(v)} against ${JSON.stringify(after)}`);
  };

  it("spells a nullable type as anyOf branches, each type's keywords in its branch, annotations on the whole", () => {
    const before = { type: ["integer", "null"], minimum: 1, maximum: 5, description: "d", default: 2 };
    const after = portableSchema(before);
    assert.deepEqual(after, { description: "d", default: 2, anyOf: [{ type: "integer", minimum: 1, maximum: 5 }, { type: "null" }] });
    assert.deepEqual(before.type, ["integer", "null"], "the input is left as it was");
    sameVerdicts(before, after, [null, 1, 5, 0, 6, 2.5, "3", true]);
  });

  it("splits an enumeration by the type of its values", () => {
    const before = { type: ["string", "null"], enum: ["a", "b", null] };
    const after = portableSchema(before);
    assert.deepEqual(after, { anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "null" }] });
    sameVerdicts(before, after, ["a", "b", "c", null, 1]);
  });

  it("a closed tuple of one schema becomes items with its length; const a one-value enum; maps of anything lose the empty schemas", () => {
    const tuple = { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false, minItems: 2, maxItems: 2 };
    assert.deepEqual(portableSchema(tuple), { type: "array", minItems: 2, maxItems: 2, items: { type: "number" } });
    sameVerdicts(tuple, portableSchema(tuple), [[1, 2], [1], [1, 2, 3], [1, "a"], "x"]);
    const mixed = { type: "array", prefixItems: [{ type: "number" }, { type: "string" }], items: false, minItems: 2, maxItems: 2 };
    assert.deepEqual(portableSchema(mixed), { type: "array", prefixItems: [{ type: "number" }, { type: "string" }], minItems: 2, maxItems: 2 });
    sameVerdicts(mixed, portableSchema(mixed), [[1, "a"], [1, 2], [1, "a", 3]]);
    const c = { type: "string", const: "LineString" };
    assert.deepEqual(portableSchema(c), { type: "string", enum: ["LineString"] });
    sameVerdicts(c, portableSchema(c), ["LineString", "Point"]);
    const map = { type: "object", propertyNames: { type: "string" }, additionalProperties: {} };
    assert.deepEqual(portableSchema(map), { type: "object" });
    sameVerdicts(map, portableSchema(map), [{}, { a: 1, b: null }, [], "x"]);
  });

  it("rewrites nested schemas: properties, items and anyOf branches", () => {
    const before = { type: "object", properties: { a: { type: "array", items: { type: ["number", "null"] } }, b: { anyOf: [{ type: "object", additionalProperties: {} }, { type: "null" }] } } };
    const after = portableSchema(before);
    assert.deepEqual(portabilityFindings(after, "x"), []);
    assert.ok(portabilityFindings(before, "x").length > 0);
    sameVerdicts(before, after, [{ a: [1, null] }, { a: ["x"] }, { b: { k: 1 } }, { b: null }, { b: 3 }]);
  });
});
