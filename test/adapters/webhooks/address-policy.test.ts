/** Target rules of spec 6.4 without the network (docs/spec-excerpts.md; docs/webhook-testing.md checklist N-1..N-5, N-10, N-14, N-15). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAllowedAddress, productionPolicy, WEBHOOK_PORTS } from "../../../src/domain/webhooks/address-policy.ts";
import { checkTargetUrl } from "../../../src/domain/webhooks/endpoint-url.ts";
import { ATTEMPT_DEADLINE_MS } from "../../../src/domain/webhooks/schedule.ts";
import { DeliveryTransport } from "../../../src/adapters/webhooks/http-client.ts";
import { BLOCKED_V4_LITERALS, BLOCKED_V6_LITERALS } from "../../helpers/webhooks.ts";

const prod = productionPolicy();
const problem = (url: string) => {
  const r = checkTargetUrl(url, prod);
  return r.ok ? "ok" : r.problem;
};

describe("webhook target URLs", () => {
  it("N-1: only https", () => {
    for (const u of ["http://hooks.example.com/", "ftp://hooks.example.com/", "file:///etc/passwd", "data:text/plain,x", "ws://hooks.example.com/", "wss://hooks.example.com/", "javascript:alert(1)"]) {
      assert.equal(problem(u), "scheme", u);
    }
    assert.equal(problem("//hooks.example.com/x"), "malformed");
    assert.equal(problem("hooks.example.com"), "malformed");
  });

  it("N-2: ports 443, 8443 or none, after WHATWG normalisation", () => {
    for (const u of ["https://hooks.example.com/", "https://hooks.example.com:443/", "https://hooks.example.com:8443/", "https://hooks.example.com:0443/", "https://hooks.example.com:08443/"]) {
      assert.equal(problem(u), "ok", u);
    }
    for (const u of ["https://hooks.example.com:80/", "https://hooks.example.com:444/", "https://hooks.example.com:9443/", "https://hooks.example.com:6379/"]) assert.equal(problem(u), "port", u);
    assert.equal(problem("https://hooks.example.com:65536/"), "malformed");
  });

  it("N-3: every literal IPv4 spelling of a non-public address is blocked", () => {
    for (const h of BLOCKED_V4_LITERALS) assert.equal(problem(`https://${h}/hook`), "blocked_address", h);
  });

  it("N-4: non-public IPv6 literals are blocked; a zone id is not a URL", () => {
    for (const h of BLOCKED_V6_LITERALS) assert.equal(problem(`https://${h}/hook`), "blocked_address", h);
    assert.equal(problem("https://[fe80::1%25eth0]/"), "malformed");
  });

  it("N-5: public literals are allowed, IPv4-mapped public too (our decision)", () => {
    for (const h of ["8.8.8.8", "[2001:4860:4860::8888]", "[::ffff:8.8.8.8]"]) assert.equal(problem(`https://${h}/`), "ok", h);
  });

  it("N-6 (names): localhost, *.localhost and single-label names are refused by name", () => {
    for (const h of ["localhost", "LOCALHOST.", "api.localhost", "intranet"]) assert.equal(problem(`https://${h}/`), "blocked_name", h);
  });

  it("N-10: user info is refused; the fragment is dropped and the query kept", () => {
    assert.equal(problem("https://u:p@hooks.example.com/"), "userinfo");
    assert.equal(problem("https://u@hooks.example.com/"), "userinfo");
    const r = checkTargetUrl("https://hooks.example.com/in?a=1&b=2#frag", prod);
    assert.ok(r.ok);
    assert.equal(r.url.toString(), "https://hooks.example.com/in?a=1&b=2");
    assert.equal(problem(`https://hooks.example.com/${"a".repeat(2100)}`), "too_long");
  });

  it("N-14: the Svix-style address table against isAllowedAddress", () => {
    const table: [string, boolean][] = [
      ["8.8.8.8", true],
      ["1.1.1.1", true],
      ["::ffff:8.8.8.8", true],
      ["2001:4860:4860::8888", true],
      ["2606:4700:4700::1111", true],
      ["127.0.0.1", false],
      ["10.1.2.3", false],
      ["172.16.0.1", false],
      ["192.168.1.1", false],
      ["169.254.169.254", false],
      ["100.64.0.1", false],
      ["0.0.0.0", false],
      ["192.0.0.1", false],
      ["192.0.2.1", false],
      ["198.51.100.1", false],
      ["203.0.113.1", false],
      ["192.88.99.1", false],
      ["224.0.0.251", false],
      ["255.255.255.255", false],
      ["168.63.129.16", false],
      ["::1", false],
      ["::", false],
      ["::ffff:127.0.0.1", false],
      ["::ffff:10.0.0.1", false],
      ["::7f00:1", false],
      ["::2", false],
      ["2002:c000:0204::", false],
      ["64:ff9b::808:808", false],
      ["64:ff9b:1::1", false],
      ["2001::1", false],
      ["2001:db8::1", false],
      ["fd7a:115c:a1e0::1", false],
      ["fd00:ec2::254", false],
      ["fe80::1", false],
      ["febf:ffff::", false],
      ["fec0::1", false],
      ["ff02::1", false],
      ["3fff::1", false],
      ["5f00::1", false],
      ["127.1", false],
      ["0x7f000001", false],
      ["not an address", false],
    ];
    for (const [addr, allowed] of table) assert.equal(isAllowedAddress(addr, prod), allowed, addr);
  });

  it("N-15: the production policy allows nothing extra and only ports 443 and 8443", () => {
    assert.deepEqual(prod.allow, []);
    assert.deepEqual([...prod.ports], [443, 8443]);
    assert.deepEqual([...WEBHOOK_PORTS], [443, 8443]);
    assert.ok(prod.deny.length >= 1);
    // The client built without seams uses that policy and the spec's 10 s deadline.
    const client = new DeliveryTransport();
    assert.equal(client.deadlineMs, 10_000);
    assert.equal(ATTEMPT_DEADLINE_MS, 10_000);
    void client.close();
  });
});
