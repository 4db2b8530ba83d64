import { createHmac, hash, randomBytes, timingSafeEqual } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniform base62 text: bytes >= 248 are dropped so every character is equally likely. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

/** Ids carry a prefix naming their kind: `acc_`, `key_`. */
export function newId(prefix: "acc" | "key"): string {
  return `${prefix}_${randomBase62(16)}`;
}

/**
 * API keys `mds_sk_` and station secrets `mds_st_` plus 32 base62 characters (about 190 bits).
 * The prefix lets secret scanners and people recognise them.
 */
export function newSecret(prefix: "mds_sk" | "mds_st"): string {
  return `${prefix}_${randomBase62(32)}`;
}

export const KEY_PATTERN = /^mds_sk_[0-9A-Za-z]{32}$/;

/** SHA-256 in hex. The one-shot hash() writes the same digest as createHash() without building a Hash object: a key is hashed on every call. */
export function hashSecret(secret: string): string {
  return hash("sha256", secret, "hex");
}

/** What the UDP signing key is derived over; a new derivation gets a new label. */
export const UDP_KEY_LABEL = "mds-udp-v1";

/**
 * A station's UDP signing key: HMAC-SHA256 keyed with the station secret over
 * UDP_KEY_LABEL. The database stores SHA-256 of the secret (to find the station at login)
 * and this key only sealed under a key kept outside it; HMAC with a key of at most 64
 * bytes (station secrets are 39) pads the secret itself rather than hashing it, so the
 * stored digest gives no way to the signing key.
 */
export function udpSigningKey(secret: string): Buffer {
  return createHmac("sha256", secret).update(UDP_KEY_LABEL, "utf8").digest();
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
