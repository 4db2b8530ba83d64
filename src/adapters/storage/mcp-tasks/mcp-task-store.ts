import type { Kysely, Selectable } from "kysely";
import type { McpTask, McpTaskPage, McpTaskStatus, McpTaskStore } from "../../../interfaces/mcp-tasks.ts";
import type { Database, McpTasksTable } from "../schema.ts";

function taskOf(r: Selectable<McpTasksTable>): McpTask {
  return {
    id: r.id,
    accountId: r.account_id,
    tool: r.tool,
    status: r.status as McpTaskStatus,
    done: Number(r.done),
    total: r.total === null ? null : Number(r.total),
    credits: Number(r.credits),
    pages: Number(r.pages),
    running: Number(r.running) === 1,
    error: r.error === null ? null : (JSON.parse(r.error) as McpTask["error"]),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    expiresAt: Number(r.expires_at),
  };
}

/** MCP tasks in the main store, both engines: every process of a deployment reads the same rows. */
export class SqlMcpTaskStore implements McpTaskStore {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async create(task: Pick<McpTask, "id" | "accountId" | "tool" | "total" | "createdAt" | "expiresAt">): Promise<void> {
    await this.#db
      .insertInto("mcp_tasks")
      .values({
        id: task.id,
        account_id: task.accountId,
        tool: task.tool,
        status: "working",
        done: 0,
        total: task.total,
        credits: 0,
        pages: 0,
        running: 1,
        error: null,
        created_at: task.createdAt,
        updated_at: task.createdAt,
        expires_at: task.expiresAt,
      })
      .execute();
  }

  async get(accountId: string, id: string, now: number): Promise<McpTask | null> {
    const r = await this.#db.selectFrom("mcp_tasks").selectAll().where("id", "=", id).where("account_id", "=", accountId).where("expires_at", ">", now).executeTakeFirst();
    return r ? taskOf(r) : null;
  }

  async addPage(id: string, page: McpTaskPage, now: number): Promise<boolean> {
    return this.#db.transaction().execute(async (tx) => {
      // Counted whatever the status: a page that completed after a cancel was still charged.
      // The row is updated first, so its lock orders the page numbers of one task.
      const r = await tx
        .updateTable("mcp_tasks")
        .set((eb) => ({ done: eb("done", "+", page.done), credits: eb("credits", "+", page.credits), pages: eb("pages", "+", 1), updated_at: now }))
        .where("id", "=", id)
        .returning(["pages", "status"])
        .executeTakeFirst();
      if (!r) return false;
      await tx.insertInto("mcp_task_pages").values({ task_id: id, page: Number(r.pages) - 1, body: JSON.stringify(page.body) }).execute();
      return r.status === "working";
    });
  }

  async pages(id: string): Promise<unknown[]> {
    const rows = await this.#db.selectFrom("mcp_task_pages").select("body").where("task_id", "=", id).orderBy("page").execute();
    return rows.map((r) => JSON.parse(r.body) as unknown);
  }

  async finish(id: string, outcome: { status: "completed" } | { status: "failed"; error: McpTask["error"] }, now: number): Promise<boolean> {
    const r = await this.#db
      .updateTable("mcp_tasks")
      .set({ status: outcome.status, error: outcome.status === "failed" ? JSON.stringify(outcome.error) : null, running: 0, updated_at: now })
      .where("id", "=", id)
      .where("status", "=", "working")
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async cancel(accountId: string, id: string, now: number): Promise<McpTask | null> {
    await this.#db.updateTable("mcp_tasks").set({ status: "cancelled", updated_at: now }).where("id", "=", id).where("account_id", "=", accountId).where("status", "=", "working").where("expires_at", ">", now).execute();
    return this.get(accountId, id, now);
  }

  async isWorking(id: string): Promise<boolean> {
    const r = await this.#db.selectFrom("mcp_tasks").select("status").where("id", "=", id).executeTakeFirst();
    return r?.status === "working";
  }

  async stopped(id: string, now: number): Promise<void> {
    await this.#db.updateTable("mcp_tasks").set({ running: 0, updated_at: now }).where("id", "=", id).execute();
  }

  async deleteExpired(now: number): Promise<number> {
    return this.#db.transaction().execute(async (tx) => {
      const expired = tx.selectFrom("mcp_tasks").select("id").where("expires_at", "<=", now);
      await tx.deleteFrom("mcp_task_pages").where("task_id", "in", expired).execute();
      const r = await tx.deleteFrom("mcp_tasks").where("expires_at", "<=", now).executeTakeFirst();
      return Number(r.numDeletedRows);
    });
  }
}
