import { CIMD_MAX_BYTES } from "../../domain/oauth/lifetimes.ts";

/** What fetching a client metadata document returned; a transport failure rejects instead. */
export interface FetchedDocument {
  status: number;
  contentType: string | null;
  cacheControl: string | null;
  body: string;
}

export type CimdFetcher = (url: string) => Promise<FetchedDocument>;

const first = (v: string | string[] | undefined): string | null => (Array.isArray(v) ? (v[0] ?? null) : (v ?? null));

/**
 * An outbound GET under the webhook address rules (https, public addresses only, checked at
 * connect time, no redirects), with a size cap. The composition root hands in the webhooks'
 * SSRF-safe transport, so both kinds of stranger-chosen address go through one guard.
 */
export interface GuardedGet {
  fetchSmall(url: string, maxBytes: number, headers?: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>;
}

/**
 * Client ID Metadata Documents come from addresses a stranger chose, so they are fetched
 * like webhook deliveries, plus a 5 KB cap; the transport carries the 5 s deadline
 * (CIMD_TIMEOUT_MS).
 */
export function cimdFetcher(transport: GuardedGet): CimdFetcher {
  return async (url) => {
    const res = await transport.fetchSmall(url, CIMD_MAX_BYTES, { accept: "application/json" });
    return { status: res.status, contentType: first(res.headers["content-type"]), cacheControl: first(res.headers["cache-control"]), body: res.body };
  };
}
