import { McpServer } from "@modelcontextprotocol/server";
import pkg from "../../../package.json" with { type: "json" };
import { execute, type Pipeline } from "../../operations/execute.ts";
import type { Operation } from "../../operations/operation.ts";
import type { AppError } from "../../domain/errors.ts";
import { UI_EXTENSION_CAPABILITY, RESOURCE_MIME_TYPE } from "./apps/ui-extension.ts";
import { VESSEL_APP_UI_META, VESSEL_APP_URI, vesselAppHtml, vesselAppToolMeta } from "./apps/vessel-app.ts";
import { PROMPTS } from "./prompts.ts";
import { RIGHTS_URI } from "./rights-doc.ts";
import { TASKS_EXTENSION_ID } from "./tasks/task-wire.ts";
import { type CallContext, toCall, toolResult, type ToolResult } from "./tool-result.ts";
import type { ToolSpec } from "./tools.ts";

export interface McpServerDeps {
  pipeline: Pipeline;
  tools: readonly ToolSpec[];
  /** The rights document; built once from the sources the service runs with. */
  rightsText: string;
  /** Told about every failed call, to log it as the REST route does. */
  onFailure?: (op: Operation, error: AppError, requestId: string) => void;
}

const INSTRUCTIONS =
  "Maritime data: vessels, ports, sanctions screening and the caller's own AIS feed. Every tool is read-only and is one API request (a long screening run as a task is one per page), " +
  "with the same credits, rate limit and data rights as the REST API (each description gives the cost; listing tools, reading resources and prompts are free). " +
  `Answers leave out what their sources may not serve and list it under \`withheld\`; show the \`attribution\` texts with any data you use, and see ${RIGHTS_URI}. ` +
  "Errors come back as tool results saying what to change.";

/** The lists are the same for every caller and change only with a deployment. */
const SHARED_FOR_FIVE_MINUTES = { ttlMs: 300_000, cacheScope: "public" } as const;

/** Bounds the work one call's arguments can cause before any operation sees them. */
export const MAX_TOOL_INPUT_ELEMENTS = 200;

/** Who answers, as `initialize` and the 2026 result envelope name it. */
export const SERVER_INFO = { name: "maritime-data-service", title: "Maritime Data Service", version: pkg.version };

/** One tool call: the operation through execute(), its result as a tool result. */
export async function runTool(deps: McpServerDeps, spec: ToolSpec, args: Record<string, unknown>, ctx: CallContext | undefined): Promise<ToolResult> {
  if (!ctx) {
    // The HTTP gate authenticates every request; this is a guard, not a path.
    return { content: [{ type: "text", text: "Error missing_api_key: send `Authorization: Bearer <API_KEY>`." }], isError: true };
  }
  const call = toCall(spec, args, ctx);
  const result = await execute(deps.pipeline, spec.op, ctx.principal, call);
  if (!result.ok) deps.onFailure?.(spec.op, result.error, call.requestId);
  return toolResult(spec, call, result, ctx);
}

/**
 * One McpServer per HTTP request (stateless serving): everything expensive is prepared once
 * in `deps`, so this only wires the prepared tools to the caller's context.
 */
export function buildMcpServer(deps: McpServerDeps, ctx: CallContext | undefined): McpServer {
  const server = new McpServer(
    SERVER_INFO,
    {
      // MCP Apps: the vessel app below (apps/ui-extension.ts says why every client is told).
      // Tasks (2026-07-28): long screenings may answer with a task (tasks/task-requests.ts serves them).
      capabilities: { extensions: { ...UI_EXTENSION_CAPABILITY, [TASKS_EXTENSION_ID]: {} } },
      instructions: INSTRUCTIONS,
      maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
      cacheHints: {
        "tools/list": SHARED_FOR_FIVE_MINUTES,
        "prompts/list": SHARED_FOR_FIVE_MINUTES,
        "resources/list": SHARED_FOR_FIVE_MINUTES,
        "resources/templates/list": SHARED_FOR_FIVE_MINUTES,
        "server/discover": SHARED_FOR_FIVE_MINUTES,
      },
    },
  );

  for (const spec of deps.tools) {
    const meta = vesselAppToolMeta(spec.name);
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: spec.inputSchema,
        outputSchema: spec.outputSchema,
        // Reads of this service's own store: no side effect on the data, nothing outside it reached.
        annotations: { title: spec.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        // Hosts with app support draw the answer in the vessel app; the text content is there for all others.
        ...(meta ? { _meta: meta } : {}),
      },
      (args): Promise<ToolResult> => runTool(deps, spec, args, ctx),
    );
  }

  server.registerResource(
    "rights",
    RIGHTS_URI,
    {
      title: "Data rights and attribution",
      description: "What each data source allows, what `withheld` means, what attribution to show, and what each commercial scope permits.",
      mimeType: "text/markdown",
      cacheHint: SHARED_FOR_FIVE_MINUTES,
    },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: deps.rightsText }] }),
  );

  server.registerResource(
    "vessel_app",
    VESSEL_APP_URI,
    {
      title: "Vessel app",
      description: "The app hosts render with get_vessel and get_vessel_events: the vessel's status, sanctions and risk indicators, its last position and events on an offline map, what was withheld, and the attribution.",
      mimeType: RESOURCE_MIME_TYPE,
      cacheHint: SHARED_FOR_FIVE_MINUTES,
      _meta: { ui: VESSEL_APP_UI_META },
    },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: RESOURCE_MIME_TYPE, text: vesselAppHtml(), _meta: { ui: VESSEL_APP_UI_META } }] }),
  );

  const toolNames = new Set(deps.tools.map((t) => t.name));
  for (const p of PROMPTS) {
    server.registerPrompt(p.name, { title: p.title, description: p.description, argsSchema: p.argsSchema }, (args: Record<string, unknown>) => ({
      description: p.description,
      messages: [{ role: "user" as const, content: { type: "text" as const, text: p.render(args, toolNames) } }],
    }));
  }
  return server;
}
