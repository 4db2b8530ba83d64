import { Redis } from "ioredis";

/** The Redis channel revoked key ids are announced on. */
export const REVOCATION_CHANNEL = "mds:keys:revoked";

/**
 * Tells every process of a deployment that an API key was revoked, so each one drops it
 * from its authenticator's cache at once instead of serving it until the cache entry
 * expires. Without Redis there is nobody to tell: the process that revokes forgets the key
 * itself, and the others refuse it once their short cache entry expires.
 */
export interface KeyRevocations {
  /** Forgets the key here and announces it to the other processes. */
  revoked(keyId: string): Promise<void>;
  /** Resolves once announcements from other processes are received (at once without Redis). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** `forget` drops the key from this process's caches; `onError` hears of a lost Redis connection. */
export function keyRevocations(options: { redisUrl?: string; forget: (keyId: string) => void; onError?: (err: Error) => void }): KeyRevocations {
  return options.redisUrl ? new RedisKeyRevocations(options.redisUrl, options.forget, options.onError ?? (() => {})) : new LocalKeyRevocations(options.forget);
}

class LocalKeyRevocations implements KeyRevocations {
  readonly #forget: (keyId: string) => void;
  constructor(forget: (keyId: string) => void) {
    this.#forget = forget;
  }
  async revoked(keyId: string): Promise<void> {
    this.#forget(keyId);
  }
  async ready(): Promise<void> {}
  async close(): Promise<void> {}
}

/**
 * Pub/sub over Redis: a subscribed connection (which can do nothing else) and one to
 * publish on. ioredis subscribes again after a reconnect; a message sent while this
 * process was cut off is lost, and the cache's short lifetime covers that case.
 */
class RedisKeyRevocations implements KeyRevocations {
  readonly #forget: (keyId: string) => void;
  readonly #onError: (err: Error) => void;
  readonly #subscriber: Redis;
  readonly #publisher: Redis;
  readonly #subscribed: Promise<void>;

  constructor(redisUrl: string, forget: (keyId: string) => void, onError: (err: Error) => void) {
    this.#forget = forget;
    this.#onError = onError;
    this.#subscriber = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    this.#publisher = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    // Without a listener ioredis prints unhandled errors; the connection retries by itself.
    this.#subscriber.on("error", onError);
    this.#publisher.on("error", onError);
    this.#subscriber.on("message", (channel, keyId) => {
      if (channel === REVOCATION_CHANNEL && keyId !== "") forget(keyId);
    });
    this.#subscribed = this.#subscriber.subscribe(REVOCATION_CHANNEL).then(
      () => undefined,
      (err: Error) => onError(err),
    );
  }

  async revoked(keyId: string): Promise<void> {
    this.#forget(keyId);
    // The key is revoked in the store whatever happens here; a failed announcement only
    // leaves the other processes to the cache lifetime, so it is reported, not thrown.
    await this.#publisher.publish(REVOCATION_CHANNEL, keyId).catch((err: Error) => this.#onError(err));
  }

  ready(): Promise<void> {
    return this.#subscribed;
  }

  async close(): Promise<void> {
    await Promise.all([this.#subscriber.quit().catch(() => this.#subscriber.disconnect()), this.#publisher.quit().catch(() => this.#publisher.disconnect())]);
  }
}
