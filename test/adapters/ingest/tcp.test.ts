import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { ENGINES } from "../../helpers/service.ts";
import {
  garbage,
  type IngestTestService,
  metric,
  metricsText,
  positionLine,
  positionsOf,
  startIngestService,
  stationFor,
  type TestStation,
  tcpExchange,
  totalPositions,
} from "../../helpers/ingest.ts";

/** n distinct fixes: one vessel per line, so no two share a (mmsi, time) key. */
function fixes(n: number, firstMmsi: number): string[] {
  return Array.from({ length: n }, (_, i) => positionLine({ mmsi: firstMmsi + i, lat: 59 + (i % 100) / 100, lon: 20 + (i % 97) / 100 }));
}

for (const engine of ENGINES) {
  describe(`TCP station listener (${engine})`, () => {
    let t: IngestTestService;
    let st: TestStation;
    before(async () => {
      t = await startIngestService(engine);
      st = await stationFor(t);
    });
    after(() => t.close());

    it("AUTH then lines: OK <id>, a final ACK of every line, and every acknowledged fix is stored", async () => {
      const lines = fixes(3_000, 211_000_000);
      // Uneven pieces, so lines cross chunk boundaries.
      const text = `AUTH ${st.secret}\n${lines.join("\r\n")}\r\n`;
      const pieces: string[] = [];
      for (let at = 0; at < text.length; at += 7_919) pieces.push(text.slice(at, at + 7_919));
      const r = await tcpExchange(t.tcpPort, pieces);
      assert.match(r.output, new RegExp(`^OK ${st.id}\n`));
      assert.equal(r.acked, 3_000);
      assert.equal(await positionsOf(t, st.id), 3_000);
    });

    it("an unterminated last line is taken at end of input", async () => {
      const r = await tcpExchange(t.tcpPort, [`AUTH ${st.secret}\n${positionLine({ mmsi: 212_000_001, lat: 1, lon: 1 })}`]);
      assert.equal(r.acked, 1);
    });
  });
}

