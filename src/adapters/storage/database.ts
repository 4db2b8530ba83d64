import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { Engine, SqlDialect } from "./dialect/dialect.ts";
import { postgresDialect } from "./dialect/postgres.ts";
import { sqliteDialect } from "./dialect/sqlite.ts";
import { migrateToLatest } from "./migrations.ts";
import { NodeSqliteDatabase } from "./node-sqlite.ts";
import type { Database } from "./schema.ts";

export type { Engine } from "./dialect/dialect.ts";

export interface Store {
  db: Kysely<Database>;
  /**
   * For hot counters (credits): on PostgreSQL a pool whose commits do not wait for the WAL
   * flush (`synchronous_commit = off`). Atomicity is unchanged; a server crash may lose the
   * last fraction of a second of increments, which errs in the caller's favour. On SQLite it is `db`.
   */
  counters: Kysely<Database>;
  engine: Engine;
  /** What differs between the engines; every store takes it. */
  dialect: SqlDialect;
  /** PostgreSQL: the pool behind `db`. Null on SQLite. */
  pgPool: pg.Pool | null;
  close(): Promise<void>;
}

// PostgreSQL returns int8 as a string to keep precision; our int8 columns are epoch
// milliseconds and counters, all far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export type StoreLocation = { engine: "sqlite"; file: string } | { engine: "postgres"; url: string; poolSize?: number; onIdleError?: (err: Error) => void };

/**
 * Connects to one database and picks its dialect: the one place that asks which engine it is.
 * Used by the main store and the archive.
 */
export function openDatabase<T>(location: StoreLocation, pool: { size?: number; connectTimeoutMs?: number } = {}): { db: Kysely<T>; dialect: SqlDialect; pool: pg.Pool | null } {
  if (location.engine === "sqlite") {
    if (location.file !== ":memory:") mkdirSync(dirname(location.file), { recursive: true });
    const sqlite = new NodeSqliteDatabase(location.file);
    return { db: new Kysely<T>({ dialect: new SqliteDialect({ database: sqlite }) }), dialect: sqliteDialect(), pool: null };
  }
  const pgPool = new pg.Pool({ connectionString: location.url, max: pool.size ?? location.poolSize ?? 10, connectionTimeoutMillis: pool.connectTimeoutMs });
  // An idle connection the server drops (restart, failover) must not take the process down;
  // the pool replaces it, and queries on a lost connection fail as service_unavailable.
  pgPool.on("error", (err) => location.onIdleError?.(err));
  return { db: new Kysely<T>({ dialect: new PostgresDialect({ pool: pgPool }) }), dialect: postgresDialect(pgPool), pool: pgPool };
}

/** Opens the main store and brings its schema up to date. */
export async function openStore(location: StoreLocation): Promise<Store> {
  const { db, dialect, pool } = openDatabase<Database>(location);
  let counters = db;
  if (location.engine === "postgres") {
    const fast = new pg.Pool({ connectionString: location.url, max: 5, options: "-c synchronous_commit=off" });
    fast.on("error", (err) => location.onIdleError?.(err));
    counters = new Kysely<Database>({ dialect: new PostgresDialect({ pool: fast }) });
  }
  await migrateToLatest(db as Kysely<unknown>, location.engine);
  return {
    db,
    counters,
    engine: location.engine,
    dialect,
    pgPool: pool,
    close: async () => {
      if (counters !== db) await counters.destroy();
      await db.destroy();
    },
  };
}
