import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { SqliteDatabase, SqliteStatement } from "kysely";

type SqlValue = null | number | bigint | string | Uint8Array;

/** node:sqlite binds no booleans or Dates; Kysely may hand us either. */
function bindable(values: ReadonlyArray<unknown>): SqlValue[] {
  return values.map((v) => {
    if (typeof v === "boolean") return v ? 1 : 0;
    if (v instanceof Date) return v.getTime();
    if (v === undefined) return null;
    return v as SqlValue;
  });
}

/**
 * Adapts Node's built-in `node:sqlite` to the statement interface Kysely's SqliteDialect
 * expects (the better-sqlite3 shape), so the embedded default needs no native addon.
 */
export class NodeSqliteDatabase implements SqliteDatabase {
  readonly raw: DatabaseSync;
  // Statements are cached by SQL text: Kysely compiles the same text for the same query shape.
  readonly #cache = new Map<string, SqliteStatement>();

  constructor(path: string) {
    this.raw = new DatabaseSync(path);
    this.raw.exec("PRAGMA journal_mode = WAL");
    this.raw.exec("PRAGMA synchronous = NORMAL");
    this.raw.exec("PRAGMA busy_timeout = 5000");
    this.raw.exec("PRAGMA foreign_keys = ON");
  }

  close(): void {
    this.#cache.clear();
    if (this.raw.isOpen) this.raw.close();
  }

  prepare(sql: string): SqliteStatement {
    const cached = this.#cache.get(sql);
    if (cached) return cached;
    const stmt: StatementSync = this.raw.prepare(sql);
    const reader = stmt.columns().length > 0;
    const wrapped: SqliteStatement = {
      reader,
      all: (params) => stmt.all(...bindable(params)),
      run: (params) => {
        const r = stmt.run(...bindable(params));
        return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
      },
      iterate: (params) => stmt.iterate(...bindable(params)),
    };
    if (this.#cache.size > 500) this.#cache.clear();
    this.#cache.set(sql, wrapped);
    return wrapped;
  }
}
