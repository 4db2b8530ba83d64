import type { Kysely } from "kysely";
import { ARCHIVE_SLOT_MS } from "../../../domain/tracks/window.ts";
import { type ArchivePoint, type ArchiveRange, type ArchiveStore, ArchiveUnavailableError, type TrackPoint } from "../../../interfaces/tracks.ts";
import { openDatabase } from "../database.ts";
import type { BulkRow, SqlDialect } from "../dialect/dialect.ts";

/**
 * The position archive: a store of its own (a second SQLite file by default, or a second
 * PostgreSQL database), so the main store stays small and the archive can live on cheaper
 * disks or be down without taking the API with it. Tracks that need it then fail with
 * archive_unavailable; everything else keeps working.
 *
 * One row per vessel, station and 10-minute slot (the last fix of the slot), without
 * navigational status. The key is (mmsi, slot, station_id): a track is one range read, and
 * a compaction that stopped half-way and runs again writes the same rows.
 */

interface ArchiveDatabase {
  archive_positions: {
    mmsi: number;
    slot: number;
    station_id: number;
    time: number;
    lat: number;
    lon: number;
    sog: number | null;
    cog: number | null;
  };
}

export type ArchiveLocation = { engine: "sqlite"; file: string } | { engine: "postgres"; url: string; onIdleError?: (err: Error) => void };

/** How long a PostgreSQL archive may take to accept a connection before the track fails (503). */
const CONNECT_TIMEOUT_MS = 3_000;

export class SqlArchiveStore implements ArchiveStore {
  readonly #location: ArchiveLocation;
  #db: Kysely<ArchiveDatabase> | null = null;
  #dialect: SqlDialect | null = null;
  #opening: Promise<Kysely<ArchiveDatabase>> | null = null;
  #closed = false;

  constructor(location: ArchiveLocation) {
    this.#location = location;
  }

  /**
   * Opens on first use, not at start: an archive that is down must not stop the service
   * from starting. A failed open is retried by the next call.
   */
  async #open(): Promise<Kysely<ArchiveDatabase>> {
    if (this.#closed) throw new ArchiveUnavailableError("the archive is stopped");
    if (this.#db) return this.#db;
    this.#opening ??= (async () => {
      const { db, dialect } = openDatabase<ArchiveDatabase>(this.#location, { size: 4, connectTimeoutMs: CONNECT_TIMEOUT_MS });
      try {
        await dialect.createArchiveTable(db);
      } catch (e) {
        await db.destroy().catch(() => undefined);
        throw e;
      }
      this.#dialect = dialect;
      this.#db = db;
      return db;
    })().finally(() => {
      this.#opening = null;
    });
    return this.#opening;
  }

  /** Runs `fn` on the archive; any failure to reach it becomes ArchiveUnavailableError. */
  async #use<T>(fn: (db: Kysely<ArchiveDatabase>) => Promise<T>): Promise<T> {
    try {
      return await fn(await this.#open());
    } catch (e) {
      if (e instanceof ArchiveUnavailableError) throw e;
      throw new ArchiveUnavailableError(`the archive cannot be reached: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  }

  async read(range: ArchiveRange): Promise<TrackPoint[]> {
    if (range.stationIds.length === 0 || range.to <= range.from) {
      // Still reach the archive: a window that needs it must fail when it is down, data or not.
      await this.#use(async () => undefined);
      return [];
    }
    return this.#use(async (db) => {
      const rows = await db
        .selectFrom("archive_positions")
        .select(["time", "station_id", "lat", "lon", "sog", "cog"])
        .where("mmsi", "=", range.mmsi)
        .where("slot", ">=", Math.floor(range.from / ARCHIVE_SLOT_MS))
        .where("slot", "<=", Math.floor((range.to - 1) / ARCHIVE_SLOT_MS))
        .where("time", ">=", range.from)
        .where("time", "<", range.to)
        .where("station_id", "in", [...range.stationIds])
        .orderBy("slot")
        .orderBy("time")
        .execute();
      return rows.map((r) => ({ time: Number(r.time), stationId: r.station_id, lat: r.lat, lon: r.lon, sog: r.sog, cog: r.cog, navStatus: null }));
    });
  }

  async upsert(points: readonly ArchivePoint[]): Promise<void> {
    if (points.length === 0) return;
    await this.#use(async (db) => {
      const rows = points.map((p): BulkRow => [p.mmsi, Math.floor(p.time / ARCHIVE_SLOT_MS), p.stationId, p.time, p.lat, p.lon, p.sog, p.cog]);
      const dialect = this.#dialect!;
      await db.transaction().execute((tx) =>
        dialect.bulkInsert(tx, {
          table: "archive_positions",
          columns: ["mmsi", "slot", "station_id", "time", "lat", "lon", "sog", "cog"],
          types: ["int4", "int4", "int4", "int8", "float8", "float8", "float8", "float8"],
          rows,
          // The slot keeps its last fix: a compaction that read the slot in two parts ends with the later one.
          tail: `ON CONFLICT (mmsi, slot, station_id) DO UPDATE SET "time" = excluded."time", lat = excluded.lat, lon = excluded.lon, sog = excluded.sog, cog = excluded.cog
           WHERE excluded."time" > archive_positions."time"`,
        }),
      );
    });
  }

  async count(): Promise<number> {
    return this.#use(async (db) => {
      const r = await db.selectFrom("archive_positions").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      return Number(r.n);
    });
  }

  /** Stops the archive: later calls fail as unavailable. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const db = this.#db ?? (this.#opening ? await this.#opening.catch(() => null) : null);
    this.#db = null;
    await db?.destroy();
  }
}
