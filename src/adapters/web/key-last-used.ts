import type { Kysely } from "kysely";
import type { Pipeline } from "../../operations/execute.ts";
import type { Clock } from "../../ports/clock.ts";
import type { Database } from "../storage/schema.ts";

/** A key's last use is written at most this often, so a busy key costs one write a minute, not one per call. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * When each API key was last used, for the keys page. Recorded when a key authenticates a
 * call (REST or MCP); the write is fire-and-forget and its failure is only logged, because
 * a listing's "last used" must never fail or slow the call itself.
 */
export class KeyLastUsed {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  readonly #written = new Map<string, number>();
  readonly #onError: (err: unknown) => void;

  constructor(db: Kysely<Database>, clock: Clock, onError: (err: unknown) => void) {
    this.#db = db;
    this.#clock = clock;
    this.#onError = onError;
  }

  record(keyId: string): void {
    const now = this.#clock.now();
    const last = this.#written.get(keyId);
    if (last !== undefined && now - last < LAST_USED_RESOLUTION_MS) return;
    if (this.#written.size > 100_000) this.#written.clear();
    this.#written.set(keyId, now);
    this.#db.updateTable("api_keys").set({ last_used_at: now }).where("id", "=", keyId).execute().catch(this.#onError);
  }

  async lastUsed(accountId: string): Promise<Map<string, number | null>> {
    const rows = await this.#db.selectFrom("api_keys").select(["id", "last_used_at"]).where("account_id", "=", accountId).execute();
    return new Map(rows.map((r) => [r.id, r.last_used_at]));
  }

  /** Wraps the pipeline's authenticator so every successful key authentication is recorded. */
  track(pipeline: Pipeline): void {
    const inner = pipeline.auth;
    pipeline.auth = {
      authenticate: async (authorization, required, clientAddress) => {
        const p = await inner.authenticate(authorization, required, clientAddress);
        if (p.kind === "key") this.record(p.keyId);
        return p;
      },
      forget: () => inner.forget(),
    };
  }
}
