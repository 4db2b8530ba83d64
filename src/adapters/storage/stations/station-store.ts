import type { Kysely } from "kysely";
import type { Source } from "../../../domain/rights/source.ts";
import { grantOf, sharedStationSource } from "../../../domain/rights/station-source.ts";
import { hashSecret, newSecret, udpSigningKey } from "../../../domain/secrets.ts";
import { NoFreePlainPortError, type Station, type StationSettings, type StationStore } from "../../../interfaces/accounts.ts";
import type { Clock } from "../../../interfaces/clock.ts";
import type { Database, StationsTable } from "../schema.ts";
import type { SecretBox } from "../accounts/secret-box.ts";

type StationRow = Omit<StationsTable, "id" | "share_redistribution" | "share_commercial" | "deleted_at"> & { id: number; share_redistribution: number; share_commercial: number; deleted_at: number | null };

function toStation(r: StationRow): Station {
  return {
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    shared: r.shared === 1,
    grants: { redistribution: r.share_redistribution === 1, commercial: r.share_commercial === 1 },
    sourceName: r.source_name,
    plainPort: r.plain_port,
    allowFrom: r.allow_from === null ? null : r.allow_from.split(","),
    connect: r.connect_to,
    createdAt: r.created_at,
  };
}

/** The range plain NMEA ports are allocated from (INGEST_PLAIN_PORTS). */
export interface PlainPortRange {
  from: number;
  to: number;
}

/** Tries at allocating a plain port before giving up: only concurrent creates collide. */
const ALLOCATION_ATTEMPTS = 5;

function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; errcode?: string; message?: string };
  return err.code === "23505" || /UNIQUE constraint failed/i.test(err.message ?? "");
}

/** What a station store reports as it changes stations, for the caches of station sets. */
export interface StationChanges {
  /** A station's sharing or grants changed (the shared snapshot). */
  sharingChanged?: () => void;
  /** A station was created for the account (its own-station list). */
  created?: (accountId: string) => void;
}

export class SqlStationStore implements StationStore {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  /** Seals each station's UDP signing key: the database never holds it in the clear. */
  readonly #box: SecretBox;
  readonly #ports: PlainPortRange;
  readonly #changes: StationChanges;

  /** `changes`: who is told of a change made in this process, so cached station sets drop it at once. */
  constructor(db: Kysely<Database>, clock: Clock, box: SecretBox, ports: PlainPortRange = { from: 5700, to: 5999 }, changes: StationChanges = {}) {
    this.#db = db;
    this.#clock = clock;
    this.#box = box;
    this.#ports = ports;
    this.#changes = changes;
  }

