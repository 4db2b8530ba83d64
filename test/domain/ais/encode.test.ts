import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  encodePositionA,
  encodePositionB,
  encodeStatic,
  encodeStaticB_A,
  encodeStaticB_B,
  nmeaChecksum,
  toSentences,
} from "../../../src/domain/ais/encode.ts";
import { createAisDecoder, type DecodedAisMessage } from "../../../src/domain/ais/index.ts";

const T = Date.parse("2026-11-20T12:00:00Z");

function decodeAll(lines: string[]): DecodedAisMessage[] {
  const dec = createAisDecoder();
  const out: DecodedAisMessage[] = [];
  for (const l of lines) {
    const m = dec.feed(l, { source: "test", receivedAt: T });
    if (m) out.push(m);
  }
  assert.equal(dec.stats().rejected, 0, JSON.stringify(dec.stats().reasons));
  return out;
}

/** Deterministic values over the whole range of each field. */
function* cases(n: number) {
  let x = 12345;
  const r = () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
  for (let i = 0; i < n; i++) yield r;
}

describe("AIS encoder round trip through the decoder", () => {
  it("types 1, 2 and 3: every field comes back, positions to the AIS resolution (1/600000 deg)", () => {
    let count = 0;
    for (const r of cases(500)) {
      const type = (1 + Math.floor(r() * 3)) as 1 | 2 | 3;
      const m = {
        type,
        repeat: Math.floor(r() * 4),
        mmsi: 200_000_000 + Math.floor(r() * 599_999_999),
        navStatus: Math.floor(r() * 16),
        rot: Math.floor(r() * 255) - 127,
        sog: Math.round(r() * 1022) / 10,
        accuracy: r() < 0.5,
        lat: r() * 180 - 90,
        lon: r() * 360 - 180,
        cog: Math.round(r() * 3599) / 10,
        heading: Math.floor(r() * 360),
        second: Math.floor(r() * 60),
        maneuver: Math.floor(r() * 3),
        raim: r() < 0.5,
        radio: Math.floor(r() * 2 ** 19),
      };
      const [d] = decodeAll(toSentences(encodePositionA(m)));
      assert.ok(d && d.type === type);
      if (d.type !== 1 && d.type !== 2 && d.type !== 3) continue;
      assert.equal(d.mmsi, m.mmsi);
      assert.equal(d.repeat, m.repeat);
      assert.equal(d.navStatus, m.navStatus);
      assert.equal(d.rot, m.rot);
      assert.equal(d.sog, m.sog);
      assert.equal(d.accuracy, m.accuracy);
      assert.ok(Math.abs(d.lat! - m.lat) <= 0.5 / 600_000, `lat ${d.lat} vs ${m.lat}`);
      assert.ok(Math.abs(d.lon! - m.lon) <= 0.5 / 600_000, `lon ${d.lon} vs ${m.lon}`);
      assert.equal(d.cog, m.cog);
      assert.equal(d.heading, m.heading);
      assert.equal(d.second, m.second);
      assert.equal(d.maneuver, m.maneuver);
      assert.equal(d.raim, m.raim);
      assert.equal(d.radio, m.radio);
      count++;
    }
    assert.equal(count, 500);
  });

  it("sentinels: no position, speed, course, heading or rate of turn decode as null", () => {
    const [d] = decodeAll(toSentences(encodePositionA({ mmsi: 244_000_001, lat: null, lon: null, sog: null, cog: null, heading: null, rot: null })));
    assert.ok(d && d.type === 1);
    assert.deepEqual([d.lat, d.lon, d.sog, d.cog, d.heading, d.rot], [null, null, null, null, null, null]);
  });

  it("type 18 (Class B position)", () => {
    const [d] = decodeAll(toSentences(encodePositionB({ mmsi: 230_987_654, lat: -33.85, lon: 151.25, sog: 6.5, cog: 123.4, heading: 120, second: 7 })));
    assert.ok(d && d.type === 18);
    assert.equal(d.mmsi, 230_987_654);
    assert.ok(Math.abs(d.lat! + 33.85) < 1e-6 && Math.abs(d.lon! - 151.25) < 1e-6);
    assert.deepEqual([d.sog, d.cog, d.heading, d.second, d.cs], [6.5, 123.4, 120, 7, true]);
  });

  it("type 5 is split into two sentences with the fill bits on the last, and reassembles", () => {
    const lines = toSentences(
      encodeStatic({
        mmsi: 230_123_456,
        imo: 9_074_729,
        callsign: "oj2345",
        shipname: "Finnmaid",
        shipType: 60,
        toBow: 150,
        toStern: 68,
        toPort: 15,
        toStarboard: 15,
        etaMonth: 12,
        etaDay: 24,
        etaHour: 6,
        etaMinute: 30,
        draught: 6.4,
        destination: "FIHEL",
      }),
      { sequenceId: 7, channel: "B" },
    );
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /^!AIVDM,2,1,7,B,[0-9:;<=>?@A-W`a-w]{60},0\*[0-9A-F]{2}$/);
    assert.match(lines[1]!, /^!AIVDM,2,2,7,B,\w{11},2\*[0-9A-F]{2}$/);
    const [d] = decodeAll(lines);
    assert.ok(d && d.type === 5);
    assert.equal(d.imo, 9_074_729);
    assert.equal(d.callsign, "OJ2345", "six-bit text has no lower case: sent upper case");
    assert.equal(d.shipname, "FINNMAID");
    assert.deepEqual([d.shipType, d.toBow, d.toStern, d.toPort, d.toStarboard], [60, 150, 68, 15, 15]);
    assert.deepEqual([d.etaMonth, d.etaDay, d.etaHour, d.etaMinute, d.draught, d.destination], [12, 24, 6, 30, 6.4, "FIHEL"]);
  });

  it("type 24 parts A and B", () => {
    const [a, b] = decodeAll([
      ...toSentences(encodeStaticB_A({ mmsi: 230_555_555, shipname: "SAILOR" })),
      ...toSentences(encodeStaticB_B({ mmsi: 230_555_555, shipType: 37, vendorId: "SRT", callsign: "OH1234", toBow: 8, toStern: 4, toPort: 2, toStarboard: 2 })),
    ]);
    assert.ok(a && a.type === 24 && a.partno === 0);
    assert.equal(a.shipname, "SAILOR");
    assert.ok(b && b.type === 24 && b.partno === 1);
    assert.deepEqual([b.shipType, b.vendorId, b.callsign, b.toBow, b.toStern, b.toPort, b.toStarboard], [37, "SRT", "OH1234", 8, 4, 2, 2]);
  });

  it("a tag block carries the time (whole seconds) and the station, with its own checksum", () => {
    const [line] = toSentences(encodePositionA({ mmsi: 244_000_002, lat: 1, lon: 2, sog: 0, cog: 0, heading: 0 }), { time: T + 999, station: "roof" });
    const m = /^\\(s:roof,c:(\d+))\*([0-9A-F]{2})\\!/.exec(line!);
    assert.ok(m, line);
    assert.equal(Number(m[2]), T / 1000);
    assert.equal(m[3], nmeaChecksum(m[1]!));
    const dec = createAisDecoder();
    const d = dec.feed(line!, { source: "x", receivedAt: T + 3_600_000 });
    assert.ok(d);
    assert.equal(d.time, T);
    assert.equal(d.station, "roof");
  });
});
