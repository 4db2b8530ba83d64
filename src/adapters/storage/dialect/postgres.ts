import { CompiledQuery, type SelectQueryBuilder, sql } from "kysely";
import type pg from "pg";
import type { BucketQuery, TrackPoint } from "../../../interfaces/tracks.ts";
import type { AnyDb, BulkInsert, BulkInsertResult, BulkRow, RowLock, SqlDialect } from "./dialect.ts";

/** Rows per unnest statement (docs/storage-measurements.md: ~10k-row batches insert fastest, about twice multi-row VALUES). */
const CHUNK_ROWS = 10_000;

/** Bytes per fix in the packed bucket answer: time 8, station 4, lat 8, lon 8, sog 4, cog 4, nav status 2. */
const PACKED_BYTES = 38;

const quoted = (cols: readonly string[]) => cols.map((c) => `"${c}"`).join(", ");

/**
 * A numeric column as a PostgreSQL array literal (`{1,2.5,NULL}`). pg would serialise a JS
 * array element by element with quoting and escaping, which measured as the largest
 * JavaScript cost of an ingest batch; numbers need neither.
 */
function numericArray(rows: readonly BulkRow[], column: number): string {
  let out = "{";
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i]![column];
    if (i > 0) out += ",";
    out += v === null || v === undefined ? "NULL" : String(v);
  }
  return `${out}}`;
}

/**
 * PostgreSQL through `pg`. `pool` is the pool behind the store's Kysely instance: named
 * prepared statements run on it directly.
 */
export function postgresDialect(pool: pg.Pool): SqlDialect {
  return {
    engine: "postgres",

    async bulkInsert(db: AnyDb, insert: BulkInsert): Promise<BulkInsertResult> {
      const { table, columns, types, rows, tail = "" } = insert;
      const out: BulkInsertResult = { rows: [], written: 0 };
      const text = `INSERT INTO ${table} (${quoted(columns)}) SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(", ")}) ${tail}`;
      for (let at = 0; at < rows.length; at += CHUNK_ROWS) {
        const chunk = rows.slice(at, at + CHUNK_ROWS);
        const arrays = columns.map((_, c) => (types[c] === "text" ? chunk.map((r) => r[c] ?? null) : numericArray(chunk, c)));
        const r = await db.executeQuery(CompiledQuery.raw(text, arrays));
        out.rows.push(...(r.rows as Record<string, unknown>[]));
        out.written += Number(r.numAffectedRows ?? 0);
      }
      return out;
    },

    async prepared<R>(_db: AnyDb, name: string, query: CompiledQuery<unknown>): Promise<R[]> {
      const r = await pool.query({ name, text: query.sql, values: [...query.parameters] });
      return r.rows as R[];
    },

    async raw<R>(db: AnyDb, text: string, params: readonly unknown[]): Promise<R[]> {
      let n = 0;
      const numbered = text.replace(/\?/g, () => `$${++n}`);
      return (await db.executeQuery(CompiledQuery.raw(numbered, [...params]))).rows as R[];
    },

    anyOf(column, values) {
      return sql`${sql.ref(column)} = ANY(${[...values]}::int4[])`;
    },
    anyOfLimit: 100_000,

    least: (a, b) => `LEAST(${a}, ${b})`,
    greatest: (a, b) => `GREATEST(${a}, ${b})`,

    lockRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, lock: RowLock = {}): SelectQueryBuilder<DB, TB, O> {
      // The alias is one the caller's join declared; Kysely types it as a table name of the query.
      const locked = lock.of === undefined ? query.forUpdate() : query.forUpdate(lock.of as never);
      return lock.skipLocked ? locked.skipLocked() : locked;
    },

    async lockAccount(trx, accountId) {
      await sql`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`.execute(trx);
    },

    chargeSql: "update credit_usage set used = used + $1 where account_id = $2 and period = $3 and used + $1 <= $4 returning used",

    bucketQuery(q: BucketQuery): CompiledQuery<unknown> {
      // The buckets come back packed into one bytea (PACKED_BYTES per fix, big-endian; NaN and -1
      // stand for null): PostgreSQL writing 1,440 rows of seven columns as text and node-pg
      // parsing them back took longer than the probes themselves (measured 7.5 against 5.9 ms).
      return CompiledQuery.raw(
        `SELECT string_agg(int8send(p."time") || int4send(p.station_id) || float8send(p.lat) || float8send(p.lon)
           || float4send(coalesce(p.sog, 'NaN'::real)) || float4send(coalesce(p.cog, 'NaN'::real))
           || int2send(coalesce(p.nav_status, -1::smallint)), ''::bytea ORDER BY p."time") AS b
         FROM generate_series($2::int8 - $2::int8 % $4::int8, $3::int8 - 1, $4::int8) AS b(s)
         CROSS JOIN LATERAL (
           SELECT "time", station_id, lat, lon, sog, cog, nav_status FROM positions
           WHERE mmsi = $1 AND "time" >= GREATEST(b.s, $2) AND "time" < LEAST(b.s + $4, $3) AND station_id = ANY($5::int4[])
           ORDER BY "time" DESC LIMIT 1
         ) p`,
        [q.mmsi, q.from, q.to, q.bucketMs, [...q.stationIds]],
      );
    },

    decodeBuckets(rows: readonly unknown[]): TrackPoint[] {
      const b = (rows[0] as { b: Buffer | null } | undefined)?.b;
      if (!b) return [];
      const points: TrackPoint[] = [];
      for (let o = 0; o + PACKED_BYTES <= b.length; o += PACKED_BYTES) {
        const sog = b.readFloatBE(o + 28);
        const cog = b.readFloatBE(o + 32);
        const nav = b.readInt16BE(o + 36);
        points.push({
          time: Number(b.readBigInt64BE(o)),
          stationId: b.readInt32BE(o + 8),
          lat: b.readDoubleBE(o + 12),
          lon: b.readDoubleBE(o + 20),
          sog: Number.isNaN(sog) ? null : sog,
          cog: Number.isNaN(cog) ? null : cog,
          navStatus: nav < 0 ? null : nav,
        });
      }
      return points;
    },

    // PostgreSQL runs a statement on one core, and the bucket probes are CPU work in its
    // backend: two halves on two connections at once (1,009 buckets: 11.5 -> 7.9 ms measured
    // side by side). It is the same work in all, so it helps while a core is spare.
    splitsLongTracks: true,

    async analyze(db, tables) {
      // Right after a bulk load the statistics still describe the empty tables, and the search
      // join then sorts instead of walking the term index.
      await db.executeQuery(CompiledQuery.raw(`ANALYZE ${tables.join(", ")}`));
    },

    async createArchiveTable(db) {
      await sql`CREATE TABLE IF NOT EXISTS archive_positions (
        mmsi integer NOT NULL,
        slot integer NOT NULL,
        station_id integer NOT NULL,
        "time" bigint NOT NULL,
        lat double precision NOT NULL,
        lon double precision NOT NULL,
        sog real,
        cog real,
        CONSTRAINT archive_positions_pk PRIMARY KEY (mmsi, slot, station_id) INCLUDE ("time", lat, lon, sog, cog)
      )`.execute(db);
    },
  };
}
