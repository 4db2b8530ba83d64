import type { CompiledQuery, Kysely, RawBuilder, SelectQueryBuilder, SqlBool, Transaction } from "kysely";
import type { BucketQuery, TrackPoint } from "../../../interfaces/tracks.ts";

export type Engine = "sqlite" | "postgres";

export type Cell = number | string | null;
export type BulkRow = Cell[];

/** Column types as PostgreSQL names them; its arrays are cast to them, SQLite ignores them. */
export type ColumnType = "int2" | "int4" | "int8" | "float4" | "float8" | "text";

// Dialects serve the main store and the archive, whose schemas differ.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any> | Transaction<any>;

export interface BulkInsert {
  table: string;
  columns: readonly string[];
  types: readonly ColumnType[];
  rows: readonly BulkRow[];
  /** What follows the rows: `ON CONFLICT ...`, `RETURNING ...`. */
  tail?: string;
}

export interface BulkInsertResult {
  /** What RETURNING gave, if the tail asked for it. */
  rows: Record<string, unknown>[];
  /** Rows the engine reports as written (a conflict that did nothing counts none). */
  written: number;
}

/** How a statement takes a row lock, where the engine has row locks. */
export interface RowLock {
  /** Lock only this table's rows (its alias) in a join. */
  of?: string;
  /** Pass over rows another transaction holds instead of waiting (workers claiming a queue). */
  skipLocked?: boolean;
}

/**
 * Everything that differs between SQLite and PostgreSQL, chosen once when the store opens,
 * so that store code reads the same on both engines. Each method says what it does; the
 * engine files say how and why it differs.
 */
export interface SqlDialect {
  readonly engine: Engine;

  /** Inserts rows in bounded statements, in one call however many rows; empty input writes nothing. */
  bulkInsert(db: AnyDb, insert: BulkInsert): Promise<BulkInsertResult>;

  /**
   * Runs a hot read whose text is the same on every call. PostgreSQL plans it once per
   * connection as a named statement (Kysely sends every statement unnamed); SQLite's
   * statements are cached by text anyway.
   */
  prepared<R>(db: AnyDb, name: string, query: CompiledQuery<unknown>): Promise<R[]>;

  /** Runs raw SQL written with `?` placeholders, numbered as the engine wants them. */
  raw<R>(db: AnyDb, text: string, params: readonly unknown[]): Promise<R[]>;

  /** `column` is one of `values` (integers): an array parameter on PostgreSQL, so the text stays the same for any count. */
  anyOf(column: string, values: readonly number[]): RawBuilder<SqlBool>;
  /** How many values one anyOf takes: PostgreSQL sends one array, SQLite binds each (and has a bound on them). */
  readonly anyOfLimit: number;

  /** The smaller and the larger of two SQL expressions. */
  least(a: string, b: string): string;
  greatest(a: string, b: string): string;

  /**
   * Takes a row lock with the select (PostgreSQL FOR UPDATE). SQLite has none and needs
   * none: a write transaction runs alone, and the lock is taken by its first write.
   */
  lockRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, lock?: RowLock): SelectQueryBuilder<DB, TB, O>;

  /**
   * Locks one account's row for the rest of the transaction, so per-account
   * count-then-insert steps queue behind each other.
   */
  lockAccount(trx: AnyDb, accountId: string): Promise<void>;

  /** The credit charge as one conditional UPDATE: $1 cost, $2 account, $3 period, $4 limit; returns `used`. */
  readonly chargeSql: string;

  /** The last fix per bucket of a track window, as one statement (see the track store). */
  bucketQuery(q: BucketQuery): CompiledQuery<unknown>;
  /** The fixes of a bucketQuery answer, in time order. */
  decodeBuckets(rows: readonly unknown[]): TrackPoint[];
  /** Whether a long track is read in two halves on two connections at once. */
  readonly splitsLongTracks: boolean;

  /** Refreshes the planner's statistics after a bulk load (PostgreSQL plans from them; SQLite's planner does not need it here). */
  analyze(db: AnyDb, tables: readonly string[]): Promise<void>;

  /** Creates the archive's one table if it is missing. */
  createArchiveTable(db: AnyDb): Promise<void>;
}
