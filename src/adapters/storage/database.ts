import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { migrateToLatest } from "./migrations.ts";
import { NodeSqliteDatabase } from "./node-sqlite.ts";
import type { Database } from "./schema.ts";

export type Engine = "sqlite" | "postgres";

export interface Store {
  db: Kysely<Database>;
  /**
   * For hot counters (credits): on PostgreSQL a pool whose commits do not wait for the WAL
   * flush (`synchronous_commit = off`). Atomicity is unchanged; a server crash may lose the
   * last fraction of a second of increments, which errs in the caller's favour. On SQLite it is `db`.
   */
  counters: Kysely<Database>;
  engine: Engine;
  /**
   * PostgreSQL: the pool behind `db`, for the few hot reads that run as named prepared
   * statements (planned once per connection; Kysely sends every statement unnamed). Null on SQLite.
   */
  pgPool: pg.Pool | null;
  close(): Promise<void>;
}

// PostgreSQL returns int8 as a string to keep precision; our int8 columns are epoch
// milliseconds and counters, all far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export type StoreLocation = { engine: "sqlite"; file: string } | { engine: "postgres"; url: string; poolSize?: number; onIdleError?: (err: Error) => void };

/** Opens the main store and brings its schema up to date. */
export async function openStore(location: StoreLocation): Promise<Store> {
  let db: Kysely<Database>;
  let counters: Kysely<Database> | null = null;
  let pgPool: pg.Pool | null = null;
  if (location.engine === "sqlite") {
    if (location.file !== ":memory:") mkdirSync(dirname(location.file), { recursive: true });
    const sqlite = new NodeSqliteDatabase(location.file);
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  } else {
    const pool = new pg.Pool({ connectionString: location.url, max: location.poolSize ?? 10 });
    // An idle connection the server drops (restart, failover) must not take the process down;
    // the pool replaces it, and queries on a lost connection fail as service_unavailable.
    pool.on("error", (err) => location.onIdleError?.(err));
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    pgPool = pool;
    const fast = new pg.Pool({ connectionString: location.url, max: 5, options: "-c synchronous_commit=off" });
    fast.on("error", (err) => location.onIdleError?.(err));
    counters = new Kysely<Database>({ dialect: new PostgresDialect({ pool: fast }) });
  }
  await migrateToLatest(db as Kysely<unknown>, location.engine);
  const countersDb = counters ?? db;
  return {
    db,
    counters: countersDb,
    engine: location.engine,
    pgPool,
    close: async () => {
      if (countersDb !== db) await countersDb.destroy();
      await db.destroy();
    },
  };
}
