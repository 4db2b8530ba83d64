import type { Kysely } from "kysely";
import { FEED_KIND_INFO, type FeedKind, isFeedKind } from "../../../domain/feeds/kinds.ts";
import { hashSecret, newSecret } from "../../../domain/secrets.ts";
import type { Clock } from "../../../interfaces/clock.ts";
import { type Feed, FeedExistsError, type FeedStatus, type FeedStore, type FeedWithStatus, type NewFeed } from "../../../interfaces/feeds.ts";
import { FEEDS_ACCOUNT_ID } from "../migrations/0016-feeds.ts";
import type { Database, FeedsTable } from "../schema.ts";
import type { SecretBox } from "../accounts/secret-box.ts";
import { isUniqueViolation } from "../accounts/users-store.ts";

const STATES = new Set(["connecting", "connected", "waiting", "stopped"]);

function toFeed(r: FeedsTable): FeedWithStatus {
  const kind: FeedKind = isFeedKind(r.kind) ? r.kind : "kystverket";
  const status: FeedStatus | null =
    r.reported_at === null
      ? null
      : {
          state: STATES.has(r.state ?? "") ? (r.state as FeedStatus["state"]) : "stopped",
          lastMessageAt: r.last_message_at === null ? null : Number(r.last_message_at),
          ratePerSecond: r.rate ?? 0,
          alarm: r.alarm === "silent" || r.alarm === "down" ? r.alarm : null,
          alarmSince: r.alarm_since === null ? null : Number(r.alarm_since),
          lastError: r.last_error,
          reportedAt: Number(r.reported_at),
        };
  return { name: r.name, kind, url: r.url, stationId: r.station_id, hasKey: r.key_sealed !== null, createdAt: Number(r.created_at), status };
}

/** Feeds and their stations (migration 0016); keys sealed with the webhook secrets' box. */
export class SqlFeedStore implements FeedStore {
  readonly #db: Kysely<Database>;
  readonly #box: SecretBox;
  readonly #clock: Clock;

  constructor(db: Kysely<Database>, box: SecretBox, clock: Clock) {
    this.#db = db;
    this.#box = box;
    this.#clock = clock;
  }

  async add(feed: NewFeed): Promise<Feed> {
    const now = this.#clock.now();
    try {
      return await this.#db.transaction().execute(async (tx) => {
        const taken = await tx.selectFrom("feeds").select("station_id").where("name", "=", feed.name).where("removed_at", "is", null).executeTakeFirst();
        if (taken) throw new FeedExistsError(feed.name);
        // The station's secret is never shown: a feed's data comes in through the connector, not a listener.
        const station = await tx
          .insertInto("stations")
          .values({ account_id: FEEDS_ACCOUNT_ID, name: `feed:${feed.name}`, secret_hash: hashSecret(newSecret("mds_st")), shared: 0, created_at: now })
          .returning("id")
          .executeTakeFirstOrThrow();
        const row: FeedsTable = {
          station_id: station.id,
          name: feed.name,
          kind: feed.kind,
          url: feed.url,
          key_sealed: feed.key === null ? null : this.#box.seal(feed.key),
          created_at: now,
          removed_at: null,
          state: null,
          last_message_at: null,
          rate: null,
          alarm: null,
          alarm_since: null,
          last_error: null,
          reported_at: null,
        };
        await tx.insertInto("feeds").values(row).execute();
        return toFeed(row);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new FeedExistsError(feed.name);
      throw e;
    }
  }

  async list(): Promise<FeedWithStatus[]> {
    const rows = await this.#db.selectFrom("feeds").selectAll().where("removed_at", "is", null).orderBy("name").execute();
    return rows.map(toFeed);
  }

  async remove(name: string): Promise<boolean> {
    const r = await this.#db.updateTable("feeds").set({ removed_at: this.#clock.now(), state: "stopped", alarm: null, alarm_since: null }).where("name", "=", name).where("removed_at", "is", null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async key(name: string): Promise<string | null> {
    const r = await this.#db.selectFrom("feeds").select("key_sealed").where("name", "=", name).where("removed_at", "is", null).executeTakeFirst();
    return r?.key_sealed ? this.#box.open(r.key_sealed) : null;
  }

  async writeStatus(name: string, s: FeedStatus): Promise<void> {
    await this.#db
      .updateTable("feeds")
      .set({
        state: s.state,
        last_message_at: s.lastMessageAt,
        rate: s.ratePerSecond,
        alarm: s.alarm,
        alarm_since: s.alarmSince,
        last_error: s.lastError === null ? null : s.lastError.slice(0, 500),
        reported_at: s.reportedAt,
      })
      .where("name", "=", name)
      .where("removed_at", "is", null)
      .execute();
  }

  async stations(): Promise<{ stationId: number; sourceId: string }[]> {
    const rows = await this.#db.selectFrom("feeds").select(["station_id", "kind"]).orderBy("station_id").execute();
    return rows.filter((r) => isFeedKind(r.kind)).map((r) => ({ stationId: r.station_id, sourceId: FEED_KIND_INFO[r.kind as FeedKind].sourceId }));
  }
}

