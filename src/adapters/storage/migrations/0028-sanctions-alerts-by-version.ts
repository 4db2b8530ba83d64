import { type Kysely, type Migration, sql } from "kysely";

/**
 * `alert.sanctions` now reads whole list versions (listings, delistings and changes) after a
 * cursor named `sanctions_versions`, instead of listing events after `sanctions_events`.
 * The new cursor starts where the old one stopped, so nothing raised before is raised again
 * and nothing already read is read as new: a reader that had read every event had seen
 * every version; one stopped inside the events has done the versions before the one it
 * stopped in, and that one too when it stopped at its last event. The old cursor stays
 * (unread). Data only; the same statements on both engines.
 */
export function sanctionsAlertsByVersion(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const old = await sql<{ value: number | string }>`SELECT value FROM alert_cursors WHERE name = 'sanctions_events'`.execute(db);
      const read = old.rows[0] ? Number(old.rows[0].value) : 0;
      if (read <= 0) return;
      const last = await sql<{ id: number | string | null }>`SELECT MAX(id) AS id FROM sanctions_events`.execute(db);
      let done: number;
      if (read >= Number(last.rows[0]?.id ?? 0)) {
        const v = await sql<{ id: number | string | null }>`SELECT MAX(id) AS id FROM sanctions_versions`.execute(db);
        done = Number(v.rows[0]?.id ?? 0);
      } else {
        const at = await sql<{ version_id: number | string }>`SELECT version_id FROM sanctions_events WHERE id <= ${read} ORDER BY id DESC LIMIT 1`.execute(db);
        const version = Number(at.rows[0]?.version_id ?? 0);
        const more = await sql<{ id: number | string }>`SELECT id FROM sanctions_events WHERE version_id = ${version} AND id > ${read} LIMIT 1`.execute(db);
        done = more.rows.length > 0 ? version - 1 : version;
      }
      if (done > 0) await sql`INSERT INTO alert_cursors (name, value) VALUES ('sanctions_versions', ${done})`.execute(db);
    },
  };
}
