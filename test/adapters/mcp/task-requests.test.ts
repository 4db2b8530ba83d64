import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CLIENT_CAPABILITIES_META_KEY_V2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import { PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";
import { answerTaskRequest, type TaskRequestDeps } from "../../../src/adapters/mcp/tasks/task-requests.ts";
import { TASKS_EXTENSION_ID, TASKS_REVISION } from "../../../src/adapters/mcp/tasks/task-wire.ts";
import type { TaskCaller } from "../../../src/adapters/mcp/tasks/task-runner.ts";
import { buildToolSpecs } from "../../../src/adapters/mcp/tools.ts";
import { OPERATIONS } from "../../../src/operations/registry.ts";

// Nothing here may reach the runner or the store: a request that is not the extension's is decided on its face.
const untouchable = new Proxy({}, {
  get: (_t, name) => {
    throw new Error(`touched ${String(name)}`);
  },
});
const deps = {
  tools: new Map(buildToolSpecs(OPERATIONS).map((s) => [s.name, s])),
  runner: untouchable,
  store: untouchable,
  clock: { now: () => 0 },
  serverInfo: { name: "test", version: "1" },
  withinInputBound: () => true,
} as unknown as TaskRequestDeps;
const caller = { ctx: { principal: { kind: "anonymous" }, baseUrl: "http://localhost", requestId: "req_test", commercialScope: "none" }, reauthenticate: untouchable } as unknown as TaskCaller;

const modern = (capabilities: Record<string, unknown>) => ({ [PROTOCOL_VERSION_META_KEY]: TASKS_REVISION, [CLIENT_CAPABILITIES_META_KEY_V2]: capabilities });
const call = (name: string, meta?: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: { ids: "9000001" }, ...(meta ? { _meta: meta } : {}) } });

describe("task requests told apart from plain calls", () => {
  it("a plain tool call, in either era, is passed on at once: null, not a promise to wait for", () => {
    const plain: [string, unknown, Record<string, string>][] = [
      ["2025-era screen_vessels", call("screen_vessels"), { "mcp-protocol-version": "2025-11-25" }],
      ["2026 screen_vessels without the tasks declaration", call("screen_vessels", modern({})), { "mcp-protocol-version": TASKS_REVISION }],
      ["2026 get_port with the declaration (no task-capable tool)", call("get_port", modern({ extensions: { [TASKS_EXTENSION_ID]: {} } })), { "mcp-protocol-version": TASKS_REVISION }],
      ["2025-era tasks/get (the SDK's to answer)", { jsonrpc: "2.0", id: 1, method: "tasks/get", params: { taskId: "task_x" } }, { "mcp-protocol-version": "2025-11-25" }],
      ["not JSON-RPC", { id: 1, method: "tools/call" }, {}],
    ];
    for (const [name, body, headers] of plain) assert.equal(answerTaskRequest(deps, "POST", headers, body, caller), null, name);
    assert.equal(answerTaskRequest(deps, "GET", {}, call("screen_vessels", modern({})), caller), null);
  });

  it("a malformed declaration of the extension is still answered, with a JSON-RPC error naming the rule", async () => {
    const answer = answerTaskRequest(deps, "POST", { "mcp-protocol-version": TASKS_REVISION }, call("screen_vessels", modern({ extensions: { [TASKS_EXTENSION_ID]: { ttl: 5 } } })), caller);
    assert.ok(answer instanceof Promise);
    const parsed = JSON.parse(await answer) as { id: number; error?: { code: number; message: string } };
    assert.equal(parsed.id, 1);
    assert.equal(parsed.error?.code, -32602);
    assert.match(parsed.error!.message, /must be an empty object/);
  });
});
