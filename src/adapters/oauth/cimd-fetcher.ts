import { CIMD_MAX_BYTES, CIMD_TIMEOUT_MS } from "../../domain/oauth/lifetimes.ts";
import { DeliveryTransport, type TransportOptions } from "../webhooks/http-client.ts";

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
 * Client ID Metadata Documents come from addresses a stranger chose, so they are fetched
 * like webhook deliveries: https, public addresses only (checked at connect time), no
 * redirects; plus a 5 KB cap and a 5 s deadline.
 */
export function safeCimdFetcher(options: TransportOptions = {}): { fetch: CimdFetcher; close(): Promise<void> } {
  const transport = new DeliveryTransport({ deadlineMs: CIMD_TIMEOUT_MS, ...options });
  return {
    async fetch(url) {
      const res = await transport.fetchSmall(url, CIMD_MAX_BYTES, { accept: "application/json" });
      return { status: res.status, contentType: first(res.headers["content-type"]), cacheControl: first(res.headers["cache-control"]), body: res.body };
    },
    close: () => transport.close(),
  };
}
