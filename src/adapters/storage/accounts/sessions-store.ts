import type { Kysely } from "kysely";
import type { Session, SessionStore } from "../../../interfaces/people.ts";
import type { Database, SessionsTable } from "../schema.ts";

function toSession(r: SessionsTable): Session {
  return { idHash: r.id_hash, userId: r.user_id, createdAt: r.created_at, lastSeenAt: r.last_seen_at, expiresAt: r.expires_at, ip: r.ip, userAgent: r.user_agent };
}

export class SqlSessionStore implements SessionStore {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async createSession(s: Session): Promise<void> {
    await this.#db
      .insertInto("sessions")
      .values({ id_hash: s.idHash, user_id: s.userId, created_at: s.createdAt, last_seen_at: s.lastSeenAt, expires_at: s.expiresAt, ip: s.ip, user_agent: s.userAgent })
      .execute();
  }

  async getSession(idHash: string): Promise<Session | null> {
    const r = await this.#db.selectFrom("sessions").selectAll().where("id_hash", "=", idHash).executeTakeFirst();
    return r ? toSession(r) : null;
  }

  async touchSession(idHash: string, lastSeenAt: number): Promise<void> {
    await this.#db.updateTable("sessions").set({ last_seen_at: lastSeenAt }).where("id_hash", "=", idHash).execute();
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.#db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
  }

  async deleteUserSessions(userId: string): Promise<number> {
    const r = await this.#db.deleteFrom("sessions").where("user_id", "=", userId).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async deleteExpired(now: number, idleMs: number): Promise<number> {
    const r = await this.#db
      .deleteFrom("sessions")
      .where((eb) => eb.or([eb("expires_at", "<=", now), eb("last_seen_at", "<=", now - idleMs)]))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
