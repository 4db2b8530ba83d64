import { Redis } from "ioredis";

/** The Redis channel revoked key ids, and accounts whose plans or allowance changed, are announced on. */
export const REVOCATION_CHANNEL = "mds:keys:revoked";

/** What a process must stop trusting its cache for: one key, every key of an account, or everything (a message may have been missed). */
export type CachedCredentials = { keyId: string } | { accountId: string } | "all";

/** An account's announcement on the channel; a key's is its bare id (the form older processes send and read). */
const ACCOUNT_PREFIX = "account:";

/**
 * Tells every process of a deployment that an API key was revoked, so each one drops it
 * from its authenticator's cache at once instead of serving it until the cache entry
 * expires. Through Redis here; without Redis, PostgreSQL announces changes itself
 * (accounts/postgres-key-revocations.ts) and SQLite's file version shows another process's
 * commit (accounts/sqlite-key-revocations.ts). Given no Redis URL, keyRevocations() tells
 * nobody: the process that revokes forgets the key itself, no other is told.
 */
export interface KeyRevocations {
  /** Forgets the key here and announces it to the other processes. */
  revoked(keyId: string): Promise<void>;
  /** Forgets the account's keys here (their plans or allowance changed) and announces it to the other processes. */
  accountChanged(accountId: string): Promise<void>;
  /** True when other processes hear of revocations at once, so a cached key may be trusted longer. */
  readonly shared: boolean;
  /** Resolves once announcements from other processes are received (at once without Redis). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** `forget` drops the key from this process's caches; `onError` hears of a lost Redis connection. */
export function keyRevocations(options: { redisUrl?: string; forget: (what: CachedCredentials) => void; onError?: (err: Error) => void }): KeyRevocations {
  return options.redisUrl ? new RedisKeyRevocations(options.redisUrl, options.forget, options.onError ?? (() => {})) : new LocalKeyRevocations(options.forget);
}

class LocalKeyRevocations implements KeyRevocations {
  readonly shared = false;
  readonly #forget: (what: CachedCredentials) => void;
  constructor(forget: (what: CachedCredentials) => void) {
    this.#forget = forget;
  }
  async revoked(keyId: string): Promise<void> {
    this.#forget({ keyId });
  }
  async accountChanged(accountId: string): Promise<void> {
    this.#forget({ accountId });
  }
  async ready(): Promise<void> {}
  async close(): Promise<void> {}
}

/**
 * Pub/sub over Redis: a subscribed connection (which can do nothing else) and one to
 * publish on. ioredis subscribes again after a reconnect; a message sent while this
 * process was cut off is lost, so the whole cache is dropped when the connection comes back.
 */
class RedisKeyRevocations implements KeyRevocations {
  readonly shared = true;
  readonly #forget: (what: CachedCredentials) => void;
  readonly #onError: (err: Error) => void;
  readonly #subscriber: Redis;
  readonly #publisher: Redis;
  readonly #subscribed: Promise<void>;

  constructor(redisUrl: string, forget: (what: CachedCredentials) => void, onError: (err: Error) => void) {
    this.#forget = forget;
    this.#onError = onError;
    this.#subscriber = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    this.#publisher = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    // Without a listener ioredis prints unhandled errors; the connection retries by itself.
    this.#subscriber.on("error", onError);
    this.#publisher.on("error", onError);
    this.#subscriber.on("message", (channel, message: string) => {
      if (channel !== REVOCATION_CHANNEL || message === "") return;
      forget(message.startsWith(ACCOUNT_PREFIX) ? { accountId: message.slice(ACCOUNT_PREFIX.length) } : { keyId: message });
    });
    // Reconnected: whatever was announced meanwhile was missed.
    let connectedBefore = false;
    this.#subscriber.on("ready", () => {
      if (connectedBefore) forget("all");
      connectedBefore = true;
    });
    this.#subscribed = this.#subscriber.subscribe(REVOCATION_CHANNEL).then(
      () => undefined,
      (err: Error) => onError(err),
    );
  }

  async revoked(keyId: string): Promise<void> {
    this.#forget({ keyId });
    await this.#announce(keyId);
  }

  async accountChanged(accountId: string): Promise<void> {
    this.#forget({ accountId });
    await this.#announce(`${ACCOUNT_PREFIX}${accountId}`);
  }

  /**
   * The change is in the store whatever happens here; a failed announcement only leaves the
   * other processes to their cache lifetime, so it is reported, not thrown.
   */
  async #announce(message: string): Promise<void> {
    await this.#publisher.publish(REVOCATION_CHANNEL, message).catch((err: Error) => this.#onError(err));
  }

  ready(): Promise<void> {
    return this.#subscribed;
  }

  async close(): Promise<void> {
    await Promise.all([this.#subscriber.quit().catch(() => this.#subscriber.disconnect()), this.#publisher.quit().catch(() => this.#publisher.disconnect())]);
  }
}
