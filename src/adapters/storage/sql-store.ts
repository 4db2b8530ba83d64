import type { Kysely } from "kysely";
import type { SqlDialect } from "./dialect/dialect.ts";
import type { Database } from "./schema.ts";

/**
 * What a store built on the database holds: the Kysely handle and the engine's dialect (for
 * the statements that differ between SQLite and PostgreSQL). Stores that need nothing else
 * extend it instead of each declaring and assigning the same two fields.
 */
export abstract class SqlStore {
  protected readonly db: Kysely<Database>;
  protected readonly dialect: SqlDialect;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    this.db = db;
    this.dialect = dialect;
  }
}
