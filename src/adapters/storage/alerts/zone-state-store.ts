import { SqlStore } from "../sql-store.ts";
import type { ZoneMembership } from "../../../domain/alerts/zone-tracker.ts";
import type { QueuedFix, ZoneCommit, ZonePresence, ZoneStateStore } from "../../../interfaces/alerts.ts";
import type { BulkRow } from "../dialect/dialect.ts";
import { writeAlerts } from "./webhook-outbox.ts";

/** Members of one IN list. */
const CHUNK = 500;

const PRESENCE_CONFLICT = `ON CONFLICT (account_id, mmsi) DO UPDATE SET last_time = excluded.last_time, last_seen = excluded.last_seen, zones = excluded.zones`;

/** The `alert_cursors` row counting the zone state's commits. */
const ZONE_STATE_VERSION = "zone_state_version";

/** Thrown inside the commit transaction to roll it back when the page changed under it. */
class PageTaken extends Error {}

/**
 * The zone queue and vessel state on SQLite or PostgreSQL (0012-zone-state.ts). The queue
 * is filled by the positions store in the ingest transaction; this store drains it.
 */
export class SqlZoneStateStore extends SqlStore implements ZoneStateStore {

  async queued(limit: number): Promise<QueuedFix[]> {
    const rows = await this.db.selectFrom("zone_feed").selectAll().orderBy("id").limit(limit).execute();
    return rows.map((r) => ({
      id: Number(r.id),
      fix: { mmsi: r.mmsi, time: Number(r.time), stationId: r.station_id, lat: r.lat, lon: r.lon, sog: r.sog, cog: r.cog, heading: null, navStatus: null },
    }));
  }

  async presence(): Promise<ZonePresence[]> {
    const rows = await this.db.selectFrom("zone_presence").selectAll().execute();
    return rows.map((r) => ({
      accountId: r.account_id,
      mmsi: r.mmsi,
      lastTime: Number(r.last_time),
      lastSeen: Number(r.last_seen),
      zones: r.zones === null ? null : (JSON.parse(r.zones) as [number, ZoneMembership][]),
    }));
  }

  async stateVersion(): Promise<number> {
    await this.db.insertInto("alert_cursors").values({ name: ZONE_STATE_VERSION, value: 0 }).onConflict((oc) => oc.column("name").doNothing()).execute();
    const r = await this.db.selectFrom("alert_cursors").select("value").where("name", "=", ZONE_STATE_VERSION).executeTakeFirstOrThrow();
    return Number(r.value);
  }

  async commit(page: ZoneCommit, now: number): Promise<{ consumed: boolean; alerts: number; deliveries: number }> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        // The delete is the cursor move: it must take exactly the rows evaluated. More (a
        // fix committed late inside the range) or fewer (another process drained them) and
        // the page is evaluated again from fresh state.
        // Evaluated on the latest state, or not at all: with several ingest processes, one
        // that read the state before another's commit would miss that commit's entries.
        const moved = await trx
          .updateTable("alert_cursors")
          .set({ value: page.version + 1 })
          .where("name", "=", ZONE_STATE_VERSION)
          .where("value", "=", page.version)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) throw new PageTaken();
        if (page.count > 0) {
          const gone = await trx.deleteFrom("zone_feed").where("id", ">=", page.first).where("id", "<=", page.last).executeTakeFirst();
          if (Number(gone.numDeletedRows) !== page.count) throw new PageTaken();
        }
        const rows: BulkRow[] = page.save.map((p) => [p.accountId, p.mmsi, p.lastTime, p.lastSeen, p.zones === null ? null : JSON.stringify(p.zones)]);
        await this.dialect.bulkInsert(trx, {
          table: "zone_presence",
          columns: ["account_id", "mmsi", "last_time", "last_seen", "zones"],
          types: ["text", "int4", "int8", "int8", "text"],
          rows,
          tail: PRESENCE_CONFLICT,
        });
        const byAccount = new Map<string, number[]>();
        for (const f of page.forget) byAccount.set(f.accountId, [...(byAccount.get(f.accountId) ?? []), f.mmsi]);
        for (const [accountId, mmsis] of byAccount) {
          for (let at = 0; at < mmsis.length; at += CHUNK) {
            await trx.deleteFrom("zone_presence").where("account_id", "=", accountId).where("mmsi", "in", mmsis.slice(at, at + CHUNK)).execute();
          }
        }
        const r = await writeAlerts(trx, this.dialect, page.alerts, now);
        return { consumed: true, ...r };
      });
    } catch (e) {
      if (e instanceof PageTaken) return { consumed: false, alerts: 0, deliveries: 0 };
      throw e;
    }
  }
}
