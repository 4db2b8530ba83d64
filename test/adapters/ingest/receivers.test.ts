import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { get, startTestService, type TestService } from "../../helpers/service.ts";
import { garbage, metric, metricsText, positionLine, positionsOf, staticLines } from "../../helpers/ingest.ts";
import { aisCatcherTagged, freePlainPort, ownShipLine, receiverServer, sendDatagram, sendTcp, until } from "../../helpers/receivers.ts";

const NOW = Date.parse("2026-11-20T12:00:00Z");

/**
 * Off-the-shelf receivers, each replayed in its own output format, into a station's own
 * plain port (no AUTH line, no signed header) or through the service connecting out.
 */
describe("stations fed by off-the-shelf receivers", () => {
  let t: TestService;
  let accountId: string;
  let key: string;
  let stationId: number;
  let plainPort: number;
  const counters = async (id: number) => {
    await t.service.ingest.pipeline.flush();
    return (await t.service.services.positions.counters([id]))[0]?.counters ?? {};
  };
  const feedMmsis = async () => {
    const r = await get(t, "/api/v1/me/feed?maxAge=1440", (await t.service.services.accounts.createKey(accountId)).key);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return new Set<number>(r.body.data.map((d: { mmsi: number }) => d.mmsi));
  };

  before(async () => {
    const port = await freePlainPort();
    t = await startTestService({ withData: false, env: { INGEST_PLAIN_PORTS: `${port}-${port}` } });
    ({ accountId, key } = await t.key("pro", "receiver owner"));
    const { station } = await t.service.services.stations.createStation(accountId, "roof", { plainPort: true, allowFrom: ["127.0.0.1/32"] });
    stationId = station.id;
    plainPort = station.plainPort!;
    assert.equal(plainPort, port);
    await t.service.ingest.startReceivers(() => t.service.services.stations.receiverStations(), { host: "127.0.0.1", connect: { minBackoffMs: 50, maxBackoffMs: 200 } }, 50);
  });
  after(() => t.close());

  it("AIS-catcher -u (UDP, NMEA): one datagram per message, a two-sentence type 5 in one datagram; the owner's feed shows the vessels", async () => {
    await sendDatagram(plainPort, `${positionLine({ mmsi: 244_100_001, lat: 52.01, lon: 4.01 })}\r\n`);
    await sendDatagram(plainPort, `${staticLines({ mmsi: 244_100_001, imo: 9_074_729, shipname: "UDP SHIP" }).join("\r\n")}\r\n`);
    await until(async () => (await positionsOf(t, stationId)) >= 1);
    const mmsis = await feedMmsis();
    assert.ok(mmsis.has(244_100_001));
    const r = await get(t, "/api/v1/me/feed?maxAge=1440", key);
    const row = r.body.data.find((d: { mmsi: number }) => d.mmsi === 244_100_001);
    assert.equal(row.name, "UDP SHIP", "the two-part type 5 was reassembled");
  });

  it("AIS-catcher -u msgformat NMEA_TAG: tag blocks with s:s0, fractional c: and g: groups; the sender's time is kept", async () => {
    const time = NOW - 90_000;
    await sendDatagram(plainPort, `${aisCatcherTagged([positionLine({ mmsi: 244_100_002, lat: 52.02, lon: 4.02 })], time).join("\r\n")}\r\n`);
    await sendDatagram(plainPort, `${aisCatcherTagged(staticLines({ mmsi: 244_100_002, shipname: "TAGGED" }), time, 9).join("\r\n")}\r\n`);
    await until(async () => (await feedMmsis()).has(244_100_002));
    const r = await get(t, "/api/v1/me/feed?maxAge=1440", key);
    const row = r.body.data.find((d: { mmsi: number }) => d.mmsi === 244_100_002);
    assert.equal(row.time, new Date(Math.round(time / 1000) * 1000).toISOString());
    assert.equal(row.name, "TAGGED");
  });

  it("rtl-ais (UDP, default): each sentence its own datagram, even the two halves of a type 5", async () => {
    await sendDatagram(plainPort, `${positionLine({ mmsi: 244_100_003, lat: 52.03, lon: 4.03 })}\r\n`);
    for (const line of staticLines({ mmsi: 244_100_003, shipname: "RTL AIS" }, 4)) await sendDatagram(plainPort, `${line}\r\n`);
    await until(async () => (await feedMmsis()).has(244_100_003));
  });

  it("AIS-catcher -P (TCP client) and OpenCPN's TCP output: CR LF lines on a kept connection, non-AIS sentences mixed in and ignored", async () => {
    const lines = [
      "$GPRMC,120000.00,A,5203.000,N,00403.000,E,5.0,180.0,201126,,,A*6C",
      positionLine({ mmsi: 244_100_004, lat: 52.04, lon: 4.04 }),
      "$IIHDG,180.0,,,,*57",
      ownShipLine(244_100_005, 52.05, 4.05),
    ];
    const text = `${lines.join("\r\n")}\r\n`;
    // Cut mid-sentence, as a TCP stream may deliver it.
    await sendTcp(plainPort, [text.slice(0, 50), text.slice(50, 130), text.slice(130)]);
    await until(async () => {
      const m = await feedMmsis();
      return m.has(244_100_004) && m.has(244_100_005);
    });
  });

  it("Signal K ais-forwarder (UDP): !AIVDM and !AIVDO lines", async () => {
    await sendDatagram(plainPort, `${positionLine({ mmsi: 244_100_006, lat: 52.06, lon: 4.06 })}\r\n${ownShipLine(244_100_007, 52.07, 4.07)}\r\n`);
    await until(async () => {
      const m = await feedMmsis();
      return m.has(244_100_006) && m.has(244_100_007);
    });
  });

  it("the same lines from an address outside --allow-from (127.0.0.2) are dropped and counted, over UDP and TCP", async () => {
    const before = await positionsOf(t, stationId);
    const was = (await counters(stationId)).address_not_allowed ?? 0;
    const lines = [positionLine({ mmsi: 244_100_099, lat: 52.09, lon: 4.09 }), positionLine({ mmsi: 244_100_098, lat: 52.08, lon: 4.08 })];
    await sendDatagram(plainPort, `${lines.join("\r\n")}\r\n`, "127.0.0.2");
    await sendTcp(plainPort, [`${lines.join("\r\n")}\r\n`], "127.0.0.2");
    await until(async () => ((await counters(stationId)).address_not_allowed ?? 0) >= was + 4);
    assert.equal((await counters(stationId)).address_not_allowed, was + 4, "2 lines by UDP + 2 by TCP");
    assert.equal(await positionsOf(t, stationId), before, "nothing stored");
    const m = await feedMmsis();
    assert.equal(m.has(244_100_099) || m.has(244_100_098), false);
    const text = await metricsText(t);
    assert.equal(metric(text, 'mds_ingest_unauthenticated_total{transport="plain_udp",reason="address_not_allowed"}'), 1);
    assert.ok(metric(text, 'mds_ingest_unauthenticated_total{transport="plain_tcp",reason="address_not_allowed"}') >= 1);
  });

  it("--allow-from holds on the shared AUTH port too: the right secret from 127.0.0.2 is refused and counted", async () => {
    const { tcpPort } = await t.service.ingest.listen({ host: "127.0.0.1", tcpPort: 0, udpPort: null });
    const { station, secret } = await t.service.services.stations.createStation(accountId, "auth guarded", { allowFrom: ["127.0.0.1/32"] });
    const exchange = (from: string) =>
      new Promise<string>((resolve) => {
        let out = "";
        const s = connect({ port: tcpPort!, host: "127.0.0.1", localAddress: from });
        s.setEncoding("latin1");
        s.on("data", (d: string) => (out += d));
        s.on("error", () => {});
        s.on("close", () => resolve(out));
        s.on("connect", () => s.end(`AUTH ${secret}\n${positionLine({ mmsi: 244_100_020, lat: 52.2, lon: 4.2 })}\n`));
      });
    assert.equal(await exchange("127.0.0.2"), "ERR unauthenticated\n");
    assert.equal((await counters(station.id)).address_not_allowed, 1);
    assert.match(await exchange("127.0.0.1"), new RegExp(`^OK ${station.id}\nACK 1\n$`));
  });

  it("garbage into the plain port over UDP and TCP: counted as rejected lines, nothing stored, the port keeps working", async () => {
    const before = await positionsOf(t, stationId);
    const rejectedBefore = (await counters(stationId)).rejected ?? 0;
    for (let seed = 1; seed <= 20; seed++) await sendDatagram(plainPort, garbage(seed, 1 + seed * 37));
    await sendDatagram(plainPort, Buffer.alloc(0));
    await sendDatagram(plainPort, "!AIVDM,1,1,,A,13`fL1PP140KCELMBO7SS?wH0@Jv,0*00\r\n!AIVDM,9,9,9,Z,,9*FF\r\n\\c:abc*00\\!AIVDM\r\n");
    await sendTcp(plainPort, [garbage(99, 20_000), "\n", "A".repeat(10_000), "\n"]);
    await sendTcp(plainPort, [garbage(7, 3_000)]);
    await until(async () => ((await counters(stationId)).rejected ?? 0) > rejectedBefore + 3);
    assert.equal(await positionsOf(t, stationId), before);
    await sendDatagram(plainPort, `${positionLine({ mmsi: 244_100_010, lat: 52.1, lon: 4.1 })}\r\n`);
    await until(async () => (await feedMmsis()).has(244_100_010));
  });

  it("rtl-ais -T / AIS-catcher -S: the service connects out, reads, and reconnects after the receiver drops the connection", async () => {
    const lines = [positionLine({ mmsi: 244_200_001, lat: 53.01, lon: 5.01 }), ...staticLines({ mmsi: 244_200_001, shipname: "PULLED" }, 5)];
    const server = await receiverServer((socket, n) => {
      // First client: the lines, then the receiver drops it; the second one keeps getting data.
      socket.write(`${lines.join("\r\n")}\r\n`);
      if (n === 1) setTimeout(() => socket.destroy(), 20);
      else socket.write(`${positionLine({ mmsi: 244_200_002, lat: 53.02, lon: 5.02 })}\r\n`);
    });
    try {
      const { station } = await t.service.services.stations.createStation(accountId, "pulled", { connect: `127.0.0.1:${server.port}` });
      await t.service.ingest.receivers!.reconcile();
      await until(async () => (await feedMmsis()).has(244_200_002), 8_000);
      assert.ok(server.clients() >= 2, "reconnected");
      const c = await counters(station.id);
      assert.ok((c.connect_closed ?? 0) >= 1, JSON.stringify(c));
      assert.equal(metric(await metricsText(t), `mds_ingest_receiver_connected{station="${station.id}"}`), 1);
      // Turned off: the connection is closed.
      await t.service.services.stations.updateStation(station.id, { connect: null });
      await t.service.ingest.receivers!.reconcile();
      assert.equal(t.service.ingest.receivers!.connection(station.id), undefined);
    } finally {
      await server.close();
    }
  });

  it("a dAISy behind ser2net (serial over TCP): CR LF lines in arbitrary chunks, a banner line and a broken sentence counted, not fatal", async () => {
    const text = `dAISy AIS receiver\r\n${positionLine({ mmsi: 244_300_001, lat: 54.01, lon: 6.01 })}\r\n!AIVDM,1,1,,B,broken*00\r\n${positionLine({ mmsi: 244_300_002, lat: 54.02, lon: 6.02 })}\r\n`;
    const server = await receiverServer((socket) => {
      // Serial output arrives a few bytes at a time.
      let at = 0;
      const tick = setInterval(() => {
        if (socket.destroyed || at >= text.length) return clearInterval(tick);
        socket.write(text.slice(at, at + 17));
        at += 17;
      }, 2);
    });
    try {
      const { station } = await t.service.services.stations.createStation(accountId, "daisy", { connect: `127.0.0.1:${server.port}` });
      await t.service.ingest.receivers!.reconcile();
      await until(async () => {
        const m = await feedMmsis();
        return m.has(244_300_001) && m.has(244_300_002);
      });
      const c = await counters(station.id);
      assert.ok((c.rejected ?? 0) >= 2, JSON.stringify(c));
    } finally {
      await server.close();
    }
  });

  it("a connect target that refuses: counted, retried with backoff, never a crash", async () => {
    const server = await receiverServer(() => {});
    const port = server.port;
    await server.close();
    const { station } = await t.service.services.stations.createStation(accountId, "down", { connect: `127.0.0.1:${port}` });
    await t.service.ingest.receivers!.reconcile();
    await until(async () => ((await counters(station.id)).connect_refused ?? 0) >= 2);
    assert.notEqual(t.service.ingest.receivers!.connection(station.id)?.state, "connected");
  });
});
