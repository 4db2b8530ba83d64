import { randomBase62 } from "../../domain/secrets.ts";
import type { SessionStore, UserStore } from "../../interfaces/people.ts";
import { hashPassword } from "./password-hasher.ts";

export const DEMO_EMAIL = "demo@example.org";

/** The demo account's user, with a fresh password at every `serve --demo` (printed, like the demo keys; never stored in clear). */
export async function ensureDemoUser(people: { users: UserStore; sessions: SessionStore }, accountId: string): Promise<{ email: string; password: string }> {
  const { users, sessions } = people;
  const password = `demo-${randomBase62(16)}`;
  const hash = await hashPassword(password);
  const existing = await users.findByEmail(DEMO_EMAIL);
  if (existing) {
    await users.setPasswordHash(existing.id, hash);
    await sessions.deleteUserSessions(existing.id);
  } else {
    const r = await users.createUser({ accountId, email: DEMO_EMAIL, passwordHash: hash });
    if (!r.ok) throw new Error("the demo user appeared while being created");
  }
  return { email: DEMO_EMAIL, password };
}
