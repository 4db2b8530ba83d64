/** MCP tasks and the pages of their results (migration 0034). */

export interface McpTasksTable {
  /** `task_...`, random: the id is the only thing a poll names. */
  id: string;
  account_id: string;
  /** The tool the task runs. */
  tool: string;
  /** working, completed, failed or cancelled. */
  status: string;
  /** Units of work done (vessels screened) and, when known, of the whole. */
  done: number;
  total: number | null;
  /** Credits charged so far, page by page. */
  credits: number;
  /** Pages stored in mcp_task_pages, numbered from 0. */
  pages: number;
  /** 1 while a process works on it; 0 once the work stopped, whatever the status. */
  running: number;
  /** The JSON-RPC error of a failed task, as JSON text. */
  error: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
}

export interface McpTaskPagesTable {
  task_id: string;
  page: number;
  /** One page's result as JSON text. */
  body: string;
}
