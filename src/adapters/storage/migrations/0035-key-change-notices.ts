import { type Kysely, type Migration, sql } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * The PostgreSQL channel on which the database itself announces a change to what an API key
 * may do. Fixed by this migration (the triggers name it); the listener reads it from here.
 */
export const KEY_CHANGES_CHANNEL = "mds_key_changes";

/**
 * PostgreSQL without Redis (issue 31): each process caches key lookups, and must hear of a
 * revocation or a plan or allowance change made by any other process to keep a key longer
 * than a second. Triggers send the notice from the database, at commit, so every path that
 * writes these rows is covered: the web pages, `mds keys revoke` in another process, any
 * operation, an operator's direct SQL. The payload names what changed: `key:<id>` (revoked,
 * re-hashed, moved or deleted) or `account:<id>` (plans, credits or rate changed, or deleted).
 * Only the columns a key lookup reads fire them; `last_used_at`, written as keys are used,
 * does not. SQLite has no NOTIFY (its processes watch the file's version instead): nothing there.
 */
export function keyChangeNotices({ engine }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine !== "postgres") return;
      await sql`
        CREATE FUNCTION mds_announce_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify(${sql.lit(KEY_CHANGES_CHANNEL)}, CASE WHEN TG_TABLE_NAME = 'api_keys' THEN 'key:' ELSE 'account:' END || OLD.id);
          RETURN NULL;
        END
        $$`.execute(db);
      await sql`
        CREATE TRIGGER api_keys_announce_change AFTER UPDATE OF revoked_at, hash, account_id ON api_keys FOR EACH ROW
        WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.hash IS DISTINCT FROM NEW.hash OR OLD.account_id IS DISTINCT FROM NEW.account_id)
        EXECUTE FUNCTION mds_announce_key_change()`.execute(db);
      await sql`CREATE TRIGGER api_keys_announce_delete AFTER DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION mds_announce_key_change()`.execute(db);
      await sql`
        CREATE TRIGGER accounts_announce_change AFTER UPDATE OF web_plan, api_plan, monthly_credits, extra_monthly_credits, rate_per_second ON accounts FOR EACH ROW
        WHEN (OLD.web_plan IS DISTINCT FROM NEW.web_plan OR OLD.api_plan IS DISTINCT FROM NEW.api_plan OR OLD.monthly_credits IS DISTINCT FROM NEW.monthly_credits
          OR OLD.extra_monthly_credits IS DISTINCT FROM NEW.extra_monthly_credits OR OLD.rate_per_second IS DISTINCT FROM NEW.rate_per_second)
        EXECUTE FUNCTION mds_announce_key_change()`.execute(db);
      await sql`CREATE TRIGGER accounts_announce_delete AFTER DELETE ON accounts FOR EACH ROW EXECUTE FUNCTION mds_announce_key_change()`.execute(db);
    },
  };
}
