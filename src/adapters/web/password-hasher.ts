import { argon2, randomBytes, timingSafeEqual } from "node:crypto";
import { ARGON2_SALT_BYTES, ARGON2_TAG_BYTES, type Argon2Params, CURRENT_ARGON2, formatPhc, needsRehash, parsePhc } from "../../domain/people/password.ts";

/**
 * argon2id through Node's built-in `crypto.argon2` (Node 24.7+), which runs off the main
 * thread. About 30 ms per hash at today's parameters on the reference machine.
 */
function derive(password: string, salt: Buffer, params: Argon2Params, tagLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    argon2("argon2id", { message: password, nonce: salt, memory: params.memory, passes: params.passes, parallelism: params.parallelism, tagLength }, (err, key) =>
      err ? reject(err) : resolve(Buffer.from(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(ARGON2_SALT_BYTES);
  const hash = await derive(password, salt, CURRENT_ARGON2, ARGON2_TAG_BYTES);
  return formatPhc({ params: CURRENT_ARGON2, salt, hash });
}

export type Verification = { ok: false } | { ok: true; rehash: boolean };

export async function verifyPassword(password: string, stored: string): Promise<Verification> {
  const phc = parsePhc(stored);
  if (!phc) return { ok: false };
  const candidate = await derive(password, phc.salt, phc.params, phc.hash.length);
  if (!timingSafeEqual(candidate, phc.hash)) return { ok: false };
  return { ok: true, rehash: needsRehash(phc) };
}

/**
 * A hash of a password nobody has, verified when the e-mail is unknown so that a wrong
 * e-mail costs the same time as a wrong password and does not reveal who has an account.
 */
let decoy: Promise<string> | null = null;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(24).toString("base64"));
  return decoy;
}
