import { SqlStore } from "../sql-store.ts";
import type { Polygon } from "../../../domain/alerts/geometry.ts";
import type { AlertStore, Follow, LimitedInsert, SavedSearch, Zone } from "../../../interfaces/alerts.ts";
import { chunks } from "../batches.ts";
import { insertWithinLimit } from "../limited-insert.ts";
import type { AlertFollowsTable, AlertSavedSearchesTable, AlertZonesTable } from "../schema.ts";

type Row<T extends { id: unknown }> = Omit<T, "id"> & { id: number };

function toFollow(r: Row<AlertFollowsTable>): Follow {
  return { id: r.id, accountId: r.account_id, kind: r.kind, imo: r.imo, mmsi: r.mmsi, unlocode: r.unlocode, createdAt: r.created_at };
}

function toZone(r: Row<AlertZonesTable>): Zone {
  return {
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    geometry: JSON.parse(r.geometry) as Polygon,
    bbox: { minLon: r.min_lon, minLat: r.min_lat, maxLon: r.max_lon, maxLat: r.max_lat },
    createdAt: r.created_at,
  };
}

function toSearch(r: Row<AlertSavedSearchesTable>): SavedSearch {
  return { id: r.id, accountId: r.account_id, name: r.name, q: r.q, kind: r.kind, createdAt: r.created_at };
}

function followRef(f: Pick<Follow, "kind" | "imo" | "mmsi" | "unlocode">): string {
  if (f.kind === "port") return `unlocode:${f.unlocode}`;
  return f.imo !== null ? `imo:${f.imo}` : `mmsi:${f.mmsi}`;
}

export class SqlAlertStore extends SqlStore implements AlertStore {

  async addFollow(accountId: string, follow: Pick<Follow, "kind" | "imo" | "mmsi" | "unlocode">, limit: number, now: number): Promise<LimitedInsert<Follow>> {
    const ref = followRef(follow);
    const existing = await this.db.selectFrom("alert_follows").selectAll().where("account_id", "=", accountId).where("ref", "=", ref).executeTakeFirst();
    if (existing) return { ok: false, reason: "duplicate", existing: toFollow(existing) };
    const r = await insertWithinLimit(this.db, this.dialect, "alert_follows", accountId, limit, (trx) =>
      trx
        .insertInto("alert_follows")
        .values({ account_id: accountId, kind: follow.kind, imo: follow.imo, mmsi: follow.mmsi, unlocode: follow.unlocode, ref, created_at: now })
        // A concurrent create of the same follow: the unique key keeps one, this one returns nothing.
        .onConflict((oc) => oc.columns(["account_id", "ref"]).doNothing())
        .returningAll()
        .executeTakeFirst(),
    );
    if (!r.ok) return { ok: false, reason: "limit", limit: r.limit };
    if (r.value) return { ok: true, value: toFollow(r.value) };
    const again = await this.db.selectFrom("alert_follows").selectAll().where("account_id", "=", accountId).where("ref", "=", ref).executeTakeFirstOrThrow();
    return { ok: false, reason: "duplicate", existing: toFollow(again) };
  }

  async listFollows(accountId: string): Promise<Follow[]> {
    return (await this.db.selectFrom("alert_follows").selectAll().where("account_id", "=", accountId).orderBy("id").execute()).map(toFollow);
  }

  async deleteFollow(accountId: string, id: number): Promise<boolean> {
    const r = await this.db.deleteFrom("alert_follows").where("account_id", "=", accountId).where("id", "=", id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async vesselFollowers(imos: readonly number[], mmsis: readonly number[]): Promise<Follow[]> {
    if (imos.length === 0 && mmsis.length === 0) return [];
    // A page of sanctions changes asks for thousands of ids at once: IN lists of bounded size, one indexed read each.
    const byId = new Map<number, Follow>();
    for (const [column, values] of [
      ["imo", [...new Set(imos)]],
      ["mmsi", [...new Set(mmsis)]],
    ] as const) {
      for (const chunk of chunks(values)) {
        const rows = await this.db.selectFrom("alert_follows").selectAll().where("kind", "=", "vessel").where(column, "in", chunk).execute();
        for (const r of rows) byId.set(r.id, toFollow(r));
      }
    }
    return [...byId.values()].sort((a, b) => a.id - b.id);
  }

  async portFollowers(unlocodes: readonly string[]): Promise<Follow[]> {
    if (unlocodes.length === 0) return [];
    const rows = await this.db.selectFrom("alert_follows").selectAll().where("kind", "=", "port").where("unlocode", "in", [...unlocodes]).orderBy("id").execute();
    return rows.map(toFollow);
  }

  async addZone(accountId: string, zone: Pick<Zone, "name" | "geometry" | "bbox">, limit: number, now: number): Promise<LimitedInsert<Zone>> {
    const r = await insertWithinLimit(this.db, this.dialect, "alert_zones", accountId, limit, (trx) =>
      trx
        .insertInto("alert_zones")
        .values({
          account_id: accountId,
          name: zone.name,
          geometry: JSON.stringify(zone.geometry),
          min_lon: zone.bbox.minLon,
          min_lat: zone.bbox.minLat,
          max_lon: zone.bbox.maxLon,
          max_lat: zone.bbox.maxLat,
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return r.ok ? { ok: true, value: toZone(r.value) } : { ok: false, reason: "limit", limit: r.limit };
  }

  async listZones(accountId: string): Promise<Zone[]> {
    return (await this.db.selectFrom("alert_zones").selectAll().where("account_id", "=", accountId).orderBy("id").execute()).map(toZone);
  }

  async getZone(accountId: string, id: number): Promise<Zone | null> {
    const r = await this.db.selectFrom("alert_zones").selectAll().where("account_id", "=", accountId).where("id", "=", id).executeTakeFirst();
    return r ? toZone(r) : null;
  }

  async deleteZone(accountId: string, id: number): Promise<boolean> {
    const r = await this.db.deleteFrom("alert_zones").where("account_id", "=", accountId).where("id", "=", id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async allZones(): Promise<Zone[]> {
    return (await this.db.selectFrom("alert_zones").selectAll().orderBy("id").execute()).map(toZone);
  }

  async addSavedSearch(accountId: string, search: Pick<SavedSearch, "name" | "q" | "kind">, limit: number, now: number): Promise<LimitedInsert<SavedSearch>> {
    const r = await insertWithinLimit(this.db, this.dialect, "alert_saved_searches", accountId, limit, (trx) =>
      trx
        .insertInto("alert_saved_searches")
        .values({ account_id: accountId, name: search.name, q: search.q, kind: search.kind, created_at: now })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return r.ok ? { ok: true, value: toSearch(r.value) } : { ok: false, reason: "limit", limit: r.limit };
  }

  async listSavedSearches(accountId: string): Promise<SavedSearch[]> {
    return (await this.db.selectFrom("alert_saved_searches").selectAll().where("account_id", "=", accountId).orderBy("id").execute()).map(toSearch);
  }

  async allSavedSearches(): Promise<SavedSearch[]> {
    return (await this.db.selectFrom("alert_saved_searches").selectAll().orderBy("id").execute()).map(toSearch);
  }

  async deleteSavedSearch(accountId: string, id: number): Promise<boolean> {
    const r = await this.db.deleteFrom("alert_saved_searches").where("account_id", "=", accountId).where("id", "=", id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async cursor(name: string): Promise<number> {
    const r = await this.db.selectFrom("alert_cursors").select("value").where("name", "=", name).executeTakeFirst();
    return r ? Number(r.value) : 0;
  }
}
