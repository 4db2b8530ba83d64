import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { startTcpListener, type TcpListener } from "../../../src/adapters/ingest/tcp-listener.ts";
import { metric, metricsText, positionLine, stationFor, type TestStation } from "../../helpers/ingest.ts";
import { startTestService, type TestService } from "../../helpers/service.ts";

/** A connection from `localAddress` (any 127/8 address is this machine on Linux), resolved once connected. */
function open(port: number, localAddress = "127.0.0.1"): Promise<{ socket: Socket; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress });
    let out = "";
    socket.setEncoding("latin1");
    socket.on("data", (d: string) => {
      out += d;
    });
    socket.on("error", () => {});
    const closed = new Promise<string>((r) => socket.on("close", () => r(out)));
    socket.once("connect", () => resolve({ socket, closed }));
    socket.once("error", reject);
  });
}

/** Resolves with whether the socket closed before `ms` passed. */
function closesWithin(closed: Promise<string>, ms: number): Promise<boolean> {
  return Promise.race([closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
}

describe("station TCP listener: idle timeout and connection caps", () => {
  let t: TestService;
  let st: TestStation;
  let listener: TcpListener;
  before(async () => {
    t = await startTestService({ withData: false });
    st = await stationFor(t);
    const { pipeline, directory } = t.service.ingest;
    listener = await startTcpListener(pipeline, directory, { port: 0, host: "127.0.0.1", idleTimeoutMs: 300, maxPerAddress: 2, maxConnections: 3 });
  });
  after(async () => {
    await listener.close();
    await t.close();
  });

  it("an authenticated station that falls silent is acknowledged and closed, and the close is counted", async () => {
    const c = await open(listener.port);
    c.socket.write(`AUTH ${st.secret}\n${positionLine({ mmsi: 340_000_001, lat: 57, lon: 20 })}\n`);
    const out = await c.closed;
    assert.match(out, /^OK \d+\n/);
    assert.match(out, /ACK 1\n$/, "what it sent is committed before the socket is let go");
    await t.service.ingest.pipeline.flush();
    const [counters] = await t.service.services.positions.counters([st.id]);
    assert.ok((counters!.counters.tcp_idle_closed ?? 0) >= 1);
  });

  it("a station that keeps sending keeps its socket past many idle timeouts", async () => {
    // The listener and this sender share one event loop: when the whole process stalls longer
    // than the idle timeout (a loaded machine), the listener heard nothing for that long either.
    // An attempt with such a gap proves nothing and is made again; one without must stay open.
    for (let attempt = 1; ; attempt++) {
      const c = await open(listener.port);
      c.socket.write(`AUTH ${st.secret}\n`);
      let n = 0;
      let last = performance.now();
      let longestGap = 0;
      const feed = setInterval(() => {
        const now = performance.now();
        longestGap = Math.max(longestGap, now - last);
        last = now;
        c.socket.write(`${positionLine({ mmsi: 340_000_100 + (n++ % 50), lat: 57, lon: 20 })}\n`);
      }, 50);
      const closedEarly = await closesWithin(c.closed, 1_500);
      clearInterval(feed);
      if (closedEarly && longestGap >= 250 && attempt < 5) continue;
      assert.equal(closedEarly, false, `closed though at most ${longestGap.toFixed(0)} ms passed between lines (attempt ${attempt})`);
      c.socket.end();
      await c.closed;
      return;
    }
  });

  it("connections beyond the per-address cap are closed on accept; another address still gets in; beyond the listener cap nobody does", async () => {
    const before = metric(await metricsText(t), 'mds_ingest_tcp_refused_total{reason="address_cap"}');
    const a1 = await open(listener.port, "127.0.0.1");
    const a2 = await open(listener.port, "127.0.0.1");
    const a3 = await open(listener.port, "127.0.0.1");
    assert.equal(await a3.closed, "", "the third from one address is closed without a word");
    assert.equal(metric(await metricsText(t), 'mds_ingest_tcp_refused_total{reason="address_cap"}') - before, 1);
    const b1 = await open(listener.port, "127.0.0.2");
    assert.equal(await closesWithin(b1.closed, 200), false, "a second address is under its own cap");
    const full = metric(await metricsText(t), 'mds_ingest_tcp_refused_total{reason="listener_cap"}');
    const c1 = await open(listener.port, "127.0.0.3");
    assert.equal(await c1.closed, "", "the listener is full (3)");
    assert.equal(metric(await metricsText(t), 'mds_ingest_tcp_refused_total{reason="listener_cap"}') - full, 1);
    for (const c of [a1, a2, b1]) c.socket.destroy();
  });
});
