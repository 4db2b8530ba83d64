import { randomBytes } from "node:crypto";
import { AppError } from "../../../domain/errors.ts";
import type { Clock } from "../../../interfaces/clock.ts";
import type { McpTask, McpTaskStore } from "../../../interfaces/mcp-tasks.ts";
import { type McpServerDeps, runTool } from "../server.ts";
import type { CallContext, ToolResult } from "../tool-result.ts";
import type { ToolSpec } from "../tools.ts";
import { combinedResult, type TaskPage, taskPageOf } from "./combined-result.ts";
import type { PagedWork } from "./long-tools.ts";
import { TASK_TTL_MS } from "./task-wire.ts";

/** Tests hold a task between its pages, to poll or cancel it at a known point. */
export interface McpTaskSeams {
  /** Awaited before each background page (numbered from 1; page 0 runs within the call). */
  beforePage?: (taskId: string, page: number) => Promise<void>;
}

export interface TaskRunnerDeps {
  tools: McpServerDeps;
  store: McpTaskStore;
  clock: Clock;
  seams?: McpTaskSeams;
  /** Told when a task's background work breaks (a store error), to log it. */
  onError: (err: unknown, taskId: string) => void;
}

/** The caller of a task: their context now, and again before each page (a key revoked meanwhile stops the work, as it would stop REST paging). */
export interface TaskCaller {
  ctx: CallContext;
  reauthenticate: () => Promise<CallContext>;
}

export type StartedCall = { kind: "complete"; result: ToolResult } | { kind: "task"; task: McpTask };

/** Seconds to wait on a rate-limited page before trying it again, when the error gives none. */
const DEFAULT_RETRY_S = 1;

/**
 * Runs paged work for a task-augmented call. The first page runs within the call: its errors
 * (bad arguments, no credits) are the call's answer, and work that fits one page is answered
 * at once. Longer work becomes a task: a row in the store, then the pages in the background,
 * each stored and charged as it completes. Before each page the runner reads the task's status
 * from the store, so a `tasks/cancel` that reached any process stops the charging there.
 */
export class McpTaskRunner {
  readonly #deps: TaskRunnerDeps;
  readonly #running = new Map<string, Promise<void>>();
  #closing = false;

  constructor(deps: TaskRunnerDeps) {
    this.#deps = deps;
  }

  async start(spec: ToolSpec, work: PagedWork, caller: TaskCaller): Promise<StartedCall> {
    const { store, clock } = this.#deps;
    const first = await runTool(this.#deps.tools, spec, work.first, caller.ctx);
    if (first.isError || !first.structuredContent) return { kind: "complete", result: first };
    const page0 = taskPageOf(first);
    const nextArgs = work.next(0, work.first, page0.structured);
    if (nextArgs === null) return { kind: "complete", result: combinedResult([page0], caller.ctx.requestId) };

    const now = clock.now();
    // Expired tasks go when new ones come: the table holds a day of tasks at most, with no sweeper to run.
    await store.deleteExpired(now);
    const id = `task_${randomBytes(18).toString("base64url")}`;
    const accountId = caller.ctx.principal.kind === "anonymous" ? null : caller.ctx.principal.accountId;
    if (accountId === null) throw new AppError("missing_api_key");
    await store.create({ id, accountId, tool: spec.name, total: work.total(page0.structured), createdAt: now, expiresAt: now + TASK_TTL_MS });
    await store.addPage(id, { body: page0, done: rowsOf(page0), credits: page0.creditsCharged }, now);
    // Started on the next turn of the event loop, so the answer with the task is written first
    // (SQLite's statements are synchronous: started at once, the pages would hold the answer back).
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#pages(id, spec, work, nextArgs, caller))
      .catch((err: unknown) => this.#deps.onError(err, id))
      .finally(() => this.#running.delete(id));
    this.#running.set(id, run);
    const task = await store.get(accountId, id, clock.now());
    return { kind: "task", task: task! };
  }

  async #pages(id: string, spec: ToolSpec, work: PagedWork, firstArgs: Record<string, unknown>, caller: TaskCaller): Promise<void> {
    const { store, clock, seams } = this.#deps;
    let args: Record<string, unknown> | null = firstArgs;
    let index = 1;
    try {
      while (args !== null) {
        await seams?.beforePage?.(id, index);
        if (this.#closing) {
          await store.finish(id, { status: "failed", error: { code: -32603, message: "The service was stopped while this task ran; call the tool again to start over." } }, clock.now());
          return;
        }
        // Cancelled (from any process): no further page is started, so none is charged.
        if (!(await store.isWorking(id))) return;
        let ctx: CallContext;
        try {
          ctx = { ...(await caller.reauthenticate()), requestId: `${caller.ctx.requestId}-${index}` };
        } catch (e) {
          const message = e instanceof AppError ? e.message : "The caller's credentials could not be checked again.";
          await store.finish(id, { status: "failed", error: { code: -32603, message: `Stopped: ${message}` } }, clock.now());
          return;
        }
        const result = await runTool(this.#deps.tools, spec, args, ctx);
        if (result.isError || !result.structuredContent) {
          const error = result._meta?.["mds/error"] as { code?: string; retryAfter?: number } | undefined;
          // The key's rate limit holds for its task too: the page waits its turn, uncharged, like a REST client would.
          if (error?.code === "rate_limited") {
            await new Promise((resolve) => setTimeout(resolve, (error.retryAfter ?? DEFAULT_RETRY_S) * 1000));
            continue;
          }
          const text = result.content.map((c) => c.text).join(" ");
          await store.finish(id, { status: "failed", error: { code: -32603, message: `A page of the work failed: ${text}`, data: { "mds/error": error ?? null } } }, clock.now());
          return;
        }
        const page = taskPageOf(result);
        // Stored whatever the status now: a page that completed was charged, and the task says so.
        await store.addPage(id, { body: page, done: rowsOf(page), credits: page.creditsCharged }, clock.now());
        args = work.next(index, args, page.structured);
        index++;
      }
      await store.finish(id, { status: "completed" }, clock.now());
    } finally {
      await store.stopped(id, clock.now());
    }
  }

  /** The task's result once completed: its pages put together. */
  async result(task: McpTask): Promise<ToolResult> {
    const pages = (await this.#deps.store.pages(task.id)) as TaskPage[];
    return combinedResult(pages, task.id);
  }

  /** Stops taking pages: running tasks fail at their next page (their process is going away), and this waits for them. */
  async close(): Promise<void> {
    this.#closing = true;
    await Promise.all(this.#running.values());
  }
}

function rowsOf(page: TaskPage): number {
  return Array.isArray(page.structured.data) ? page.structured.data.length : 0;
}
