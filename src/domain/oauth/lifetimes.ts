/**
 * How long each credential lives. Codes are short and single-use (RFC 6749 10.5 asks for
 * about 10 minutes at most; a browser round trip needs seconds). Access tokens are opaque and
 * checked on every call, so revocation is immediate whatever their lifetime; an hour bounds
 * what a leaked one is worth. Refresh tokens rotate on every use.
 */
export const CODE_TTL_MS = 60_000;
export const ACCESS_TOKEN_TTL_MS = 60 * 60_000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;
/**
 * A used refresh token presented again within this window is refused without revoking its
 * family: clients that retry a refresh in parallel (a lost response, two tabs) are not
 * attackers. Later, reuse means the token was copied, and the whole family goes.
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;
/** Client metadata documents are cached within these bounds, whatever their Cache-Control says. */
export const CIMD_CACHE_MIN_MS = 60_000;
export const CIMD_CACHE_MAX_MS = 24 * 60 * 60_000;
export const CIMD_CACHE_DEFAULT_MS = 60 * 60_000;
export const CIMD_MAX_BYTES = 5 * 1024;
export const CIMD_TIMEOUT_MS = 5_000;

/** The cache lifetime a document's Cache-Control asks for, clamped to the bounds. */
export function cimdCacheMs(cacheControl: string | null | undefined): number {
  const cc = (cacheControl ?? "").toLowerCase();
  if (/\b(no-store|no-cache)\b/.test(cc)) return CIMD_CACHE_MIN_MS;
  const m = /\bmax-age\s*=\s*(\d+)/.exec(cc);
  const ms = m ? Number(m[1]) * 1000 : CIMD_CACHE_DEFAULT_MS;
  return Math.min(CIMD_CACHE_MAX_MS, Math.max(CIMD_CACHE_MIN_MS, ms));
}
