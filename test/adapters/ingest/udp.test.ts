import assert from "node:assert/strict";
import { createSocket } from "node:dgram";
import { after, before, describe, it } from "node:test";
import { createHmac } from "node:crypto";
import { parseDatagramHeader, signDatagram, udpKeyFromHex, udpKeyFromSecret, verifyDatagram } from "../../../src/adapters/ingest/udp-signature.ts";
import { hashSecret } from "../../../src/domain/secrets.ts";
import { garbage, type IngestTestService, metric, metricsText, positionLine, positionsOf, startIngestService, stationFor, type TestStation, totalPositions } from "../../helpers/ingest.ts";

const sender = createSocket("udp4");
sender.on("error", () => {});

function send(port: number, msg: Buffer): Promise<void> {
  return new Promise((resolve) => sender.send(msg, port, "127.0.0.1", () => resolve()));
}

/** Datagrams are fire-and-forget: wait until the listener has seen `n` of them, then for the batch. */
async function settle(t: IngestTestService, n: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (t.service.ingest.udp!.datagrams() < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 50));
  await t.service.ingest.pipeline.flush();
}

describe("UDP datagram signatures", () => {
  it("the sender's key is HMAC-SHA256(secret, \"mds-udp-v1\"), not the stored hash; any change of the body breaks the MAC", () => {
    const secret = "mds_st_0123456789abcdefghijklmnopqrstuv";
    // What a sender in any language computes (the README gives the openssl line).
    const documented = createHmac("sha256", secret).update("mds-udp-v1").digest("hex");
    assert.ok(udpKeyFromHex(documented).equals(udpKeyFromSecret(secret)));
    assert.ok(!udpKeyFromHex(hashSecret(secret)).equals(udpKeyFromSecret(secret)), "the digest the database stores is not the key");
    const msg = signDatagram(udpKeyFromSecret(secret), 7, 1_795_000_000, 3, ["!AIVDM,1,1,,A,1,0*00"]);
    assert.match(msg.toString("latin1"), /^#mds1 7 1795000000 3 [0-9a-f]{64}\n!AIVDM/);
    const h = parseDatagramHeader(msg);
    assert.ok(typeof h === "object");
    assert.ok(verifyDatagram(udpKeyFromSecret(secret), h, msg));
    const tampered = Buffer.from(msg);
    tampered[tampered.length - 3]! ^= 1;
    assert.equal(verifyDatagram(udpKeyFromSecret(secret), h, tampered), false);
    assert.equal(verifyDatagram(udpKeyFromSecret(`${secret}x`), h, msg), false);
  });
});

describe("UDP station listener", () => {
  let t: IngestTestService;
  let st: TestStation;
  let other: TestStation;
  let sent = 0;
  const now = () => Math.floor(Date.parse("2026-11-20T12:00:00Z") / 1000);
  before(async () => {
    t = await startIngestService();
    st = await stationFor(t);
    other = await stationFor(t, "pro", "other");
  });
  after(async () => {
    await t.close();
    sender.close();
  });

  it("signed datagrams with several lines each are stored", async () => {
    const key = udpKeyFromSecret(st.secret);
    for (let d = 0; d < 10; d++) {
      const lines = Array.from({ length: 10 }, (_, i) => positionLine({ mmsi: 300_000_000 + d * 10 + i, lat: 60, lon: 25 }));
      await send(t.udpPort, signDatagram(key, st.id, now(), d, lines));
      sent++;
    }
    await settle(t, sent);
    assert.equal(await positionsOf(t, st.id), 100);
  });

  it("garbage, unsigned NMEA, unknown stations, wrong keys, stale or tampered datagrams: dropped, counted, nothing stored", async () => {
    const valid = [positionLine({ mmsi: 310_000_001, lat: 61, lon: 21 })];
    const key = udpKeyFromSecret(st.secret);
    const good = signDatagram(key, st.id, now(), 1_000, valid);
    const tampered = Buffer.from(good);
    tampered[tampered.length - 5]! ^= 4;
    const bad: [string, Buffer][] = [
      ["no_header", Buffer.from(`${valid[0]}\n`)],
      ["no_header", garbage(5, 1_200)],
      ["no_header", Buffer.alloc(0)],
      ["bad_header", Buffer.from("#mds1 nonsense\n")],
      ["bad_header", Buffer.concat([Buffer.from("#mds1 "), garbage(6, 400)])],
      ["unknown_station", signDatagram(key, 999_999, now(), 1, valid)],
      ["bad_signature", signDatagram(udpKeyFromSecret(other.secret), st.id, now(), 2, valid)],
      ["stale", signDatagram(key, st.id, now() - 3_600, 3, valid)],
      ["stale", signDatagram(key, st.id, now() + 3_600, 4, valid)],
      ["bad_signature", tampered],
    ];
    const before = await metricsText(t);
    for (const [, msg] of bad) {
      await send(t.udpPort, msg);
      sent++;
    }
    await settle(t, sent);
    const after = await metricsText(t);
    const counts = new Map<string, number>();
    for (const [reason] of bad) counts.set(reason, (counts.get(reason) ?? 0) + 1);
    for (const [reason, n] of counts) {
      const series = `mds_ingest_unauthenticated_total{transport="udp",reason="${reason}"}`;
      assert.equal(metric(after, series) - metric(before, series), n, reason);
    }
    assert.equal(await totalPositions(t), 100, "nothing from the bad datagrams");
    const [c] = await t.service.services.positions.counters([st.id]);
    assert.equal(c!.counters.unauthenticated, 4, "failed signatures and stale times for this station are counted against it");
  });

  it("gaps in the sender's sequence are counted as lost datagrams", async () => {
    const key = udpKeyFromSecret(other.secret);
    for (const seq of [0, 1, 2, 6, 7, 10]) {
      await send(t.udpPort, signDatagram(key, other.id, now(), seq, [positionLine({ mmsi: 320_000_000 + seq, lat: 59.5, lon: 24 })]));
      sent++;
    }
    await settle(t, sent);
    const [c] = await t.service.services.positions.counters([other.id]);
    assert.equal(c!.counters.udp_lost, 5);
    assert.equal(await positionsOf(t, other.id), 6);
  });
  it("a captured datagram sent 50 times is decoded, stored and counted once; the 49 replays are counted as replayed", async () => {
    const replayer = await stationFor(t, "pro", "replayed");
    const key = udpKeyFromSecret(replayer.secret);
    const captured = signDatagram(key, replayer.id, now(), 42, [positionLine({ mmsi: 330_000_001, lat: 58, lon: 22 }), positionLine({ mmsi: 330_000_002, lat: 58.1, lon: 22 })]);
    for (let i = 0; i < 50; i++) {
      await send(t.udpPort, captured);
      sent++;
    }
    // A later datagram of the same sender still passes: the window drops copies, not the station.
    await send(t.udpPort, signDatagram(key, replayer.id, now(), 43, [positionLine({ mmsi: 330_000_003, lat: 58.2, lon: 22 })]));
    sent++;
    await settle(t, sent);
    const [c] = await t.service.services.positions.counters([replayer.id]);
    assert.equal(c!.counters.lines, 3, "the captured datagram's two lines once, and the next one's");
    assert.equal(c!.counters.positions, 3);
    assert.equal(c!.counters.udp_replayed, 49);
    assert.equal(c!.counters.udp_late ?? 0, 0, "a replay is not a late datagram");
    assert.equal(await positionsOf(t, replayer.id), 3);
    assert.equal(metric(await metricsText(t), `mds_ingest_station_events_total{station="${replayer.id}",event="udp_replayed"}`), 49);
  });
});
