import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * MCP tasks (issue 30): a long tool call run in pages in the background, polled with
 * `tasks/get`. In a scaled deployment the poll may reach another API process than the one
 * doing the work, so the state is here and not in the process: one row per task, owned by an
 * account, and one row per finished page of its result (written as each page completes, so a
 * page is stored once instead of the whole result growing on every page). Rows are deleted
 * once past `expires_at`. The same DDL on both engines.
 */
export function mcpTasks(types: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("mcp_tasks")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("account_id", "text", (c) => c.notNull())
        .addColumn("tool", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("done", "integer", (c) => c.notNull())
        .addColumn("total", "integer")
        .addColumn("credits", "integer", (c) => c.notNull())
        .addColumn("pages", "integer", (c) => c.notNull())
        .addColumn("running", "integer", (c) => c.notNull())
        .addColumn("error", "text")
        .addColumn("created_at", types.bigint, (c) => c.notNull())
        .addColumn("updated_at", types.bigint, (c) => c.notNull())
        .addColumn("expires_at", types.bigint, (c) => c.notNull())
        .execute();
      // The expiry sweep deletes by age; reads go by the primary key.
      await db.schema.createIndex("mcp_tasks_expires_at").on("mcp_tasks").column("expires_at").execute();
      await db.schema
        .createTable("mcp_task_pages")
        .addColumn("task_id", "text", (c) => c.notNull())
        .addColumn("page", "integer", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("mcp_task_pages_pk", ["task_id", "page"])
        .execute();
    },
  };
}
