import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * Secrets the service must read back (webhook signing secrets) sealed with AES-256-GCM under
 * a key kept outside the database, so a copy of the database alone cannot sign webhooks.
 *
 * Stored form: `v1:<key id>:<base64url of 12-byte nonce | 16-byte tag | ciphertext>`. The key
 * id (the first 8 hex digits of the key's SHA-256) says which key sealed a value, so values
 * sealed under a previous key still open during a rotation and can be found and re-sealed.
 * A value without the `v1:` marker is plaintext from before sealing; it opens as itself until
 * `sealAll` at start-up seals it.
 */
export const SEALED_PREFIX = "v1:";

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretKeyError";
  }
}

export function keyId(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}

export class SecretBox {
  readonly #current: Buffer;
  readonly #currentId: string;
  readonly #keys: Map<string, Buffer>;

  /** `current` seals; `previous` keys only open (a rotation in progress). Each is 32 bytes. */
  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const k of [current, ...previous]) if (k.length !== 32) throw new SecretKeyError(`a secrets key must be 32 bytes, got ${k.length}`);
    this.#current = current;
    this.#currentId = keyId(current);
    this.#keys = new Map([...previous.map((k) => [keyId(k), k] as const), [this.#currentId, current]]);
  }

  /** The prefix of every value sealed under the current key: values without it need sealing again. */
  get currentPrefix(): string {
    return `${SEALED_PREFIX}${this.#currentId}:`;
  }

  seal(plain: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.#current, nonce);
    const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return `${this.currentPrefix}${Buffer.concat([nonce, cipher.getAuthTag(), ct]).toString("base64url")}`;
  }

  open(stored: string): string {
    if (!stored.startsWith(SEALED_PREFIX)) return stored;
    const [, id, data] = stored.split(":");
    const key = id === undefined ? undefined : this.#keys.get(id);
    if (!key || data === undefined) {
      throw new SecretKeyError(`a stored secret was sealed under key ${id ?? "?"}, which is neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS; set the key it was sealed with`);
    }
    const raw = Buffer.from(data, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, NONCE_BYTES));
    decipher.setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  }

  /** A stored value as it should be stored now: plaintext or sealed under an older key becomes sealed under the current one. */
  reseal(stored: string): string {
    return stored.startsWith(this.currentPrefix) ? stored : this.seal(this.open(stored));
  }
}
