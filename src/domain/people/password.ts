/**
 * Password rules and the stored form of a password hash. Hashing itself runs in an
 * adapter (it is CPU-heavy and asynchronous); this file says what is acceptable and how
 * the result is written down, so parameters can be raised later and old hashes upgraded
 * on the next sign-in.
 */

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

export type Check<T> = { ok: true; value: T } | { ok: false; param: string; rule: string };

/** Length only (counted in characters, not bytes): long passphrases beat composition rules. */
export function checkPassword(password: string): Check<string> {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    return { ok: false, param: "password", rule: `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long (got ${length})` };
  }
  return { ok: true, value: password };
}

/** Argon2id parameters: memory in KiB, passes, lanes. */
export interface Argon2Params {
  memory: number;
  passes: number;
  parallelism: number;
}

/** OWASP's minimum for argon2id: 19 MiB, 2 passes, 1 lane (about 30 ms here). */
export const CURRENT_ARGON2: Argon2Params = { memory: 19456, passes: 2, parallelism: 1 };
export const ARGON2_SALT_BYTES = 16;
export const ARGON2_TAG_BYTES = 32;

export interface PhcHash {
  params: Argon2Params;
  salt: Buffer;
  hash: Buffer;
}

const b64 = (b: Buffer) => b.toString("base64").replace(/=+$/, "");

/** `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, base64 without padding as the PHC format asks. */
export function formatPhc(h: PhcHash): string {
  return `$argon2id$v=19$m=${h.params.memory},t=${h.params.passes},p=${h.params.parallelism}$${b64(h.salt)}$${b64(h.hash)}`;
}

const PHC = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{16,})$/;

export function parsePhc(text: string): PhcHash | null {
  const m = PHC.exec(text);
  if (!m) return null;
  const params = { memory: Number(m[1]), passes: Number(m[2]), parallelism: Number(m[3]) };
  if (params.memory < 8 * params.parallelism || params.passes < 1 || params.parallelism < 1) return null;
  return { params, salt: Buffer.from(m[4]!, "base64"), hash: Buffer.from(m[5]!, "base64") };
}

/** A hash made with other parameters than today's is replaced at the next successful sign-in. */
export function needsRehash(h: PhcHash, current: Argon2Params = CURRENT_ARGON2): boolean {
  return h.params.memory !== current.memory || h.params.passes !== current.passes || h.params.parallelism !== current.parallelism || h.hash.length !== ARGON2_TAG_BYTES;
}
