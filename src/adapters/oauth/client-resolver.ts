import { checkClientIdUrl, isClientIdUrl, validateClientMetadata } from "../../domain/oauth/client-metadata.ts";
import { cimdCacheMs, CIMD_MAX_BYTES } from "../../domain/oauth/lifetimes.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { OAuthStore, StoredClient } from "../../interfaces/oauth.ts";
import type { CimdFetcher } from "./cimd-fetcher.ts";

export type ClientResolution = { ok: true; client: StoredClient } | { ok: false; message: string };

/**
 * A client_id names either a client that registered itself (a row) or, when it is an https
 * URL, a metadata document at that URL, fetched and cached within bounds.
 */
export class ClientResolver {
  readonly #store: OAuthStore;
  readonly #clock: Clock;
  readonly #fetch: CimdFetcher | undefined;

  constructor(store: OAuthStore, clock: Clock, fetch: CimdFetcher | undefined) {
    this.#store = store;
    this.#clock = clock;
    this.#fetch = fetch;
  }

  async resolve(clientId: string | undefined): Promise<ClientResolution> {
    if (clientId === undefined || clientId === "") return { ok: false, message: "client_id is missing" };
    if (!isClientIdUrl(clientId)) {
      const row = await this.#store.getClient(clientId);
      return row && row.kind === "dcr" ? { ok: true, client: row } : { ok: false, message: "client_id is not a registered client" };
    }
    const now = this.#clock.now();
    const cached = await this.#store.getClient(clientId);
    if (cached && cached.kind === "cimd" && cached.expiresAt !== null && cached.expiresAt > now) return { ok: true, client: cached };
    return this.#fetchDocument(clientId, now);
  }

  async #fetchDocument(clientId: string, now: number): Promise<ClientResolution> {
    const url = checkClientIdUrl(clientId);
    if (!url.ok) return { ok: false, message: `client_id ${url.message}` };
    if (!this.#fetch) return { ok: false, message: "this server does not fetch client metadata documents" };
    let doc;
    try {
      doc = await this.#fetch(clientId);
    } catch (e) {
      return { ok: false, message: `the client metadata document could not be fetched: ${(e as Error).message}` };
    }
    if (doc.status !== 200) return { ok: false, message: `the client metadata document answered HTTP ${doc.status}, not 200` };
    if (Buffer.byteLength(doc.body, "utf8") > CIMD_MAX_BYTES) return { ok: false, message: `the client metadata document is larger than ${CIMD_MAX_BYTES} bytes` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(doc.body);
    } catch {
      return { ok: false, message: "the client metadata document is not JSON" };
    }
    if ((parsed as { client_id?: unknown })?.client_id !== clientId) return { ok: false, message: "the client metadata document's client_id must equal its URL" };
    const check = validateClientMetadata(parsed, "cimd");
    if (!check.ok) return { ok: false, message: `the client metadata document is invalid: ${check.error_description}` };
    const client: StoredClient = { clientId, kind: "cimd", metadata: check.metadata, fetchedAt: now, expiresAt: now + cimdCacheMs(doc.cacheControl) };
    await this.#store.saveClient(client);
    return { ok: true, client };
  }
}
