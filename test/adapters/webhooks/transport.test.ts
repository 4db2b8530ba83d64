/**
 * The delivery HTTP client against real local HTTPS servers (docs/webhook-testing.md, Seams):
 * receivers on 127.0.0.3..8:8443 stand for public hosts (the allow list names exactly
 * them), a trap on 127.0.0.1:8443 must never see a connection, names come from an
 * injected resolver, trust from a test CA. Checklist N-6..N-9, N-11..N-13, T-1..T-4,
 *
 */
import assert from "node:assert/strict";
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { createServer as createTlsServer, type Server as TlsServer } from "node:tls";
import { after, before, describe, it } from "node:test";
import { DeliveryTransport, type Resolver } from "../../../src/adapters/webhooks/http-client.ts";
import { MAX_BODY_BYTES } from "../../../src/domain/webhooks/schedule.ts";
import { BLOCKED_V4_LITERALS, BLOCKED_V6_LITERALS, mapResolver, policyAllowing, type Receiver, startReceiver, testPki, wait } from "../../helpers/webhooks.ts";

const DEADLINE = 1_000;
const ALLOWED = ["127.0.0.3/32", "127.0.0.4/32", "127.0.0.5/32", "127.0.0.6/32", "127.0.0.7/32", "127.0.0.8/32"];

