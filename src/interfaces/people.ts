import type { PlanId } from "../domain/plans.ts";

/** People who sign in to the web pages, and their sessions. A user belongs to one account. */

export interface User {
  id: string;
  accountId: string;
  /** Normalised (trimmed, lower-case); unique. */
  email: string;
  /** PHC string of an argon2id hash. */
  passwordHash: string;
  createdAt: number;
  updatedAt: number;
}

export type CreateUserResult = { ok: true; user: User } | { ok: false; reason: "email_taken" };

export interface UserStore {
  createUser(input: { accountId: string; email: string; passwordHash: string }): Promise<CreateUserResult>;
  /**
   * Sign-up: a new account and its one user, in one transaction. When the e-mail is taken
   * (two sign-ups racing on it), neither is made: no account is left without a user.
   */
  createAccountWithUser(input: { account: { name: string; webPlan: PlanId | null; apiPlan: PlanId | null }; email: string; passwordHash: string }): Promise<CreateUserResult>;
  findByEmail(email: string): Promise<User | null>;
  getUser(id: string): Promise<User | null>;
  setPasswordHash(userId: string, passwordHash: string): Promise<boolean>;
}

export interface Session {
  /** SHA-256 of the cookie's random value; the value itself is never stored. */
  idHash: string;
  userId: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  ip: string | null;
  userAgent: string | null;
}

export interface SessionStore {
  createSession(s: Session): Promise<void>;
  getSession(idHash: string): Promise<Session | null>;
  touchSession(idHash: string, lastSeenAt: number): Promise<void>;
  deleteSession(idHash: string): Promise<void>;
  /** "Sign out everywhere"; also done when a password is reset. Returns how many ended. */
  deleteUserSessions(userId: string): Promise<number>;
  /** Removes sessions past their absolute or idle end. */
  deleteExpired(now: number, idleMs: number): Promise<number>;
}
