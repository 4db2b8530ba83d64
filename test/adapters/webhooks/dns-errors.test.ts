/**
 * Issue 18 item 11: a name that does not resolve is a `dns` failure in the delivery log, never
 * `connect`. c-ares reports a DNS server that refuses or cannot be reached as ECONNREFUSED,
 * the code of a receiver refusing the connection; failures are now tagged where the lookup
 * fails. Nothing here needs a network: the resolver is pointed at a closed local port or injected.
 */
import assert from "node:assert/strict";
import { createSocket } from "node:dgram";
import { describe, it } from "node:test";
import { DeliveryTransport, type Resolver, systemResolver } from "../../../src/adapters/webhooks/http-client.ts";
import { policyAllowing } from "../../helpers/webhooks.ts";

const send = (client: DeliveryTransport, url: string) => client.send({ url, body: '{"id":"evt_1"}', headers: { "content-type": "application/json" } });

/** A local UDP port with nothing listening: bound and closed again, so it is free and refuses. */
async function closedUdpPort(): Promise<number> {
  const s = createSocket("udp4");
  await new Promise<void>((resolve) => s.bind(0, "127.0.0.1", resolve));
  const { port } = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe("webhook deliveries whose name does not resolve", () => {
  it("a DNS server that refuses the query (ECONNREFUSED from c-ares) is dns, not connect", async () => {
    const resolver = systemResolver(1_000, [`127.0.0.1:${await closedUdpPort()}`]);
    const r = await send(new DeliveryTransport({ resolver, policy: policyAllowing("127.0.0.3/32"), deadlineMs: 3_000 }), "https://hooks.example.test/in");
    assert.equal(r.success, false);
    assert.equal(r.errorClass, "dns", r.error ?? "");
    assert.match(r.error ?? "", /hooks\.example\.test/);
  });

  it("a resolver failing without a code, or with a name that has no address, is dns", async () => {
    const failing: Resolver = async () => {
      throw new Error("upstream resolver gave up");
    };
    const empty: Resolver = async () => [];
    for (const resolver of [failing, empty]) {
      const r = await send(new DeliveryTransport({ resolver, policy: policyAllowing("127.0.0.3/32"), deadlineMs: 3_000 }), "https://hooks.example.test/in");
      assert.deepEqual([r.success, r.errorClass], [false, "dns"], r.error ?? "");
    }
  });
});
