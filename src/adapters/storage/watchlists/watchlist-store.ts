import type { Transaction } from "kysely";
import type { VesselId } from "../../../domain/identifiers.ts";
import { formatId } from "../../../domain/ids.ts";
import type { Watchlist, WatchlistMember, WatchlistMemberMatch, WatchlistStore, WatchlistWrite } from "../../../interfaces/watchlists.ts";
import { chunks, inBatches } from "../batches.ts";
import type { Database, WatchlistsTable } from "../schema.ts";
import { SqlStore } from "../sql-store.ts";

/** Member rows per INSERT: four parameters each, well under SQLite's 32,766. */
const MEMBER_BATCH = 1_000;

function toWatchlist(r: Omit<WatchlistsTable, "id"> & { id: number }): Watchlist {
  return { id: r.id, accountId: r.account_id, name: r.name, memberCount: Number(r.member_count), createdAt: Number(r.created_at), updatedAt: Number(r.updated_at) };
}

export class SqlWatchlistStore extends SqlStore implements WatchlistStore {
  async createWatchlist(accountId: string, name: string, members: readonly VesselId[], limits: { lists: number; members: number }, now: number): Promise<WatchlistWrite> {
    return this.db.transaction().execute(async (trx): Promise<WatchlistWrite> => {
      // Every write of the account's lists queues here, so two creates cannot both see room for one (limited-insert.ts).
      await this.dialect.lockAccount(trx, accountId);
      const held = await trx
        .selectFrom("watchlists")
        .select((eb) => [eb.fn.countAll<number>().as("lists"), eb.fn.coalesce(eb.fn.sum<number>("member_count"), eb.lit(0)).as("members")])
        .where("account_id", "=", accountId)
        .executeTakeFirstOrThrow();
      if (Number(held.lists) >= limits.lists) return { ok: false, reason: "lists", limit: limits.lists };
      if (Number(held.members) + members.length > limits.members) return { ok: false, reason: "members", limit: limits.members };
      const row = await trx
        .insertInto("watchlists")
        .values({ account_id: accountId, name, member_count: members.length, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      await insertMembers(trx, row.id, members);
      return { ok: true, value: toWatchlist(row) };
    });
  }

  async updateWatchlist(accountId: string, id: number, change: { name?: string; members?: readonly VesselId[] }, membersLimit: number, now: number): Promise<WatchlistWrite> {
    return this.db.transaction().execute(async (trx): Promise<WatchlistWrite> => {
      await this.dialect.lockAccount(trx, accountId);
      const list = await trx.selectFrom("watchlists").selectAll().where("account_id", "=", accountId).where("id", "=", id).executeTakeFirst();
      if (!list) return { ok: false, reason: "not_found" };
      let count = Number(list.member_count);
      if (change.members) {
        const held = await trx
          .selectFrom("watchlists")
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("member_count"), eb.lit(0)).as("members"))
          .where("account_id", "=", accountId)
          .executeTakeFirstOrThrow();
        const after = Number(held.members) - count + change.members.length;
        // Shrinking a list is always allowed: an account over its limit after a downgrade keeps what it has, but cannot grow.
        if (after > membersLimit && change.members.length > count) return { ok: false, reason: "members", limit: membersLimit };
        await trx.deleteFrom("watchlist_members").where("watchlist_id", "=", id).execute();
        await insertMembers(trx, id, change.members);
        count = change.members.length;
      }
      const row = await trx
        .updateTable("watchlists")
        .set({ name: change.name ?? list.name, member_count: count, updated_at: now })
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { ok: true, value: toWatchlist(row) };
    });
  }

  async listWatchlists(accountId: string): Promise<Watchlist[]> {
    return (await this.db.selectFrom("watchlists").selectAll().where("account_id", "=", accountId).orderBy("id").execute()).map(toWatchlist);
  }

  async getWatchlist(accountId: string, id: number): Promise<Watchlist | null> {
    const r = await this.db.selectFrom("watchlists").selectAll().where("account_id", "=", accountId).where("id", "=", id).executeTakeFirst();
    return r ? toWatchlist(r) : null;
  }

  async watchlistMembers(watchlistId: number, afterPosition: number, limit: number): Promise<WatchlistMember[]> {
    const rows = await this.db
      .selectFrom("watchlist_members")
      .select(["position", "imo", "mmsi"])
      .where("watchlist_id", "=", watchlistId)
      .where("position", ">", afterPosition)
      .orderBy("position")
      .limit(limit)
      .execute();
    return rows.map((r) => ({ position: Number(r.position), imo: r.imo, mmsi: r.mmsi }));
  }

  async deleteWatchlist(accountId: string, id: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const owned = await trx.selectFrom("watchlists").select("id").where("account_id", "=", accountId).where("id", "=", id).executeTakeFirst();
      if (!owned) return false;
      await trx.deleteFrom("watchlist_members").where("watchlist_id", "=", id).execute();
      await trx.deleteFrom("watchlists").where("id", "=", id).execute();
      return true;
    });
  }

  async watchlistMembersMatching(imos: readonly number[], mmsis: readonly number[]): Promise<WatchlistMemberMatch[]> {
    const found = new Map<string, WatchlistMemberMatch & { order: [number, number] }>();
    const pieces: ["imo" | "mmsi", number[]][] = [...chunks([...new Set(imos)]).map((c) => ["imo", c] as ["imo", number[]]), ...chunks([...new Set(mmsis)]).map((c) => ["mmsi", c] as ["mmsi", number[]])];
    // One indexed IN read per piece of each identifier kind: the members' imo and mmsi indexes answer them.
    for (const [column, values] of pieces) {
      const rows = await this.db
        .selectFrom("watchlist_members as m")
        .innerJoin("watchlists as w", "w.id", "m.watchlist_id")
        .select(["m.watchlist_id", "m.position", "m.imo", "m.mmsi", "w.account_id", "w.name"])
        .where(`m.${column}`, "in", values)
        .execute();
      for (const r of rows) {
        found.set(`${r.watchlist_id}:${r.position}`, {
          watchlistId: formatId("wl", r.watchlist_id),
          accountId: r.account_id,
          watchlistName: r.name,
          imo: r.imo,
          mmsi: r.mmsi,
          order: [r.watchlist_id, Number(r.position)],
        });
      }
    }
    return [...found.values()].sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]).map(({ order: _order, ...match }) => match);
  }
}

/** The members in the order given, numbered from 1. */
async function insertMembers(trx: Transaction<Database>, watchlistId: number, members: readonly VesselId[]): Promise<void> {
  const rows = members.map((m, i) => ({ watchlist_id: watchlistId, position: i + 1, imo: m.kind === "imo" ? m.imo : null, mmsi: m.kind === "mmsi" ? m.mmsi : null }));
  await inBatches(rows, MEMBER_BATCH, (batch) => trx.insertInto("watchlist_members").values(batch).execute());
}