  /** Every station id of an account, ascending. */
  async ownStationIds(accountId: string): Promise<number[]> {
    return (await this.#db.selectFrom("stations").select("id").where("account_id", "=", accountId).orderBy("id").execute()).map((r) => r.id);
  }

  /** The stored forms of a secret: its digest (found at login) and its sealed UDP signing key. */
  #credentials(secret: string): { secret_hash: string; udp_key: string } {
    return { secret_hash: hashSecret(secret), udp_key: this.#box.seal(udpSigningKey(secret).toString("hex")) };
  }

  async createStation(accountId: string, name: string, settings: StationSettings = {}): Promise<{ station: Station; secret: string }> {
    const secret = newSecret("mds_st");
    const row = await this.#db
      .insertInto("stations")
      .values({ account_id: accountId, name, ...this.#credentials(secret), shared: 0, created_at: this.#clock.now() })
      .returning("id")
      .executeTakeFirstOrThrow();
    this.#changes.created?.(accountId);
    try {
      const station = await this.updateStation(row.id, settings);
      return { station: station!, secret };
    } catch (e) {
      // No half-made station: one without the port it was created for would confuse its owner.
      await this.#db.deleteFrom("stations").where("id", "=", row.id).execute();
      throw e;
    }
  }

  async updateStation(id: number, settings: StationSettings): Promise<Station | null> {
    const set: { shared?: number; share_redistribution?: number; share_commercial?: number; source_name?: string | null; allow_from?: string | null; connect_to?: string | null; plain_port?: null } = {};
    if (settings.shared !== undefined) set.shared = settings.shared ? 1 : 0;
    if (settings.redistribution !== undefined) set.share_redistribution = settings.redistribution ? 1 : 0;
    if (settings.commercial !== undefined) set.share_commercial = settings.commercial ? 1 : 0;
    if (settings.sourceName !== undefined) set.source_name = settings.sourceName;
    if (settings.allowFrom !== undefined) set.allow_from = settings.allowFrom === null ? null : settings.allowFrom.join(",");
    if (settings.connect !== undefined) set.connect_to = settings.connect;
    if (settings.plainPort === false) set.plain_port = null;
    if (Object.keys(set).length > 0) {
      const r = await this.#db.updateTable("stations").set(set).where("id", "=", id).where("deleted_at", "is", null).executeTakeFirst();
      if (r.numUpdatedRows === 0n) return null;
      if (set.shared !== undefined || set.share_redistribution !== undefined || set.share_commercial !== undefined || set.source_name !== undefined) this.#changes.sharingChanged?.();
    }
    if (settings.plainPort === true) await this.#allocatePort(id);
    return this.getStation(id);
  }

  /** The lowest free port of the range; a concurrent create taking it first makes us try the next. */
  async #allocatePort(id: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.#db.selectFrom("stations").select("plain_port").where("id", "=", id).where("deleted_at", "is", null).executeTakeFirst();
      if (!current || current.plain_port !== null) return;
      const used = new Set(
        (await this.#db.selectFrom("stations").select("plain_port").where("plain_port", ">=", this.#ports.from).where("plain_port", "<=", this.#ports.to).execute()).map((r) => r.plain_port),
      );
      let port: number | null = null;
      for (let p = this.#ports.from; p <= this.#ports.to; p++) {
        if (!used.has(p)) {
          port = p;
          break;
        }
      }
      if (port === null) throw new NoFreePlainPortError(this.#ports.from, this.#ports.to);
      try {
        await this.#db.updateTable("stations").set({ plain_port: port }).where("id", "=", id).where("plain_port", "is", null).execute();
        return;
      } catch (e) {
        if (!isUniqueViolation(e) || attempt >= ALLOCATION_ATTEMPTS) throw e;
      }
    }
  }

  async getStation(id: number): Promise<Station | null> {
    if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
    const r = await this.#db.selectFrom("stations").selectAll().where("id", "=", id).where("deleted_at", "is", null).executeTakeFirst();
    return r ? toStation(r) : null;
  }

  /** UDP keys not sealed under the current secrets key (a key rotation) are sealed under it; run at every start. */
  async sealUdpKeys(): Promise<number> {
    const stale = await this.#db
      .selectFrom("stations")
      .select(["id", "udp_key"])
      .where("udp_key", "is not", null)
      .where("udp_key", "not like", `${this.#box.currentPrefix}%`)
      .execute();
    // Conditional on the value read: a process starting at the same time re-seals the same key, either write is right.
    for (const r of stale) await this.#db.updateTable("stations").set({ udp_key: this.#box.reseal(r.udp_key!) }).where("id", "=", r.id).where("udp_key", "=", r.udp_key).execute();
    return stale.length;
  }

  async rotateSecret(stationId: number): Promise<{ station: Station; secret: string } | null> {
    const secret = newSecret("mds_st");
    // A deleted station gets no working secret back.
    const row = await this.#db.updateTable("stations").set(this.#credentials(secret)).where("id", "=", stationId).where("deleted_at", "is", null).returningAll().executeTakeFirst();
    return row ? { station: toStation(row), secret } : null;
  }

  /**
   * Deletes a station as its owner sees it: gone from the list and accepting nothing (a new
   * secret and UDP key nobody knows; plain port, connect-out and sharing released). The row
   * stays, so what it delivered keeps its station and stays the owner's (migration 0030).
   */
  async deleteStation(stationId: number): Promise<boolean> {
    if (!Number.isSafeInteger(stationId) || stationId < 1 || stationId > 2_147_483_647) return false;
    const row = await this.#db
      .updateTable("stations")
      .set({ ...this.#credentials(newSecret("mds_st")), shared: 0, plain_port: null, connect_to: null, deleted_at: this.#clock.now() })
      .where("id", "=", stationId)
      .where("deleted_at", "is", null)
      .returning("id")
      .executeTakeFirst();
    if (!row) return false;
    this.#changes.sharingChanged?.();
    return true;
  }

  async listStations(accountId: string): Promise<Station[]> {
    const rows = await this.#db.selectFrom("stations").selectAll().where("account_id", "=", accountId).where("deleted_at", "is", null).orderBy("id").execute();
    return rows.map(toStation);
  }

  async sharedStations(): Promise<Station[]> {
    const rows = await this.#db.selectFrom("stations").selectAll().where("shared", "=", 1).orderBy("id").execute();
    return rows.map(toStation);
  }

  async sharedSources(): Promise<Source[]> {
    return (await this.sharedStations()).map((s) => {
      const { ownerAccountId: _owner, ...source } = sharedStationSource(grantOf(s));
      return source;
    });
  }

  async receiverStations(): Promise<Station[]> {
    const rows = await this.#db
      .selectFrom("stations")
      .selectAll()
      .where((eb) => eb.or([eb("plain_port", "is not", null), eb("connect_to", "is not", null)]))
      .orderBy("id")
      .execute();
    return rows.map(toStation);
  }
}
