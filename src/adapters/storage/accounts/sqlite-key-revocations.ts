import { type Kysely, sql } from "kysely";
import type { CachedCredentials, KeyRevocations } from "../redis/key-revocations.ts";
import type { Database } from "../schema.ts";

/**
 * Key revocations on the embedded SQLite store, where one API process serves the file and the
 * only other writers are short-lived processes on the same machine (`mds keys revoke`, `mds
 * accounts plan` ...). This process forgets what it changes itself at once; a change committed
 * by another process is noticed by SQLite's `PRAGMA data_version`, which moves only when
 * another connection commits to the file, read once per `everyMs`: when it moved, every cached
 * key is forgotten. So the authenticator may keep a key as long as where revocations are
 * announced over Redis, instead of looking each key up again every second (hundreds of
 * synchronous statements a second on the event loop with hundreds of keys in rotation).
 * A revocation from another process still takes effect within `everyMs`, the bound the short
 * cache gave before; while another process writes without pause the cache is dropped once
 * per `everyMs`, which is never more lookups than the short cache made.
 */
export class SqliteKeyRevocations implements KeyRevocations {
  readonly shared = true;
  readonly #db: Kysely<Database>;
  readonly #forget: (what: CachedCredentials) => void;
  readonly #onError: (err: Error) => void;
  #version: number | null = null;
  #timer: NodeJS.Timeout | null = null;
  #polling: Promise<void> = Promise.resolve();

  constructor(db: Kysely<Database>, forget: (what: CachedCredentials) => void, options: { everyMs: number; onError?: (err: Error) => void }) {
    this.#db = db;
    this.#forget = forget;
    this.#onError = options.onError ?? (() => {});
    this.#timer = setInterval(() => {
      this.#polling = this.#poll();
    }, options.everyMs);
    this.#timer.unref();
  }

  async revoked(keyId: string): Promise<void> {
    this.#forget({ keyId });
  }

  async accountChanged(accountId: string): Promise<void> {
    this.#forget({ accountId });
  }

  /** The version seen first is the one every cached key was read at or after. */
  async ready(): Promise<void> {
    if (this.#version === null) await this.#poll();
  }

  async #poll(): Promise<void> {
    try {
      const { rows } = await sql<{ data_version: number }>`PRAGMA data_version`.execute(this.#db);
      const version = Number(rows[0]?.data_version);
      if (this.#version !== null && version !== this.#version) this.#forget("all");
      this.#version = version;
    } catch (e) {
      // Unreadable (the store is closing): nothing can be trusted to be current.
      this.#forget("all");
      this.#onError(e as Error);
    }
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#polling;
  }
}
