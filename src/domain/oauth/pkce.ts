import { createHash, timingSafeEqual } from "node:crypto";

/**
 * PKCE (RFC 7636) as OAuth 2.1 and the MCP authorization spec require it: S256 only.
 * `plain` would send the verifier itself through the browser, which is what PKCE exists
 * to avoid, so it is refused, not downgraded to.
 */

/** RFC 7636 4.1: 43..128 characters of the unreserved set. */
export const CODE_VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;
/** A base64url SHA-256 is always 43 characters. */
export const S256_CHALLENGE_PATTERN = /^[A-Za-z0-9\-_]{43}$/;

export type ChallengeCheck = { ok: true; challenge: string } | { ok: false; message: string };

/** The authorization request's half: a challenge must be present, S256, and shaped like one. */
export function checkCodeChallenge(challenge: string | undefined, method: string | undefined): ChallengeCheck {
  if (challenge === undefined || challenge === "") return { ok: false, message: "code_challenge is required (PKCE with S256)" };
  if (method !== "S256") return { ok: false, message: `code_challenge_method must be S256${method ? `, not ${method}` : " (it is missing)"}` };
  if (!S256_CHALLENGE_PATTERN.test(challenge)) return { ok: false, message: "code_challenge must be the 43-character base64url SHA-256 of the verifier" };
  return { ok: true, challenge };
}

export function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/** The token request's half: the verifier must hash to the stored challenge (compared in constant time). */
export function verifyCodeVerifier(verifier: string | undefined, challenge: string): boolean {
  if (verifier === undefined || !CODE_VERIFIER_PATTERN.test(verifier)) return false;
  const a = Buffer.from(s256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
