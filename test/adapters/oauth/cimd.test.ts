import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cimdFetcher } from "../../../src/adapters/oauth/cimd-fetcher.ts";
import { DeliveryTransport } from "../../../src/adapters/webhooks/http-client.ts";
import { CIMD_TIMEOUT_MS } from "../../../src/domain/oauth/lifetimes.ts";
import { ClientResolver } from "../../../src/adapters/oauth/client-resolver.ts";
import type { OAuthStore, StoredClient } from "../../../src/interfaces/oauth.ts";
import { TestClock } from "../../helpers/service.ts";

const URL_ = "https://client.test/cimd.json";
const doc = (over: Record<string, unknown> = {}) => JSON.stringify({ client_id: URL_, client_name: "C", redirect_uris: ["https://client.test/cb"], ...over });

/** Only the client half of the store: what the resolver uses. */
function clientStore(): OAuthStore {
  const rows = new Map<string, StoredClient>();
  return {
    getClient: async (id: string) => rows.get(id) ?? null,
    saveClient: async (c: StoredClient) => void rows.set(c.clientId, c),
  } as unknown as OAuthStore;
}

describe("client metadata documents", () => {
  it("refused unless the document is JSON, 200, small, valid and names its own URL", async () => {
    const table: [{ status?: number; body: string }, RegExp][] = [
      [{ status: 404, body: doc() }, /HTTP 404/],
      [{ body: "not json" }, /not JSON/],
      [{ body: doc({ client_id: "https://other.test/cimd.json" }) }, /must equal its URL/],
      [{ body: doc({ redirect_uris: ["javascript:alert(1)"] }) }, /invalid/],
      [{ body: doc({ token_endpoint_auth_method: "client_secret_basic" }) }, /none/],
      [{ body: doc({ client_name: "x".repeat(6000) }) }, /larger than 5120 bytes/],
    ];
    for (const [answer, message] of table) {
      const r = new ClientResolver(clientStore(), new TestClock(), async () => ({ status: answer.status ?? 200, contentType: "application/json", cacheControl: null, body: answer.body }));
      const out = await r.resolve(URL_);
      assert.equal(out.ok, false);
      assert.match(out.ok ? "" : out.message, message);
    }
  });

  it("cached for its max-age, then fetched again", async () => {
    const clock = new TestClock();
    let fetches = 0;
    const r = new ClientResolver(clientStore(), clock, async () => {
      fetches++;
      return { status: 200, contentType: "application/json", cacheControl: "max-age=300", body: doc() };
    });
    assert.ok((await r.resolve(URL_)).ok);
    clock.t += 299_000;
    assert.ok((await r.resolve(URL_)).ok);
    assert.equal(fetches, 1);
    clock.t += 2_000;
    assert.ok((await r.resolve(URL_)).ok);
    assert.equal(fetches, 2);
  });

  it("the production fetcher keeps to the webhook address rules: no private addresses, no plain http", async () => {
    const transport = new DeliveryTransport({ deadlineMs: CIMD_TIMEOUT_MS });
    const f = { fetch: cimdFetcher(transport), close: () => transport.close() };
    try {
      await assert.rejects(f.fetch("https://127.0.0.1/cimd.json"), /not point at a private|not a public address/);
      await assert.rejects(f.fetch("https://169.254.169.254/latest/meta-data"), /not point at a private|not a public address/);
      await assert.rejects(f.fetch("http://client.example/cimd.json"), /https/);
    } finally {
      await f.close();
    }
  });
});
