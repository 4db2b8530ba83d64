import pg from "pg";
import type { CachedCredentials, KeyRevocations } from "../redis/key-revocations.ts";
import { KEY_CHANGES_CHANNEL } from "../migrations/0035-key-change-notices.ts";

/** How the listening connection names itself in `pg_stat_activity` (operators and tests find it by this). */
export const KEY_CHANGES_APPLICATION_NAME = "mds key changes";

/**
 * Key revocations on PostgreSQL without Redis: the database announces every change to what
 * a key may do (triggers of migration 0035 NOTIFY at commit, whichever process or statement
 * made it), and each process LISTENs on one connection of its own, outside the pool (a
 * pooled connection is handed to other queries and would drop the subscription). A notice
 * names one key or one account and exactly that is forgotten, so keys may be kept as long as
 * where changes are announced over Redis.
 *
 * A notice sent while this process is not listening is lost, so what was cached cannot be
 * trusted then: everything is forgotten when the connection is lost, once per `everyMs`
 * while it is down (the bound the short cache gives), and again once it listens anew
 * (anything may have changed in between). The connection is tried again every `everyMs`.
 */
export class PostgresKeyRevocations implements KeyRevocations {
  readonly shared = true;
  readonly #url: string;
  readonly #forget: (what: CachedCredentials) => void;
  readonly #onError: (err: Error) => void;
  readonly #everyMs: number;
  #client: pg.Client | null = null;
  #listening = false;
  #backendPid: number | null = null;
  #closed = false;
  /** While not listening: forgets everything and tries to connect again, each `everyMs`. */
  #downTimer: NodeJS.Timeout | null = null;
  #connecting: Promise<void> | null = null;
  readonly #firstAttempt: Promise<void>;

  constructor(url: string, forget: (what: CachedCredentials) => void, options: { everyMs: number; onError?: (err: Error) => void }) {
    this.#url = url;
    this.#forget = forget;
    this.#onError = options.onError ?? (() => {});
    this.#everyMs = options.everyMs;
    this.#startDownTimer();
    this.#firstAttempt = this.#connect();
  }

  /** True while notices reach this process. */
  get listening(): boolean {
    return this.#listening;
  }

  /** The server process of the listening connection (null when there is none): lets a test or an operator find it in `pg_stat_activity`. */
  get backendPid(): number | null {
    return this.#listening ? this.#backendPid : null;
  }

  async revoked(keyId: string): Promise<void> {
    this.#forget({ keyId });
  }

  async accountChanged(accountId: string): Promise<void> {
    this.#forget({ accountId });
  }

  /** Resolves once the first try to listen has ended, listening or not (a process that cannot listen yet serves with the short bound). */
  ready(): Promise<void> {
    return this.#firstAttempt;
  }

  #connect(): Promise<void> {
    this.#connecting ??= this.#listen().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  async #listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, application_name: KEY_CHANGES_APPLICATION_NAME });
    // Both fire when the server ends the connection or the network fails; either means notices are being missed.
    client.on("error", (err) => {
      this.#onError(err);
      this.#lost(client);
    });
    client.on("end", () => this.#lost(client));
    client.on("notification", (n) => {
      if (n.channel === KEY_CHANGES_CHANNEL && n.payload) this.#notice(n.payload);
    });
    this.#client = client;
    let pid: number;
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_CHANGES_CHANNEL}`);
      pid = Number((await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid);
    } catch (e) {
      this.#onError(e as Error);
      // Ends the client, unless its own error or end event already did.
      this.#lost(client);
      return;
    }
    if (this.#client !== client) return;
    if (this.#closed) {
      this.#client = null;
      await client.end().catch(() => undefined);
      return;
    }
    this.#backendPid = pid;
    // Whatever was cached before this moment may have changed unannounced.
    this.#forget("all");
    this.#listening = true;
    this.#stopDownTimer();
  }

  #notice(payload: string): void {
    if (payload.startsWith("key:")) this.#forget({ keyId: payload.slice("key:".length) });
    else if (payload.startsWith("account:")) this.#forget({ accountId: payload.slice("account:".length) });
    // A notice this version cannot read: be safe rather than fast.
    else this.#forget("all");
  }

  /** The connection is gone (or never came up): stop trusting the cache until listening again. */
  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = null;
    this.#listening = false;
    this.#forget("all");
    client.end().catch(() => undefined);
    if (!this.#closed) this.#startDownTimer();
  }

  #startDownTimer(): void {
    if (this.#downTimer) return;
    this.#downTimer = setInterval(() => {
      this.#forget("all");
      if (!this.#listening && !this.#closed) void this.#connect();
    }, this.#everyMs);
    this.#downTimer.unref();
  }

  #stopDownTimer(): void {
    if (this.#downTimer) clearInterval(this.#downTimer);
    this.#downTimer = null;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#stopDownTimer();
    await this.#connecting?.catch(() => undefined);
    const client = this.#client;
    this.#client = null;
    this.#listening = false;
    await client?.end().catch(() => undefined);
  }
}
