import { SERVER_INFO_META_KEY } from "@modelcontextprotocol/server";
import type { Clock } from "../../../interfaces/clock.ts";
import type { McpTaskStore } from "../../../interfaces/mcp-tasks.ts";
import { AppError } from "../../../domain/errors.ts";
import { toCall, toolResult } from "../tool-result.ts";
import type { ToolSpec } from "../tools.ts";
import { LONG_TOOLS, type PagedWork, TaskArgumentError } from "./long-tools.ts";
import type { McpTaskRunner, TaskCaller } from "./task-runner.ts";
import { asksForTask, effectiveStatus, isPlainObject, isTasksRevision, type JsonRpcId, progressMeta, TASKS_REVISION, TaskRequestError, taskFields, taskIdParam, taskNotFound } from "./task-wire.ts";

/**
 * The requests of the tasks extension, answered before the SDK sees them (its server has no
 * tasks runtime): a task-augmented `tools/call` of a task-capable tool, and `tasks/get`,
 * `tasks/cancel`, `tasks/update`. Everything else, and every request of an earlier revision,
 * returns null and takes the usual path, so those clients keep their synchronous answers.
 */

export interface TaskRequestDeps {
  tools: ReadonlyMap<string, ToolSpec>;
  runner: McpTaskRunner;
  store: McpTaskStore;
  clock: Clock;
  serverInfo: Record<string, unknown>;
  /** The SDK's bound on the elements of one call's arguments: a call above it is left to the SDK to refuse. */
  withinInputBound: (args: unknown) => boolean;
}

type Headers = Record<string, string | string[] | undefined>;
const TASK_METHODS = new Set(["tasks/get", "tasks/cancel", "tasks/update"]);

function respond(id: JsonRpcId, result: Record<string, unknown>, serverInfo: Record<string, unknown>): string {
  const meta = isPlainObject(result._meta) ? result._meta : {};
  return JSON.stringify({ jsonrpc: "2.0", id, result: { ...result, _meta: { ...meta, [SERVER_INFO_META_KEY]: serverInfo } } });
}

function respondError(id: JsonRpcId, error: TaskRequestError): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code: error.code, message: error.message } });
}

/**
 * The JSON-RPC response to a request of the extension, as text; null for any other request.
 * Whether a request is one of the extension's is decided without waiting, so the plain tool
 * calls that make up nearly all traffic pass by without a promise of their own.
 */
export function answerTaskRequest(deps: TaskRequestDeps, httpMethod: string, headers: Headers, body: unknown, caller: TaskCaller): Promise<string> | null {
  if (httpMethod !== "POST" || !isPlainObject(body) || body.jsonrpc !== "2.0" || typeof body.method !== "string") return null;
  const id = body.id;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)))) return null;
  const versionHeader = typeof headers["mcp-protocol-version"] === "string" ? headers["mcp-protocol-version"] : undefined;
  const method = body.method;
  try {
    if (method === "tools/call") return toolCall(deps, id, body.params, versionHeader, caller);
    // The extension's methods exist only in the 2026-07-28 revision; a 2025-era tasks/get is the SDK's to answer.
    if (!TASK_METHODS.has(method) || !(versionHeader === TASKS_REVISION || isTasksRevision(body.params, versionHeader))) return null;
    const accountId = caller.ctx.principal.kind === "anonymous" ? "" : caller.ctx.principal.accountId;
    return answered(id, taskMethod(deps, id, method, body.params, accountId));
  } catch (e) {
    if (e instanceof TaskRequestError) return Promise.resolve(respondError(id, e));
    throw e;
  }
}

/** The answer, or the JSON-RPC error of a request the extension refuses. */
async function answered(id: JsonRpcId, answer: Promise<string>): Promise<string> {
  try {
    return await answer;
  } catch (e) {
    if (e instanceof TaskRequestError) return respondError(id, e);
    throw e;
  }
}

async function taskMethod(deps: TaskRequestDeps, id: JsonRpcId, method: string, params: unknown, accountId: string): Promise<string> {
  const now = deps.clock.now();
  const taskId = taskIdParam(method, params);
  if (method === "tasks/get") {
    const task = await deps.store.get(accountId, taskId, now);
    if (!task) throw taskNotFound(taskId);
    const { status, error } = effectiveStatus(task, now);
    // A stalled task's failure is recorded, so that it stays failed: were its process only slow, it stops at its next page.
    if (status === "failed" && task.status === "working") await deps.store.finish(task.id, { status: "failed", error }, now);
    const outcome = status === "completed" ? { result: { ...(await deps.runner.result(task)), resultType: "complete" } } : status === "failed" ? { error } : {};
    return respond(id, { ...taskFields(task, now), ...outcome, resultType: "complete", _meta: progressMeta(task) }, deps.serverInfo);
  }
  if (method === "tasks/cancel") {
    const task = await deps.store.cancel(accountId, taskId, now);
    if (!task) throw taskNotFound(taskId);
    const { status } = effectiveStatus(task, now);
    if (status !== "cancelled") throw new TaskRequestError(`Invalid params: task \`${taskId}\` is already ${status}; only a working task can be cancelled.`);
    return respond(id, { resultType: "complete", _meta: progressMeta(task) }, deps.serverInfo);
  }
  // tasks/update answers an input_required task; these tasks never ask for input.
  const task = await deps.store.get(accountId, taskId, now);
  if (!task) throw taskNotFound(taskId);
  throw new TaskRequestError(`Invalid params: task \`${taskId}\` does not await input (this server's tasks never ask for any), so there is nothing to update.`);
}

function toolCall(deps: TaskRequestDeps, id: JsonRpcId, params: unknown, versionHeader: string | undefined, caller: TaskCaller): Promise<string> | null {
  if (!isPlainObject(params) || typeof params.name !== "string") return null;
  const plan = LONG_TOOLS.get(params.name);
  const spec = deps.tools.get(params.name);
  if (!plan || !spec || !isTasksRevision(params, versionHeader) || !asksForTask(params)) return null;
  const args = params.arguments ?? {};
  if (!isPlainObject(args) || !deps.withinInputBound(args)) return null;
  let work;
  try {
    work = plan(args);
  } catch (e) {
    if (!(e instanceof TaskArgumentError)) throw e;
    // The operation's own error form: code, rule, what to do; nothing was run or charged.
    const error = new AppError("invalid_parameter", e.message, { param: e.param, rule: e.rule });
    const metering = { requestId: caller.ctx.requestId, rateLimit: null, credits: { cost: 0, remaining: null }, retryAfter: null, denials: [] };
    const refused = toolResult(spec, toCall(spec, args, caller.ctx), { ok: false, error, metering }, caller.ctx);
    return Promise.resolve(respond(id, { ...refused, resultType: "complete" }, deps.serverInfo));
  }
  if (work === null) return null;
  return answered(id, startTask(deps, id, spec, work, caller));
}

async function startTask(deps: TaskRequestDeps, id: JsonRpcId, spec: ToolSpec, work: PagedWork, caller: TaskCaller): Promise<string> {
  const started = await deps.runner.start(spec, work, caller);
  if (started.kind === "complete") return respond(id, { ...started.result, resultType: "complete" }, deps.serverInfo);
  const now = deps.clock.now();
  return respond(id, { ...taskFields(started.task, now), resultType: "task", _meta: progressMeta(started.task) }, deps.serverInfo);
}
