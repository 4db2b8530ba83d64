import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { buildApp } from "../../../src/adapters/http/app.ts";
import { OPERATIONS } from "../../../src/operations/registry.ts";
import { startTestService, type TestService } from "../../helpers/service.ts";

const OUTSIDER = "203.0.113.9";

describe("/metrics is not public", () => {
  let open: TestService;
  let tokened: TestService;
  const token = "metrics-token-0123456789abcdef";
  before(async () => {
    open = await startTestService({ withData: false });
    tokened = await startTestService({ withData: false, env: { METRICS_TOKEN: token } });
  });
  after(async () => {
    await open.close();
    await tokened.close();
  });

  it("without METRICS_TOKEN it answers loopback clients and refuses everyone else, showing no station activity", async () => {
    const local = await open.service.app.inject({ method: "GET", url: "/metrics", remoteAddress: "127.0.0.1" });
    assert.equal(local.statusCode, 200);
    assert.match(local.body, /mds_api_calls_total|mds_ingest_/);
    for (const remoteAddress of [OUTSIDER, "10.0.0.7", "::ffff:192.0.2.1"]) {
      const far = await open.service.app.inject({ method: "GET", url: "/metrics", remoteAddress });
      assert.equal(far.statusCode, 403, remoteAddress);
      assert.equal(far.json().error.code, "metrics_not_allowed");
      assert.doesNotMatch(far.body, /mds_ingest_/);
    }
  });

  it("with METRICS_TOKEN it asks every client, loopback included, for the bearer token", async () => {
    const ask = (remoteAddress: string, authorization?: string) =>
      tokened.service.app.inject({ method: "GET", url: "/metrics", remoteAddress, headers: authorization ? { authorization } : {} });
    assert.equal((await ask("127.0.0.1")).statusCode, 403, "loopback without the token");
    assert.equal((await ask(OUTSIDER, `Bearer ${token}x`)).statusCode, 403, "a wrong token");
    const ok = await ask(OUTSIDER, `Bearer ${token}`);
    assert.equal(ok.statusCode, 200);
    assert.match(ok.body, /mds_api_calls_total/);
  });
});

describe("links are never built from a foreign Host", () => {
  let local: TestService;
  let based: TestService;
  before(async () => {
    local = await startTestService({ withData: false, env: { MCP_ALLOWED_HOSTS: "api.example.net" } });
    based = await startTestService({ withData: false, env: { BASE_URL: "https://maritime.example.org" } });
  });
  after(async () => {
    await local.close();
    await based.close();
  });

  it("without BASE_URL, a Host outside the allowed list is refused with 421 host_not_allowed and nothing names that host", async () => {
    const { key } = await local.key("pro");
    for (const url of ["/api/v1/openapi.json", "/api/v1/usage", "/api/v1/ports?limit=1", "/no/such/route"]) {
      const r = await local.service.app.inject({ method: "GET", url, headers: { host: "evil.example", authorization: `Bearer ${key}` } });
      assert.equal(r.statusCode, 421, url);
      assert.equal(r.json().error.code, "host_not_allowed");
      assert.doesNotMatch(r.body, /evil\.example/, url);
    }
  });

  it("without BASE_URL, local names and the operator's allowed hosts still get links on the host they used", async () => {
    for (const host of ["localhost:8080", "127.0.0.1:9000", "[::1]:8080", "API.example.net"]) {
      const r = await local.service.app.inject({ method: "GET", url: "/api/v1/openapi.json", headers: { host } });
      assert.equal(r.statusCode, 200, host);
      assert.equal(r.json().servers[0].url.toLowerCase(), `http://${host.toLowerCase()}`, host);
    }
    assert.equal((await local.service.app.inject({ method: "GET", url: "/healthz", headers: { host: "10.1.2.3:8080" } })).statusCode, 200, "health probes by address");
  });

  it("with BASE_URL, every link is on BASE_URL whatever the Host says", async () => {
    const r = await based.service.app.inject({ method: "GET", url: "/api/v1/openapi.json", headers: { host: "evil.example" } });
    assert.equal(r.statusCode, 200);
    assert.doesNotMatch(r.body, /evil\.example/);
    assert.match(r.body, /https:\/\/maritime\.example\.org/);
  });
});

/** Resolves when the server closes the socket, with whatever it wrote. */
function closed(s: Socket): Promise<string> {
  return new Promise((resolve) => {
    let out = "";
    s.setEncoding("latin1");
    s.on("data", (d: string) => {
      out += d;
    });
    s.on("error", () => {});
    s.on("close", () => resolve(out));
  });
}

describe("slow HTTP clients cannot hold a socket", () => {
  let t: TestService;
  let app: ReturnType<typeof buildApp>;
  let port: number;
  before(async () => {
    t = await startTestService({ withData: false });
    app = buildApp({
      pipeline: t.service.pipeline,
      operations: OPERATIONS,
      logLevel: "silent",
      limits: { headersTimeoutMs: 300, requestTimeoutMs: 600, idleTimeoutMs: 600, keepAliveTimeoutMs: 200, checkIntervalMs: 100, maxConnections: 3 },
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    port = (app.server.address() as { port: number }).port;
  });
  after(async () => {
    await app.close();
    await t.close();
  });

  it("a client that never finishes its headers is answered 408 and closed", async () => {
    const s = connect({ port, host: "127.0.0.1" });
    s.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
    const drip = setInterval(() => s.writable && s.write("a"), 50);
    const out = await closed(s);
    clearInterval(drip);
    assert.match(out, /^HTTP\/1\.1 408/);
  });

  it("a client that never finishes its body is closed", async () => {
    const s = connect({ port, host: "127.0.0.1" });
    s.write("POST /ingest/nmea HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n");
    const drip = setInterval(() => s.writable && s.write("!"), 50);
    await closed(s);
    clearInterval(drip);
  });

  it("a kept-alive socket without a next request is closed", async () => {
    const s = connect({ port, host: "127.0.0.1" });
    s.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
    const out = await closed(s);
    assert.match(out, /^HTTP\/1\.1 200/);
  });

  it("connections beyond the listener's cap are closed on accept", async () => {
    const held = Array.from({ length: 3 }, () => connect({ port, host: "127.0.0.1" }));
    await Promise.all(held.map((s) => new Promise((r) => s.once("connect", r))));
    const extra = connect({ port, host: "127.0.0.1" });
    const out = await closed(extra);
    assert.equal(out, "");
    for (const s of held) s.destroy();
  });
});