describe("TCP station listener under garbage", () => {
  let t: IngestTestService;
  let st: TestStation;
  before(async () => {
    t = await startIngestService();
    st = await stationFor(t);
  });
  after(() => t.close());

  it("wrong secret, unknown secret, no AUTH, random bytes, an endless first line: refused, counted, nothing stored", async () => {
    const valid = fixes(20, 220_000_000).join("\n");
    const attempts: (string | Buffer)[][] = [
      [`AUTH mds_st_${"x".repeat(32)}\n${valid}\n`],
      [`AUTH ${st.secret}x\n${valid}\n`],
      [`${valid}\n`],
      [`auth ${st.secret}\n${valid}\n`],
      [garbage(1, 5_000)],
      [garbage(2, 100), Buffer.from(`\n${valid}\n`)],
      ["A".repeat(10_000)],
      [`AUTH\n${valid}\n`],
      [`AUTH ${st.secret} extra\n${valid}\n`],
    ];
    for (const pieces of attempts) {
      const r = await tcpExchange(t.tcpPort, pieces);
      assert.doesNotMatch(r.output, /^OK/, JSON.stringify(pieces).slice(0, 80));
      assert.match(r.output, /^(ERR unauthenticated\n)?$/);
    }
    assert.equal(await totalPositions(t), 0);
    const m = await metricsText(t);
    const refused = ["no_auth", "bad_secret"].reduce((s, reason) => s + metric(m, `mds_ingest_unauthenticated_total{transport="tcp",reason="${reason}"}`), 0);
    assert.equal(refused, attempts.length);
  });

  it("a connection that never authenticates is closed after the timeout and counted", async () => {
    const { startTcpListener } = await import("../../../src/adapters/ingest/tcp-listener.ts");
    const quick = await startTcpListener(t.service.ingest.pipeline, t.service.ingest.directory, { port: 0, host: "127.0.0.1", authTimeoutMs: 200 });
    try {
      const before = metric(await metricsText(t), 'mds_ingest_unauthenticated_total{transport="tcp",reason="auth_timeout"}');
      const r = await tcpExchange(quick.port, ["AUTH"], { end: false, timeoutMs: 5_000 });
      assert.equal(r.output, "ERR unauthenticated\n");
      assert.equal(metric(await metricsText(t), 'mds_ingest_unauthenticated_total{transport="tcp",reason="auth_timeout"}'), before + 1);
    } finally {
      await quick.close();
    }
  });

  it("after AUTH: random bytes, huge lines and half lines are counted and dropped; the good lines among them are stored", async () => {
    const good = fixes(50, 230_000_000);
    const bad = [
      garbage(3, 3_000).toString("latin1").replaceAll("\n", " "),
      "!AIVDM,1,1,,A,13u?etPv2;0n:dDPwUM1U1Cb069D,0*FF",
      "!AIVDM,2,2,4,A,88888888880,2*26",
      good[0]!.slice(0, 20),
      "X".repeat(100_000),
      "\\c:123*00\\",
    ];
    const lines = [...good.slice(0, 25), ...bad, ...good.slice(25)];
    const r = await tcpExchange(t.tcpPort, [`AUTH ${st.secret}\n`, `${lines.join("\n")}\n`, garbage(4, 2_000)]);
    assert.match(r.output, /^OK /);
    assert.ok(r.acked >= lines.length, `acked ${r.acked}`);
    assert.equal(await positionsOf(t, st.id), 50);
    const [c] = await t.service.services.positions.counters([st.id]);
    assert.ok((c!.counters.oversized_lines ?? 0) >= 1);
    assert.ok((c!.counters["reason:bad_checksum"] ?? 0) >= 1);
    assert.ok((c!.counters.rejected ?? 0) >= 4);
  });

  it("a sender that stops mid-line and disconnects does not crash the listener", async () => {
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve) => {
        const s = connect({ port: t.tcpPort, host: "127.0.0.1" }, () => {
          s.write(`AUTH ${st.secret}\n!AIVDM,1,1,,A,13u?etPv2`);
          setTimeout(() => {
            s.destroy();
            resolve();
          }, 20);
        });
        s.on("error", () => resolve());
      });
    }
    const r = await tcpExchange(t.tcpPort, [`AUTH ${st.secret}\n${positionLine({ mmsi: 240_000_001, lat: 2, lon: 2 })}\n`]);
    assert.equal(r.acked, 1);
  });

  it("many connections at once all get their lines stored", async () => {
    const before = await positionsOf(t, st.id);
    const results = await Promise.all(Array.from({ length: 20 }, (_, k) => tcpExchange(t.tcpPort, [`AUTH ${st.secret}\n${fixes(100, 250_000_000 + k * 1_000).join("\n")}\n`])));
    assert.ok(results.every((r) => r.acked === 100));
    assert.equal(await positionsOf(t, st.id), before + 2_000);
  });
});

describe("ACKs wait for the store", () => {
  it("lines are acknowledged only after their batch is committed, and a failing store delays the ACK without losing lines", async () => {
    const t = await startIngestService();
    try {
      const st = await stationFor(t);
      const store = t.service.services.positions;
      const original = store.writeBatch.bind(store);
      let failures = 2;
      store.writeBatch = async (batch) => {
        if (batch.positions.length > 0 && failures-- > 0) throw new Error("disk full");
        return original(batch);
      };
      const r = await tcpExchange(t.tcpPort, [`AUTH ${st.secret}\n${fixes(10, 260_000_000).join("\n")}\n`], { timeoutMs: 20_000 });
      assert.equal(r.acked, 10);
      assert.equal(await positionsOf(t, st.id), 10);
      assert.equal(metric(await metricsText(t), "mds_ingest_flush_errors_total"), 2);
    } finally {
      await t.close();
    }
  });
});
