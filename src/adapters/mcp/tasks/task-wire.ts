import { CLIENT_CAPABILITIES_META_KEY_V2, hasTaskClientCapabilityV2, TASKS_EXTENSION_ID_V2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import { INVALID_PARAMS, PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";
import type { McpTask } from "../../../interfaces/mcp-tasks.ts";

/**
 * The wire of the tasks extension (`io.modelcontextprotocol/tasks`, MCP 2026-07-28) as this
 * server speaks it: the names and shapes come from the official package's V2 schemas
 * (`@modelcontextprotocol/ext-tasks/core/v2`); the SDK's server has no runtime for them.
 */

export const TASKS_EXTENSION_ID = TASKS_EXTENSION_ID_V2;
/** The only revision whose requests may be task-augmented: earlier ones get the synchronous answer. */
export const TASKS_REVISION = "2026-07-28";

/** How long a task and its result are kept, from its creation: a day, long enough to come back to it, short enough not to keep screening data around. */
export const TASK_TTL_MS = 24 * 60 * 60 * 1000;
/** How often a client is asked to poll: a page of 100 screenings takes well under this. */
export const TASK_POLL_INTERVAL_MS = 1_000;
/**
 * A working task whose process finished no page for this long is reported failed: the process
 * that ran it stopped (a restart, a crash), and no other one takes its work over.
 */
export const TASK_STALLED_AFTER_MS = 5 * 60 * 1000;

export type JsonRpcId = string | number;

export const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** A JSON-RPC error raised while reading a task request; answered with its code and message. */
export class TaskRequestError extends Error {
  readonly code: number;
  constructor(message: string, code: number = INVALID_PARAMS) {
    super(message);
    this.code = code;
  }
}

/** Whether the request carries the 2026-07-28 envelope: the revision in `_meta`, and the header, when sent, agreeing. */
export function isTasksRevision(params: unknown, versionHeader: string | undefined): boolean {
  if (!isPlainObject(params) || !isPlainObject(params._meta)) return false;
  return params._meta[PROTOCOL_VERSION_META_KEY] === TASKS_REVISION && (versionHeader === undefined || versionHeader === TASKS_REVISION);
}

/**
 * Whether a `tools/call` lets the server answer with a task: the client declares the extension
 * in the request's own capabilities (there is no session to remember it). A declaration that
 * is there but malformed is refused rather than read as "no", so the client learns why.
 */
export function asksForTask(params: Record<string, unknown>): boolean {
  if (hasTaskClientCapabilityV2(params)) return true;
  const meta = params._meta;
  const caps = isPlainObject(meta) ? meta[CLIENT_CAPABILITIES_META_KEY_V2] : undefined;
  const extensions = isPlainObject(caps) ? caps.extensions : undefined;
  if (isPlainObject(extensions) && Object.hasOwn(extensions, TASKS_EXTENSION_ID)) {
    throw new TaskRequestError(`Invalid params: \`_meta["${CLIENT_CAPABILITIES_META_KEY_V2}"].extensions["${TASKS_EXTENSION_ID}"]\` must be an empty object ({}), the extension's declaration.`);
  }
  return false;
}

const TASK_ID_PATTERN = /^task_[A-Za-z0-9_-]{16,64}$/;
/** The parameters each method takes; `tasks/update` also carries the input it answers with. */
const TASK_PARAM_KEYS: Record<string, ReadonlySet<string>> = {
  "tasks/get": new Set(["taskId", "_meta"]),
  "tasks/cancel": new Set(["taskId", "_meta"]),
  "tasks/update": new Set(["taskId", "inputResponses", "_meta"]),
};

/** The `taskId` of a `tasks/get` or `tasks/cancel`, with an error naming the parameter and the rule otherwise. */
export function taskIdParam(method: string, params: unknown): string {
  if (!isPlainObject(params)) throw new TaskRequestError(`Invalid params: ${method} takes an object \`params\` with \`taskId\`, the id a task-augmented tools/call returned.`);
  const allowed = TASK_PARAM_KEYS[method] ?? new Set(["taskId", "_meta"]);
  const extra = Object.keys(params).filter((k) => !allowed.has(k));
  if (extra.length > 0) {
    const takes = [...allowed].map((k) => `\`${k}\``).join(", ");
    throw new TaskRequestError(`Invalid params: ${method} takes only ${takes}; unknown: ${extra.slice(0, 5).map((k) => `\`${k.slice(0, 40)}\``).join(", ")}.`);
  }
  const id = params.taskId;
  if (typeof id !== "string") throw new TaskRequestError(`Invalid params: \`taskId\` must be a string, the id a task-augmented tools/call returned; got ${id === undefined ? "none" : typeof id}.`);
  if (!TASK_ID_PATTERN.test(id)) throw new TaskRequestError(`Invalid params: \`taskId\` \`${id.slice(0, 80)}\` is not a task id of this server (task_ followed by 16 to 64 letters, digits, _ or -).`);
  return id;
}

/** The answer to an id that names no task the caller may see: the same whether it never existed, expired, or is another account's. */
export function taskNotFound(id: string): TaskRequestError {
  return new TaskRequestError(`Invalid params: no task \`${id}\` for this account (tasks are kept ${TASK_TTL_MS / 3_600_000} hours from their creation, and only their creator's account sees them).`);
}

/**
 * How a task stands, as the wire says it: a working task whose process stopped (no page for
 * TASK_STALLED_AFTER_MS, or its work ended on an error before it could record an outcome) is failed.
 */
export function effectiveStatus(task: McpTask, now: number): { status: McpTask["status"]; error: McpTask["error"] } {
  if (task.status !== "working") return { status: task.status, error: task.error };
  const before = `${task.done} screened and ${task.credits} credits charged before it; call the tool again to start over.`;
  if (!task.running) return { status: "failed", error: { code: -32603, message: `The work stopped on an internal error. ${before}` } };
  if (now - task.updatedAt > TASK_STALLED_AFTER_MS) {
    return { status: "failed", error: { code: -32603, message: `The process running this task stopped: no page finished in ${TASK_STALLED_AFTER_MS / 60_000} minutes. ${before}` } };
  }
  return { status: "working", error: null };
}

function progressText(task: McpTask): string {
  const of = task.total !== null ? ` of ${task.total}` : "";
  return `${task.done}${of} screened, ${task.credits} credit${task.credits === 1 ? "" : "s"} charged`;
}

/** The status message: where the work is, in words, for the assistant and its user. */
export function statusMessage(task: McpTask, status: McpTask["status"]): string {
  switch (status) {
    case "working":
      return `Working: ${progressText(task)} so far.`;
    case "completed":
      return `Completed: ${progressText(task)}.`;
    case "cancelled":
      return `Cancelled: ${progressText(task)} before it stopped${task.running ? " (the page in hand finishes first)" : ""}.`;
    case "failed":
      return `Failed: ${progressText(task)} before it.`;
  }
}

/** The task fields every task answer carries (the extension's `Task`), plus the progress in `_meta`. */
export function taskFields(task: McpTask, now: number): Record<string, unknown> {
  const { status } = effectiveStatus(task, now);
  return {
    taskId: task.id,
    status,
    statusMessage: statusMessage(task, status),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.updatedAt).toISOString(),
    ttlMs: task.expiresAt - task.createdAt,
    pollIntervalMs: TASK_POLL_INTERVAL_MS,
  };
}

/** Progress in numbers, for clients that show a bar: units done, the whole when known, credits so far, and whether work is still going on. */
export function progressMeta(task: McpTask): Record<string, unknown> {
  return { "mds/task": { tool: task.tool, done: task.done, total: task.total, creditsCharged: task.credits, running: task.running } };
}
