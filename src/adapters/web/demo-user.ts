import { randomBase62 } from "../../domain/secrets.ts";
import type { Clock } from "../../ports/clock.ts";
import type { Kysely } from "kysely";
import type { Database } from "../storage/schema.ts";
import { SqlSessionStore } from "../storage/sessions-store.ts";
import { SqlUserStore } from "../storage/users-store.ts";
import { hashPassword } from "./password-hasher.ts";

export const DEMO_EMAIL = "demo@example.org";

/** The demo account's user, with a fresh password at every `serve --demo` (printed, like the demo keys; never stored in clear). */
export async function ensureDemoUser(db: Kysely<Database>, clock: Clock, accountId: string): Promise<{ email: string; password: string }> {
  const users = new SqlUserStore(db, clock);
  const password = `demo-${randomBase62(16)}`;
  const hash = await hashPassword(password);
  const existing = await users.findByEmail(DEMO_EMAIL);
  if (existing) {
    await users.setPasswordHash(existing.id, hash);
    await new SqlSessionStore(db).deleteUserSessions(existing.id);
  } else {
    const r = await users.createUser({ accountId, email: DEMO_EMAIL, passwordHash: hash });
    if (!r.ok) throw new Error("the demo user appeared while being created");
  }
  return { email: DEMO_EMAIL, password };
}
