/**
 * MCP tasks (the `io.modelcontextprotocol/tasks` extension): a long tool call's state, kept
 * where every API process of a deployment reads it, so that a `tasks/get` or `tasks/cancel`
 * reaching another process than the one doing the work sees the same task.
 */

export type McpTaskStatus = "working" | "completed" | "failed" | "cancelled";

export interface McpTask {
  id: string;
  accountId: string;
  tool: string;
  status: McpTaskStatus;
  /** Units of work done (vessels screened) and the whole, when known. */
  done: number;
  total: number | null;
  /** Credits charged so far. */
  credits: number;
  /** Pages of the result stored. */
  pages: number;
  /** Whether a process is still working on it (a cancelled task stops at its next page). */
  running: boolean;
  /** A failed task's JSON-RPC error. */
  error: { code: number; message: string; data?: unknown } | null;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
}

/** What a finished page adds to its task. */
export interface McpTaskPage {
  /** The page's result, stored as it is. */
  body: unknown;
  done: number;
  credits: number;
}

export interface McpTaskStore {
  create(task: Pick<McpTask, "id" | "accountId" | "tool" | "total" | "createdAt" | "expiresAt">): Promise<void>;
  /** The task when it belongs to the account and has not expired; null otherwise (nothing tells the cases apart). */
  get(accountId: string, id: string, now: number): Promise<McpTask | null>;
  /** Stores the next page and adds its work and credits (also after a cancel: the page was charged); whether the task is still working. */
  addPage(id: string, page: McpTaskPage, now: number): Promise<boolean>;
  /** Every stored page's body, in order. */
  pages(id: string): Promise<unknown[]>;
  /** Ends a working task: completed or failed; false when it was no longer working (cancelled meanwhile). */
  finish(id: string, outcome: { status: "completed" } | { status: "failed"; error: McpTask["error"] }, now: number): Promise<boolean>;
  /** Marks a working task of the account cancelled; the task as it then is, or null when there is no such task of the account. */
  cancel(accountId: string, id: string, now: number): Promise<McpTask | null>;
  /** Whether the task is still working: what the runner asks before each page. */
  isWorking(id: string): Promise<boolean>;
  /** Records that no process works on the task any more. */
  stopped(id: string, now: number): Promise<void>;
  /** Deletes the tasks (and their pages) past their expiry; returns how many. */
  deleteExpired(now: number): Promise<number>;
}
