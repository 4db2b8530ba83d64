import { hostHeaderValidation, originValidation } from "@modelcontextprotocol/fastify";
import { logFailure } from "../shared/failure-log.ts";
import {
  type AuthInfo,
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  isLegacyRequest,
  legacyStatelessFallback,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../domain/errors.ts";
import { RESOURCE_SCOPES } from "../../domain/oauth/scopes.ts";
import type { SourceRegistry } from "../../domain/rights/source.ts";
import type { Pipeline } from "../../operations/execute.ts";
import type { Operation } from "../../operations/operation.ts";
import { errorBody } from "../../operations/envelope.ts";
import { rightsDocument } from "./rights-doc.ts";
import { directToolCall, directToolCallResponse, elementCount } from "./direct-tool-call.ts";
import { buildMcpServer, MAX_TOOL_INPUT_ELEMENTS, runTool, SERVER_INFO } from "./server.ts";
import type { CallContext } from "./tool-result.ts";
import { buildToolSpecs } from "./tools.ts";
import { publicBase } from "../shared/public-base.ts";
import type { McpTaskStore } from "../../interfaces/mcp-tasks.ts";
import { answerTaskRequest } from "./tasks/task-requests.ts";
import { McpTaskRunner, type McpTaskSeams } from "./tasks/task-runner.ts";

export const MCP_PATH = "/mcp";
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";
/** The methods /mcp serves, as the CORS preflight and a 405 name them. */
const MCP_METHODS = "GET, POST, DELETE, OPTIONS";

export interface McpOptions {
  pipeline: Pipeline;
  operations: readonly Operation[];
  sources: SourceRegistry;
  /** Public base URL; when unset, taken from each request's Host (as the REST links are). */
  baseUrl?: string;
  /** Host names (no port) the endpoint answers to; `*` turns the Host check off. */
  allowedHosts: readonly string[];
  /** Origin host names (no scheme or port) browsers may call from; requests without Origin always pass. */
  allowedOrigins: readonly string[];
  /**
   * Answer plain `tools/call` requests without the SDK's per-request server (direct-tool-call.ts).
   * Default true; false sends every request through the SDK, the reference the tests compare with.
   */
  directToolCalls?: boolean;
  /** The service's own OAuth authorization server runs at the origin root: the metadata names it. */
  authorizationServer?: boolean;
  /** Where tasks (long tool calls) are kept: shared by every process of the deployment. */
  tasks: McpTaskStore;
  taskSeams?: McpTaskSeams;
}

const CALL_KEY = "mds.call";

/** The caller's context rides on the SDK's pass-through AuthInfo from the gate to the tool handler. */
function contextOf(auth: AuthInfo | undefined): CallContext | undefined {
  return auth?.extra?.[CALL_KEY] as CallContext | undefined;
}

/**
 * The headers the SDK reads: content negotiation and the MCP ones (`Mcp-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`, ...). Nothing else is copied: fewer to convert, and the
 * key stays out of the SDK (it gets the verified AuthInfo instead).
 */
function webRequest(req: FastifyRequest): Request {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || !(name === "content-type" || name === "accept" || name.startsWith("mcp-") || name === "last-event-id")) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const hasBody = req.method === "POST" && typeof req.body === "string";
  return new Request(`${req.protocol}://${req.host}${req.url}`, { method: req.method, headers, body: hasBody ? (req.body as string) : undefined });
}

/** Browsers (the Inspector's web UI, web apps) need these to call the endpoint and read the challenge. */
function cors(req: FastifyRequest, reply: FastifyReply): void {
  const origin = req.headers.origin;
  if (!origin) return;
  reply.header("access-control-allow-origin", origin);
  reply.header("vary", "Origin");
  reply.header("access-control-expose-headers", "WWW-Authenticate, Mcp-Protocol-Version, Mcp-Session-Id, X-Request-Id");
}

/**
 * Mounts the MCP endpoint (Streamable HTTP, stateless, every protocol era the SDK serves) and
 * the protected resource metadata on the app. Tools come from the operations registry and run
 * through the same execute() as REST.
 */