describe("webhook HTTP client", () => {
  let good: Receiver;
  let trap: Receiver;
  let wrongName: Receiver;
  let rogue: Receiver;
  let noTls: TcpServer;
  let garbage: TlsServer;
  let noTlsConnections = 0;
  const hang: Resolver = () => new Promise(() => undefined);
  const names = mapResolver({
    "hooks.example.test": "127.0.0.3",
    "close.example.test": "127.0.0.3",
    "wrongname.example.test": "127.0.0.4",
    "rogue.example.test": "127.0.0.5",
    "notls.example.test": "127.0.0.6",
    "refused.example.test": "127.0.0.7",
    "garbage.example.test": "127.0.0.8",
    "loop.example.test": "127.0.0.1",
    "mixed.example.test": ["127.0.0.3", "169.254.169.254"],
    "mixed6.example.test": ["2001:4860:4860::8888", "127.0.0.1"],
    "metadata.google.internal": "169.254.169.254",
    "rebind.example.test": (n) => [n === 1 ? "127.0.0.3" : "127.0.0.1"],
  });
  const resolver: Resolver = (host) => (host === "hang.example.test" ? hang(host) : names(host));
  let client: DeliveryTransport;
  const send = (url: string, body = '{"id":"evt_1"}', c = client) => c.send({ url, body, headers: { "content-type": "application/json" } });

  before(async () => {
    const pki = testPki();
    good = await startReceiver("127.0.0.3", {
      behaviour: async (req, res) => {
        const u = new URL(req.url, "https://x");
        const p = u.pathname;
        if (p === "/close") {
          res.setHeader("connection", "close");
          res.statusCode = 200;
          res.end("ok");
        } else if (p === "/slow") {
          await wait(Number(u.searchParams.get("ms")));
          res.statusCode = 204;
          res.end();
        } else if (p === "/never") {
          // no answer at all
        } else if (p === "/trickle") {
          res.writeHead(Number(u.searchParams.get("status") ?? 500));
          const timer = setInterval(() => res.write("x"), 50);
          res.on("close", () => clearInterval(timer));
        } else if (p === "/endless") {
          res.writeHead(200);
          const chunk = Buffer.alloc(64 * 1024, 0x61);
          const pump = () => {
            while (res.write(chunk));
          };
          res.on("drain", pump);
          pump();
        } else if (p.startsWith("/status/")) {
          res.statusCode = Number(p.slice(8));
          if (res.statusCode >= 300 && res.statusCode < 400) res.setHeader("location", u.searchParams.get("to") ?? "https://hooks.example.test:8443/target");
          res.end(u.searchParams.get("body") ?? "");
        } else if (p === "/big") {
          res.statusCode = Number(u.searchParams.get("status") ?? 200);
          res.end(Buffer.alloc(1024 * 1024, 0x62));
        } else if (p === "/early") {
          // An informational answer first (103 Early Hints), then the real one.
          res.writeEarlyHints({ link: "</style.css>; rel=preload; as=style" });
          if (u.searchParams.has("drop")) {
            res.socket?.destroy();
            return;
          }
          res.statusCode = Number(u.searchParams.get("status") ?? 204);
          res.end(u.searchParams.get("body") ?? "");
        } else if (p === "/reset") {
          res.socket?.write("HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial");
          res.socket?.destroy();
        } else {
          res.statusCode = 204;
          res.end();
        }
      },
    });
    trap = await startReceiver("127.0.0.1");
    wrongName = await startReceiver("127.0.0.4", { key: pki.otherKey, cert: pki.otherCert });
    rogue = await startReceiver("127.0.0.5", { key: pki.rogueKey, cert: pki.rogueCert });
    noTls = createTcpServer(() => noTlsConnections++);
    await new Promise<void>((r) => noTls.listen(8443, "127.0.0.6", r));
    garbage = createTlsServer({ key: pki.key, cert: pki.cert }, (s) => {
      s.on("data", () => s.end("HELLO THIS IS NOT HTTP\r\n\r\n"));
      s.on("error", () => undefined);
    });
    await new Promise<void>((r) => garbage.listen(8443, "127.0.0.8", r));
    client = new DeliveryTransport({ resolver, policy: policyAllowing(...ALLOWED), ca: pki.ca, deadlineMs: DEADLINE });
  });

  after(async () => {
    await client.close();
    await Promise.all([good.close(), trap.close(), wrongName.close(), rogue.close()]);
    noTls.close();
    garbage.close();
  });

  it("delivers to a public name: the socket goes to the checked address, SNI is the name", async () => {
    const r = await send("https://hooks.example.test:8443/in?x=1");
    assert.equal(r.success, true);
    assert.equal(r.statusCode, 204);
    const last = good.received.at(-1)!;
    assert.equal(last.url, "/in?x=1");
    assert.equal(last.localAddress, "127.0.0.3");
    assert.equal(last.servername, "hooks.example.test");
  });

  it("N-6: names resolving to private or mixed answers are blocked before any connection", async () => {
    for (const host of ["loop.example.test", "mixed.example.test", "mixed6.example.test", "metadata.google.internal"]) {
      const r = await send(`https://${host}:8443/`);
      assert.equal(r.errorClass, "blocked_address", host);
      assert.equal(r.success, false);
    }
    for (const host of ["localhost", "api.localhost"]) assert.equal((await send(`https://${host}:8443/`)).errorClass, "invalid_target", host);
  });

  it("N-3/N-4 at delivery time: every literal of the corpus is blocked without a connection", async () => {
    for (const h of [...BLOCKED_V4_LITERALS, ...BLOCKED_V6_LITERALS]) {
      const r = await send(`https://${h}:8443/`);
      assert.equal(r.errorClass, "blocked_address", h);
    }
  });

  it("N-7: DNS rebinding gets one resolution per connection; the second answer (127.0.0.1) is refused", async () => {
    const before = good.received.length;
    const first = await send("https://rebind.example.test:8443/close");
    assert.equal(first.success, true);
    assert.equal(good.received.length, before + 1);
    const second = await send("https://rebind.example.test:8443/close");
    assert.equal(second.errorClass, "blocked_address");
    assert.equal(names.calls.get("rebind.example.test"), 2);
  });

  it("N-9: redirects are failures with their status; the target is never requested", async () => {
    for (const code of [301, 302, 303, 307, 308]) {
      for (const to of ["https://hooks.example.test:8443/target", "http://127.0.0.1:8443/", "https://169.254.169.254/latest/meta-data/"]) {
        const r = await send(`https://hooks.example.test:8443/status/${code}?to=${encodeURIComponent(to)}`);
        assert.equal(r.success, false);
        assert.equal(r.statusCode, code);
        assert.equal(r.errorClass, "http_status");
      }
    }
    assert.equal(good.received.filter((x) => x.url === "/target").length, 0);
  });

  it("N-12: proxy variables in the environment change nothing", async () => {
    const saved = { HTTPS_PROXY: process.env.HTTPS_PROXY, HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
    process.env.HTTPS_PROXY = "http://127.0.0.1:9";
    process.env.HTTP_PROXY = "http://127.0.0.1:9";
    process.env.NO_PROXY = "";
    try {
      const c = new DeliveryTransport({ resolver, policy: policyAllowing(...ALLOWED), ca: testPki().ca, deadlineMs: DEADLINE });
      assert.equal((await send("https://hooks.example.test:8443/", undefined, c)).statusCode, 204);
      await c.close();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it("N-13 / R-3: TLS is verified: a certificate for another name and an unknown CA fail as tls", async () => {
    const a = await send("https://wrongname.example.test:8443/");
    assert.equal(a.errorClass, "tls", a.error ?? "");
    const b = await send("https://rogue.example.test:8443/");
    assert.equal(b.errorClass, "tls", b.error ?? "");
    assert.equal(wrongName.received.length + rogue.received.length, 0);
  });

  it("R-3: refused connections, unknown names, non-HTTP answers and resets are failures with their class", async () => {
    assert.equal((await send("https://refused.example.test:8443/")).errorClass, "connect");
    assert.equal((await send("https://nxdomain.example.test:8443/")).errorClass, "dns");
    const g = await send("https://garbage.example.test:8443/");
    assert.equal(g.errorClass, "protocol", g.error ?? "");
    const reset = await send("https://hooks.example.test:8443/reset");
    assert.equal(reset.success, true, "headers with 200 arrived before the reset: the receiver answered in time");
    for (const code of [400, 404, 410, 429, 500, 503]) {
      const r = await send(`https://hooks.example.test:8443/status/${code}`);
      assert.deepEqual([r.success, r.statusCode, r.errorClass], [false, code, "http_status"]);
    }
  });

  it("R-4: any 2xx is a success, with or without a body, also one larger than the read cap", async () => {
    for (const code of [200, 201, 202, 204]) assert.equal((await send(`https://hooks.example.test:8443/status/${code}${code === 204 ? "" : "?body=ok"}`)).success, true, String(code));
    const big = await send("https://hooks.example.test:8443/big");
    assert.equal(big.success, true);
    assert.equal(big.responseSnippet?.length, 1024);
  });

  it("R-4: an informational 1xx answer before the real one is not the outcome", async () => {
    const ok = await send("https://hooks.example.test:8443/early");
    assert.deepEqual([ok.success, ok.statusCode, ok.responseSnippet], [true, 204, ""]);
    const failed = await send("https://hooks.example.test:8443/early?status=500&body=down");
    assert.deepEqual([failed.success, failed.statusCode, failed.errorClass, failed.responseSnippet], [false, 500, "http_status", "down"]);
    // A connection dropped after the 1xx had no outcome: no status, a transport failure.
    const dropped = await send("https://hooks.example.test:8443/early?drop");
    assert.deepEqual([dropped.success, dropped.statusCode, dropped.errorClass], [false, null, "protocol"]);
  });

  it("T-1: a connect that never does TLS, a server that never answers, a trickled error body and a hung DNS lookup all end at the deadline", async () => {
    const cases = await Promise.all(
      ["https://notls.example.test:8443/", "https://hooks.example.test:8443/never", "https://hooks.example.test:8443/trickle?status=500", "https://hang.example.test:8443/"].map(async (url) => {
        const t0 = performance.now();
        const r = await send(url);
        return { url, r, ms: performance.now() - t0 };
      }),
    );
    for (const { url, r, ms } of cases) {
      assert.equal(r.success, false, url);
      assert.ok(ms >= DEADLINE - 50 && ms < DEADLINE + 500, `${url}: ${Math.round(ms)} ms`);
      if (!url.includes("trickle")) assert.equal(r.errorClass, "timeout", `${url}: ${r.errorClass} ${r.error}`);
    }
    assert.ok(noTlsConnections >= 1);
  });

  it("T-2: headers just inside the deadline succeed, just outside fail", async () => {
    const [inside, outside] = await Promise.all([send(`https://hooks.example.test:8443/slow?ms=${DEADLINE * 0.7}`), send(`https://hooks.example.test:8443/slow?ms=${DEADLINE * 1.3}`)]);
    assert.equal(inside.success, true);
    assert.equal(outside.success, false);
    assert.equal(outside.errorClass, "timeout");
  });

  it("T-3: request bodies up to 65,536 bytes go out; one byte more is never sent", async () => {
    const n = good.received.length;
    const exact = "é".repeat((MAX_BODY_BYTES - 2) / 2) + "ab";
    assert.equal(Buffer.byteLength(exact), MAX_BODY_BYTES);
    assert.equal((await send("https://hooks.example.test:8443/", exact)).success, true);
    assert.equal(good.received.at(-1)!.raw.length, MAX_BODY_BYTES);
    // A two-byte character straddling the boundary counts both bytes.
    const over = "a".repeat(MAX_BODY_BYTES - 1) + "é";
    const r = await send("https://hooks.example.test:8443/", over);
    assert.equal(r.errorClass, "body_too_large");
    assert.equal(good.received.length, n + 1);
  });

  it("T-4/T-5: only 1 KB of an endless answer is read; the snippet is text", async () => {
    const before = process.memoryUsage().rss;
    const r = await send("https://hooks.example.test:8443/endless");
    assert.equal(r.success, true);
    assert.equal(r.responseSnippet, "a".repeat(1024));
    assert.ok(r.durationMs < DEADLINE);
    assert.ok(process.memoryUsage().rss - before < 64 * 1024 * 1024);
    const err = await send("https://hooks.example.test:8443/big?status=500");
    assert.deepEqual([err.success, err.responseSnippet?.length], [false, 1024]);
  });

  it("N-8/N-11 and the bottom line: nothing ever connected to 127.0.0.1", () => {
    assert.equal(trap.connections, 0);
    assert.equal(trap.received.length, 0);
  });
});
