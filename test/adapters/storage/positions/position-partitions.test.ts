import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Kysely, type Migration, Migrator, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { compact } from "../../../../src/adapters/archive/compact.ts";
import { SqlArchiveStore } from "../../../../src/adapters/storage/positions/archive-store.ts";
import { openStore, type Store } from "../../../../src/adapters/storage/database.ts";
import { columnTypes } from "../../../../src/adapters/storage/migrations/column-types.ts";
import { allMigrations } from "../../../../src/adapters/storage/migrations/index.ts";
import { dayStart, DAYS_AHEAD, partitionName, PositionPartitions } from "../../../../src/adapters/storage/positions/position-partitions.ts";
import { SqlTrackStore } from "../../../../src/adapters/storage/positions/track-store.ts";

const ADMIN = process.env.DATABASE_URL;
const DAY = 86_400_000;

/** Migrations up to and including `last`, as a deployment made before migration 0020 has them. */
function upTo(last: string): Record<string, Migration> {
  return Object.fromEntries(Object.entries(allMigrations(columnTypes("postgres"))).filter(([name]) => name <= last));
}

describe("positions in daily partitions on PostgreSQL (migration 0020)", { skip: !ADMIN && "DATABASE_URL not set" }, () => {
  const name = `mds_part_${randomBytes(5).toString("hex")}`;
  let url: string;
  let store: Store;
  const dir = mkdtempSync(join(tmpdir(), "mds-part-"));
  const now = Date.now();
  const times = { old: now - 100 * DAY, recent: now - 10 * DAY, ancient: now - 400 * DAY, today: now - 60_000 };

  before(async () => {
    const admin = new pg.Client({ connectionString: ADMIN });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(ADMIN!);
    u.pathname = `/${name}`;
    url = u.toString();
    // A database as it stood before 0020, holding positions of several ages.
    const pool = new pg.Pool({ connectionString: url });
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => upTo("0012_zone_state") } });
    const r = await migrator.migrateToLatest();
    assert.equal(r.error, undefined);
    for (const [i, t] of Object.values(times).entries()) {
      for (let k = 0; k < 3; k++) await sql`INSERT INTO positions (mmsi, "time", station_id, lat, lon) VALUES (${244_000_000 + i}, ${t + k * 1000}, 1, 52, 4)`.execute(db);
    }
    await db.destroy();
    store = await openStore({ engine: "postgres", url });
  });
  after(async () => {
    await store?.close();
    const admin = new pg.Client({ connectionString: ADMIN });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the migration keeps every existing row, in the partition of its day (older than 120 days: the default one)", async () => {
    const counts = await sql<{ part: string; n: number }>`SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM positions GROUP BY 1`.execute(store.db);
    const byPart = Object.fromEntries(counts.rows.map((r) => [r.part, r.n]));
    assert.equal(byPart[partitionName(dayStart(times.old))], 3);
    assert.equal(byPart[partitionName(dayStart(times.recent))], 3);
    assert.equal(byPart[partitionName(dayStart(times.today))], 3);
    assert.equal(byPart.positions_default, 3, "the 400-day-old rows");
    const parts = await new PositionPartitions(store.db as unknown as Kysely<unknown>).list();
    assert.equal(parts.at(-1)!.name, partitionName(dayStart(now) + DAYS_AHEAD * DAY), "a week of days ahead exists");
  });

  it("upkeep makes missing days, and moves rows the default partition already holds for such a day", async () => {
    const partitions = new PositionPartitions(store.db as unknown as Kysely<unknown>);
    const later = now + 30 * DAY;
    // Ingest ran while no upkeep did: a fix of a day without a partition sits in the default one.
    await sql`INSERT INTO positions (mmsi, "time", station_id, lat, lon) VALUES (244999999, ${later}, 1, 52, 4)`.execute(store.db);
    const made = await partitions.ensure(later);
    assert.equal(made.length, DAYS_AHEAD + 1);
    const where = await sql<{ part: string }>`SELECT tableoid::regclass::text AS part FROM positions WHERE mmsi = 244999999`.execute(store.db);
    assert.deepEqual(where.rows, [{ part: partitionName(dayStart(later)) }]);
    assert.deepEqual(await partitions.ensure(later), [], "nothing to do the second time");
  });

  it("compaction archives whole partitions past 90 days and drops them; rows outside any partition are compacted row by row", async () => {
    const tracks = new SqlTrackStore(store.db, store.dialect);
    // Row-wise compaction finds vessels through latest_positions.
    for (const mmsi of [244_000_000, 244_000_002]) {
      await sql`INSERT INTO latest_positions (station_id, mmsi, "time", lat, lon) VALUES (1, ${mmsi}, ${now}, 52, 4) ON CONFLICT DO NOTHING`.execute(store.db);
    }
    const archive = new SqlArchiveStore({ engine: "sqlite", file: join(dir, "archive.sqlite") });
    try {
      const report = await compact(tracks, archive, now);
      assert.ok(report.partitions >= 1, "the 100-day-old day was dropped whole");
      const parts = await tracks.partitions!.list();
      assert.ok(!parts.some((p) => p.name === partitionName(dayStart(times.old))));
      assert.equal(report.fixes, 6, "the 100-day-old and the 400-day-old fixes");
      assert.equal(await archive.count(), 2, "one point per vessel and 10-minute slot");
      const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM positions`.execute(store.db);
      assert.equal(left.rows[0]!.n, 7, "the recent, today's and the upkeep test's rows stay");
    } finally {
      await archive.close();
    }
  });
});