export function registerMcp(app: FastifyInstance, options: McpOptions): void {
  const deps = {
    pipeline: options.pipeline,
    tools: buildToolSpecs(options.operations),
    rightsText: rightsDocument(options.sources),
    onFailure: (op: Operation, error: AppError, requestId: string) => logFailure(app.log, error, { op: op.id, requestId, via: "mcp" }),
  };
  const toolsByName = new Map(deps.tools.map((t) => [t.name, t]));
  const clock = options.pipeline.services.clock;
  const runner = new McpTaskRunner({
    tools: deps,
    store: options.tasks,
    clock,
    seams: options.taskSeams,
    onError: (err, taskId) => app.log.error({ err, taskId }, "mcp task stopped by an error"),
  });
  const taskDeps = {
    tools: toolsByName,
    runner,
    store: options.tasks,
    clock,
    serverInfo: SERVER_INFO,
    withinInputBound: (args: unknown) => elementCount(args, MAX_TOOL_INPUT_ELEMENTS) <= MAX_TOOL_INPUT_ELEMENTS,
  };
  const factory = ({ authInfo }: { authInfo?: AuthInfo }) => buildMcpServer(deps, contextOf(authInfo));
  // Rejections of malformed requests are answered to the client; they are not our faults.
  const onerror = (err: Error) => app.log.debug({ err }, "mcp request rejected");
  // 2026-07-28 (stateless by design) through the SDK's entry; 2025-era requests are routed below.
  const handler = createMcpHandler(factory, { legacy: "reject", onerror });
  const legacySse = legacyStatelessFallback(factory, onerror);

  /**
   * A 2025-era request is served statelessly, like the SDK's own fallback, but a POST whose
   * client accepts JSON gets a plain JSON answer instead of a one-event stream: our tools send
   * nothing before their result, and the JSON leg measured at about half the SDK time per call
   * (bench/README.md, "MCP"). Everything else (GET, DELETE, SSE-only clients) takes the SDK's path.
   */
  async function serve(request: Request, authInfo: AuthInfo, parsedBody: unknown): Promise<Response> {
    if (!(await isLegacyRequest(request, parsedBody))) return handler.fetch(request, { authInfo, parsedBody });
    const acceptsJson = (request.headers.get("accept") ?? "").includes("application/json");
    if (request.method !== "POST" || parsedBody === undefined || !acceptsJson) return legacySse(request, { authInfo, parsedBody });
    const server = factory({ authInfo });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    // In JSON mode the exchange is over when handleRequest resolves: no stream, timer or
    // listener is left, and both objects are dropped with the request. Closing them would only
    // build a "connection closed" error with its stack trace on every call.
    return transport.handleRequest(request, { authInfo, parsedBody });
  }
  const baseOf = (req: FastifyRequest) => publicBase(options.baseUrl, req);
  const metadataUrl = (req: FastifyRequest) => getOAuthProtectedResourceMetadataUrl(new URL(`${baseOf(req)}${MCP_PATH}`));

  // RFC 9728: what a client learns from the 401 challenge. offline_access stays out of the
  // scopes (MCP clients are not to ask for it here; the authorization server grants refresh anyway).
  const metadata = async (req: FastifyRequest, reply: FastifyReply) => {
    reply.header("access-control-allow-origin", "*").header("cache-control", "public, max-age=3600");
    return {
      resource: `${baseOf(req)}${MCP_PATH}`,
      bearer_methods_supported: ["header"],
      resource_name: "Maritime Data Service",
      ...(options.authorizationServer ? { authorization_servers: [baseOf(req)], scopes_supported: [...RESOURCE_SCOPES] } : {}),
    };
  };
  app.get(`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`, metadata);
  app.get(PROTECTED_RESOURCE_PATH, metadata);

  void app.register(async (scope) => {
    // Encapsulated: the DNS-rebinding guards and the raw-text body apply to /mcp only.
    if (!options.allowedHosts.includes("*")) scope.addHook("onRequest", hostHeaderValidation([...options.allowedHosts]));
    scope.addHook("onRequest", originValidation([...options.allowedOrigins]));
    // The body stays text until the handler, so a malformed one gets a JSON-RPC parse error, not a REST error body.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => done(null, body));

    // HEAD is no method of the MCP transport; Fastify would otherwise route it to the GET
    // handler, where the SDK fails on it (a 500 and an error line per request).
    scope.route({
      method: "HEAD",
      url: MCP_PATH,
      handler: async (_req, reply) => reply.code(405).header("allow", MCP_METHODS).send(),
    });
    scope.route({
      method: ["GET", "POST", "DELETE", "OPTIONS"],
      url: MCP_PATH,
      exposeHeadRoute: false,
      handler: async (req, reply) => {
        cors(req, reply);
        if (req.method === "OPTIONS") {
          return reply
            .code(204)
            .header("access-control-allow-methods", MCP_METHODS)
            .header("access-control-allow-headers", "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID")
            .header("access-control-max-age", "600")
            .send();
        }
        reply.header("x-request-id", req.id);

        let call: CallContext;
        let reauthenticate: () => Promise<CallContext>;
        try {
          // Every MCP request needs a key, listing included; only tool calls are charged. The key is
          // checked here, once: tool calls run for this principal without looking at the header again.
          const baseUrl = baseOf(req);
          const authorization = req.headers.authorization;
          const ip = req.ip;
          const requestId = req.id;
          const authenticate = async (): Promise<CallContext> => {
            const principal = await options.pipeline.auth.authenticate(authorization, true, ip, `${baseUrl}${MCP_PATH}`);
            if (principal.kind === "anonymous") throw new AppError("missing_api_key");
            return { principal, baseUrl, requestId, commercialScope: principal.entitlements.commercialScope };
          };
          call = await authenticate();
          // A task's later pages check the same credentials again (task-runner.ts); the header stays in memory only.
          reauthenticate = authenticate;
        } catch (e) {
          const error = e instanceof AppError ? e : new AppError("service_unavailable");
          if (!(e instanceof AppError)) req.log.error({ err: e }, "mcp authentication failed");
          if (error.status === 401) {
            // The challenge that points clients at the metadata (and, with OAuth, at the authorization server).
            const presented = req.headers.authorization !== undefined && req.headers.authorization.trim() !== "";
            const detail = presented ? `, error="invalid_token", error_description="${error.message.replaceAll('"', "'")}"` : "";
            reply.header("www-authenticate", `Bearer resource_metadata="${metadataUrl(req)}"${detail}`);
          }
          return reply.code(error.status).header("content-type", "application/json; charset=utf-8").send(JSON.stringify(errorBody(error, { baseUrl: baseOf(req), requestId: req.id })));
        }

        // Parsed here once; a body that is not JSON goes on as text, so the SDK answers with its parse error.
        let parsedBody: unknown;
        if (req.method === "POST" && typeof req.body === "string") {
          try {
            parsedBody = JSON.parse(req.body);
          } catch {
            parsedBody = undefined;
          }
        }
        // The tasks extension first: a task-augmented call would otherwise look like a plain one below.
        const tasked = answerTaskRequest(taskDeps, req.method, req.headers, parsedBody, { ctx: call, reauthenticate });
        if (tasked !== null) return reply.header("content-type", "application/json").send(Buffer.from(await tasked));
        const direct = options.directToolCalls === false ? null : directToolCall(req.method, req.headers, parsedBody, toolsByName, MAX_TOOL_INPUT_ELEMENTS);
        if (direct) {
          const result = await runTool(deps, direct.spec, direct.args, call);
          // A buffer, so Fastify leaves the content type as the SDK writes it (no charset added).
          return reply.header("content-type", "application/json").send(Buffer.from(directToolCallResponse(direct, result, SERVER_INFO)));
        }
        // Only the SDK reads the AuthInfo; the direct path above has no use for it.
        const auth: AuthInfo = {
          token: req.headers.authorization!.replace(/^Bearer\s+/i, "").trim(),
          clientId: call.principal.subject,
          scopes: [],
          // A key has no expiry of its own; the gate re-checks it on every request.
          expiresAt: Math.floor(options.pipeline.services.clock.now() / 1000) + 300,
          extra: { [CALL_KEY]: call },
        };
        return reply.send(await serve(webRequest(req), auth, parsedBody));
      },
    });
  });

  // Before the server waits for its connections: open 2026 `subscriptions/listen` streams would
  // otherwise hold a shutdown until their clients leave.
  app.addHook("preClose", async () => {
    await handler.close();
    // Running tasks stop at their next page and are marked failed: no other process takes their work over.
    await runner.close();
  });
}
