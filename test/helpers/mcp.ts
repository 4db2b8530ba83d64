/**
 * Helpers of the MCP tests: a test service listening on a free port, the SDK's own client
 * connected over real HTTP in a chosen protocol revision, and REST calls to the same address.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { billingPeriod } from "../../src/operations/billing-period.ts";
import { OPERATIONS } from "../../src/operations/registry.ts";
import type { Operation } from "../../src/operations/operation.ts";
import { type Engine, startTestService, type TestService } from "./service.ts";
import type { McpTaskSeams } from "../../src/adapters/mcp/tasks/task-runner.ts";

/** The revisions clients speak: two of the 2025 era (initialize handshake) and the stateless 2026 one. */
export const REVISIONS = ["2025-06-18", "2025-11-25", "2026-07-28"] as const;
export type Revision = (typeof REVISIONS)[number];

export const TOOL_OPERATIONS: Operation[] = OPERATIONS.filter((op) => op.tool !== undefined);

export interface McpTestService extends TestService {
  /** `http://127.0.0.1:<port>` */
  address: string;
}

export async function startMcpService(options: { engine?: Engine; withData?: boolean; env?: Record<string, string>; mcpTasks?: McpTaskSeams } = {}): Promise<McpTestService> {
  const t = await startTestService(options);
  const address = await t.service.app.listen({ port: 0, host: "127.0.0.1" });
  return Object.assign(t, { address });
}

/** The SDK client over HTTP: the 2025 revisions through `initialize`, 2026-07-28 pinned through `server/discover`. */
export async function connect(t: McpTestService, key: string, revision: Revision = "2025-11-25"): Promise<Client> {
  const options = revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: revision } } } : { supportedProtocolVersions: [revision] };
  const client = new Client({ name: "mds-test", version: "1.0.0" }, options);
  const transport = new StreamableHTTPClientTransport(new URL(`${t.address}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } });
  await client.connect(transport);
  return client;
}

/** A REST GET over the same socket path a client would use. */
export async function rest(t: McpTestService, pathAndQuery: string, key: string): Promise<{ status: number; headers: Headers; body: Record<string, any> }> {
  const res = await fetch(`${t.address}${pathAndQuery}`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

/** The REST request a tool call stands for: path parameters into the template, the rest as query. */
export function restUrlFor(op: Operation, args: Record<string, unknown>): string {
  const query = new URLSearchParams();
  let path = op.path;
  for (const [name, value] of Object.entries(args)) {
    const text = Array.isArray(value) ? value.join(",") : String(value);
    if (path.includes(`{${name}}`)) path = path.replace(`{${name}}`, encodeURIComponent(text));
    else query.set(name, text);
  }
  // The MCP face pages by 10 where the operation pages; the REST call asks for the same.
  if (op.paged && !query.has("limit")) query.set("limit", "10");
  const q = query.toString();
  return q ? `${path}?${q}` : path;
}

export async function keyUsage(t: TestService, k: { accountId: string; keyId: string }) {
  return t.service.services.ledger.usage(k.accountId, k.keyId, billingPeriod(t.clock.now()));
}

export type ToolCallResult = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
  _meta?: Record<string, any>;
};

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolCallResult> {
  return (await client.callTool({ name, arguments: args })) as ToolCallResult;
}
