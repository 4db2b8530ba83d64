// Unit tests of the AIS decoder's API, framing, reassembly and conventions.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  AIS_REASONS,
  type AisDecoder,
  createAisDecoder,
  type DecodedAisMessage,
  decodePayload,
  EVENT_REASONS,
} from "../../../src/domain/ais/index.ts";
import { armor, bits, checksum, fragments, frame, sentence, sixbitText, tagBlock } from "../../helpers/ais-sentences.ts";

const T1 = "!AIVDM,1,1,,B,13U4vF0P001d<UnEeSmQ>gv`04hd,0*4C";
const T1_PAYLOAD = "13U4vF0P001d<UnEeSmQ>gv`04hd";
// Two type 5 messages (gpsd vectors): VERGINA 237201800 and LADY RINA 247431600.
const P5A = ["53R=aR800001=SC?7@1HE8LTp40000000000000l0`?2453a052Dm23B@@00", "00000000002"];
const P5B = ["53cv1d82BuaLT9Db220h4AV18Tp622222222221@APcA:4v<0BilPAm88888", "88888888880"];
const AT = 1_700_000_000_000;

function two(p: string[], seq: string, channel = "A"): [string, string] {
  return [
    sentence(p[0]!, 0, { total: 2, num: 1, seq, channel }),
    sentence(p[1]!, 2, { total: 2, num: 2, seq, channel }),
  ];
}

function feedAll(dec: AisDecoder, lines: string[], source = "s1", start = AT, step = 10): DecodedAisMessage[] {
  const out: DecodedAisMessage[] = [];
  let t = start;
  for (const l of lines) {
    const m = dec.feed(l, { source, receivedAt: t });
    t += step;
    if (m !== null) out.push(m);
  }
  return out;
}

function only(dec: AisDecoder, line: string, receivedAt = AT, source = "s1"): DecodedAisMessage {
  const m = dec.feed(line, { source, receivedAt });
  assert.ok(m !== null, `no message for ${line}`);
  return m;
}

function reasonsOf(dec: AisDecoder): Record<string, number> {
  const r = dec.stats().reasons as Record<string, number>;
  return Object.fromEntries(Object.entries(r).filter(([, n]) => n > 0));
}

describe("decodePayload", () => {
  test("type 1 fields, units and n/a values", () => {
    const r = decodePayload(T1_PAYLOAD, 0);
    assert.ok(r.ok);
    const m = r.message;
    assert.equal(m.type, 1);
    if (m.type !== 1) return;
    assert.equal(m.mmsi, 240205400);
    assert.equal(m.repeat, 0);
    assert.equal(m.navStatus, 0);
    assert.equal(m.rot, null);
    assert.equal(m.turnDegPerMin, null);
    assert.equal(m.sog, 0);
    assert.equal(m.cog, 31.4);
    assert.equal(m.heading, null);
    assert.equal(m.lat, 37.94425);
    assert.equal(m.lon, 14181563 / 600000);
    assert.equal(m.second, 20);
    assert.equal(m.accuracy, false);
    assert.equal(m.raim, false);
    assert.equal(m.radio, 19500);
    assert.equal(m.time, null);
    assert.equal(m.station, null);
    assert.equal(m.source, null);
    assert.equal(m.own, false);
  });

  test("envelope values can be passed in", () => {
    const r = decodePayload(T1_PAYLOAD, 0, { time: 5, station: "st", source: "src", channel: "B", own: true });
    assert.ok(r.ok);
    assert.equal(r.message.time, 5);
    assert.equal(r.message.station, "st");
    assert.equal(r.message.source, "src");
    assert.equal(r.message.channel, "B");
    assert.equal(r.message.own, true);
  });

  test("reasons instead of exceptions", () => {
    assert.deepEqual(decodePayload("", 0), { ok: false, reason: "empty_payload" });
    assert.deepEqual(decodePayload(T1_PAYLOAD, 6), { ok: false, reason: "bad_fill" });
    assert.deepEqual(decodePayload(T1_PAYLOAD, 1.5), { ok: false, reason: "bad_fill" });
    assert.deepEqual(decodePayload("13U4vF0P001x", 0), { ok: false, reason: "bad_payload_char" });
    assert.deepEqual(decodePayload("13U4vF", 0), { ok: false, reason: "payload_too_short" });
    assert.deepEqual(decodePayload("1\u00e9", 0), { ok: false, reason: "bad_payload_char" });
    assert.deepEqual(decodePayload(T1_PAYLOAD.slice(0, 24), 0), { ok: false, reason: "payload_too_short" });
    assert.deepEqual(decodePayload("H3KLehdt00000000?6ekkjm000000", 0), { ok: false, reason: "unknown_type24_part" });
    // @ts-expect-error: not a string, still no throw
    assert.deepEqual(decodePayload(undefined, 0), { ok: false, reason: "empty_payload" });
  });

  test("all n/a sentinels of a type 3 become null", () => {
    const r = decodePayload("33`hBOEP?w<tSF0l4Q@>4?wv0qiP", 0);
    assert.ok(r.ok && r.message.type === 3);
    const m = r.message;
    if (m.type !== 3) return;
    assert.equal(m.lat, null);
    assert.equal(m.lon, null);
    assert.equal(m.sog, null);
    assert.equal(m.cog, null);
    assert.equal(m.heading, null);
    assert.equal(m.rot, null);
    assert.equal(m.second, 63);
  });

  test("rate of turn: raw indicator and deg/min", () => {
    for (const rot of [0, 1, -1, 10, -10, 126, -126, 127, -127, -128]) {
      const b = bits([1, 6], [0, 2], [123456789, 30], [0, 4], [rot, 8], "0".repeat(118));
      const { payload, fill } = armor(b);
      const r = decodePayload(payload, fill);
      assert.ok(r.ok && r.message.type === 1);
      const m = r.message;
      if (m.type !== 1) return;
      assert.equal(m.rot, rot === -128 ? null : rot);
      if (rot === -128 || Math.abs(rot) === 127) assert.equal(m.turnDegPerMin, null);
      else assert.equal(m.turnDegPerMin, Math.sign(rot) * (Math.abs(rot) / 4.733) ** 2);
    }
  });

  test("type 27: signed 1/10-minute position and its own sentinels", () => {
    const na = armor(bits([27, 6], [0, 2], [123456789, 30], [1, 1], [0, 1], [15, 4], [181 * 600, 18], [91 * 600, 17], [63, 6], [511, 9], [1, 1], [0, 1]));
    const r = decodePayload(na.payload, na.fill);
    assert.ok(r.ok && r.message.type === 27);
    if (r.message.type !== 27) return;
    assert.equal(r.message.lon, null);
    assert.equal(r.message.lat, null);
    assert.equal(r.message.sog, null);
    assert.equal(r.message.cog, null);
    assert.equal(r.message.gnss, true);
    assert.equal(r.message.navStatus, 15);
    const sw = armor(bits([27, 6], [0, 2], [123456789, 30], [0, 1], [0, 1], [0, 4], [-70 * 600 - 5, 18], [-33 * 600 - 1, 17], [12, 6], [359, 9], [0, 1], [0, 1]));
    const r2 = decodePayload(sw.payload, sw.fill);
    assert.ok(r2.ok && r2.message.type === 27);
    if (r2.message.type !== 27) return;
    assert.equal(r2.message.lon, (-70 * 600 - 5) / 600);
    assert.equal(r2.message.lat, (-33 * 600 - 1) / 600);
    assert.equal(r2.message.sog, 12);
    assert.equal(r2.message.cog, 359);
    assert.equal(r2.message.gnss, false);
  });

  test("a position or static report longer than its type allows is rejected as illegal_length, not decoded", () => {
    // The real case: type 27 (96 bits by the standard) received at 104 to 376 bits, read as MMSI 343135459 on land.
    const t27 = bits([27, 6], [0, 2], [343135459, 30], [0, 1], [0, 1], [0, 4], [Math.round(-92.2 * 600), 18], [Math.round(60.06 * 600), 17], [10, 6], [90, 9], [0, 1], [0, 1]);
    assert.equal(t27.length, 96);
    const legal = armor(t27);
    assert.ok(decodePayload(legal.payload, legal.fill).ok, "96 bits is the legal length");
    for (const extra of [8, 72, 280]) {
      const long = armor(t27 + "0".repeat(extra));
      assert.deepEqual(decodePayload(long.payload, long.fill), { ok: false, reason: "illegal_length" }, `${96 + extra} bits`);
    }
    // Type 1: 168 bits, and up to 204 as gpsd's samples hold; one symbol more is not a type 1.
    const t1 = (n: number) => armor(bits([1, 6], [0, 2], [244660000, 30], "0".repeat(n - 38)));
    for (const n of [149, 168, 204]) assert.equal(decodePayload(t1(n).payload, t1(n).fill).ok, true, `type 1 of ${n} bits`);
    assert.deepEqual(decodePayload(t1(210).payload, t1(210).fill), { ok: false, reason: "illegal_length" });
    // Type 5 (424, or 426 without its fill bits), 18 (168), 19 (312), 24 (168) and 9 (168).
    const of = (type: number, n: number, head = "") => armor(bits([type, 6], [0, 2], [244660000, 30], head, "0".repeat(n - 38 - head.length)));
    for (const [type, max] of [[5, 426], [9, 168], [18, 168], [19, 312]] as const) {
      assert.equal(decodePayload(of(type, max).payload, of(type, max).fill).ok, true, `type ${type} of ${max} bits`);
      assert.deepEqual(decodePayload(of(type, max + 6).payload, of(type, max + 6).fill), { ok: false, reason: "illegal_length" }, `type ${type} of ${max + 6} bits`);
    }
    assert.equal(decodePayload(of(24, 168, "01").payload, of(24, 168, "01").fill).ok, true, "type 24 part B of 168 bits");
    assert.deepEqual(decodePayload(of(24, 174, "00").payload, of(24, 174, "00").fill), { ok: false, reason: "illegal_length" }, "type 24 part A of 174 bits");
    // Types whose content is not stored are not judged by length: a 5-slot type 8 still decodes.
    assert.equal(decodePayload(of(8, 1008).payload, of(8, 1008).fill).ok, true);
  });

  test("a stream counts an illegal-length message under its reason as a rejected line", () => {
    const dec = createAisDecoder();
    const long = armor(bits([27, 6], [0, 2], [343135459, 30], "0".repeat(66)));
    assert.equal(dec.feed(sentence(long.payload, long.fill), { source: "s1", receivedAt: AT }), null);
    const st = dec.stats();
    assert.equal(st.reasons.illegal_length, 1);
    assert.equal(st.rejected, 1);
    assert.equal(st.messages, 0);
  });

  test("type 9: whole-knot speed, altitude and their n/a values", () => {
    const b = armor(bits([9, 6], [0, 2], [111232506, 30], [4095, 12], [1023, 10], [0, 1], [181 * 600000, 28], [91 * 600000, 27], [3600, 12], [60, 6], "0".repeat(34)));
    const r = decodePayload(b.payload, b.fill);
    assert.ok(r.ok && r.message.type === 9);
    if (r.message.type !== 9) return;
    assert.equal(r.message.altitudeM, null);
    assert.equal(r.message.sog, null);
    assert.equal(r.message.lat, null);
    assert.equal(r.message.lon, null);
    assert.equal(r.message.cog, null);
    const ok = armor(bits([9, 6], [0, 2], [111232506, 30], [590, 12], [126, 10], "0".repeat(108)));
    const r2 = decodePayload(ok.payload, ok.fill);
    assert.ok(r2.ok && r2.message.type === 9);
    if (r2.message.type !== 9) return;
    assert.equal(r2.message.altitudeM, 590);
    assert.equal(r2.message.sog, 126);
  });

  test("type 5: IMO 0, ETA and draught n/a become null; text rules", () => {
    const b = armor(
      bits(
        [5, 6],
        [0, 2],
        [244710865, 30],
        [1, 2],
        [0, 30],
        sixbitText("@@J130B", 7),
        sixbitText(" TINA  @X", 20),
        [69, 8],
        [44, 9],
        [10, 9],
        [2, 6],
        [2, 6],
        [15, 4],
        [0, 4],
        [0, 5],
        [24, 5],
        [60, 6],
        [0, 8],
        sixbitText("ROTTERDAM", 20),
        [1, 1],
        [0, 1],
      ),
    );
    const r = decodePayload(b.payload, b.fill);
    assert.ok(r.ok && r.message.type === 5);
    const m = r.message;
    if (m.type !== 5) return;
    assert.equal(m.imo, null);
    assert.equal(m.callsign, "", "cut at the first '@' even when text follows");
    assert.equal(m.shipname, " TINA", "leading space kept, trailing spaces trimmed, cut at '@'");
    assert.equal(m.destination, "ROTTERDAM");
    assert.equal(m.etaMonth, null);
    assert.equal(m.etaDay, null);
    assert.equal(m.etaHour, null);
    assert.equal(m.etaMinute, null);
    assert.equal(m.draught, null);
    assert.equal(m.dte, true);
    assert.equal(m.shipType, 69);
    assert.equal(m.toBow, 44);
  });

  test("type 21: the name extension is used only after a full 20-character name", () => {
    const base = (name: string, ext: string) =>
      armor(bits([21, 6], [0, 2], [993672009, 30], [14, 5], sixbitText(name, 20), "0".repeat(272 - 163), sixbitText(ext, ext.length)));
    const full = base("FORT PIERCE INLET LB", " 6");
    const r = decodePayload(full.payload, full.fill);
    assert.ok(r.ok && r.message.type === 21);
    if (r.message.type === 21) assert.equal(r.message.name, "FORT PIERCE INLET LB 6");
    const short = base("SHORT NAME", "XY");
    const r2 = decodePayload(short.payload, short.fill);
    assert.ok(r2.ok && r2.message.type === 21);
    if (r2.message.type === 21) assert.equal(r2.message.name, "SHORT NAME");
  });

  test("type 24: parts A and B, auxiliary craft carry the mother ship MMSI", () => {
    const a = decodePayload("H42O55i18tMET00000000000000", 2);
    assert.ok(a.ok && a.message.type === 24);
    assert.deepEqual({ partno: (a.message as { partno: number }).partno, name: (a.message as { shipname: string }).shipname }, { partno: 0, name: "PROGUY" });
    const b = decodePayload("H42O55lti4hhhilD3nink000?050", 0);
    assert.ok(b.ok && b.message.type === 24);
    const mb = b.message;
    if (mb.type !== 24 || mb.partno !== 1) assert.fail("part B expected");
    assert.equal(mb.vendorId, "1D0");
    assert.equal(mb.vendorIdLegacy, "1D00014");
    assert.equal(mb.model, 12);
    assert.equal(mb.serial, 199796);
    assert.equal(mb.callsign, "TC6163");
    assert.equal(mb.toStern, 15);
    assert.equal(mb.mothershipMmsi, null);
    const aux = armor(bits([24, 6], [0, 2], [981234567, 30], [1, 2], [52, 8], sixbitText("ABC", 3), [1, 4], [2, 20], sixbitText("CALL", 7), [235000000, 30], [0, 6]));
    const c = decodePayload(aux.payload, aux.fill);
    assert.ok(c.ok && c.message.type === 24);
    const mc = c.message;
    if (mc.type !== 24 || mc.partno !== 1) assert.fail("part B expected");
    assert.equal(mc.mothershipMmsi, 235000000);
    assert.equal(mc.toBow, null);
    assert.equal(mc.toStarboard, null);
  });

  test("other types are recognised with type, repeat and mmsi", () => {
    for (const [payload, type, mmsi] of [
      [":6TMCD1GOS60", 10, 440882000],
      ["0S9edj0P03PecbBN`ja@0?w42cFC", 0, 211512520],
      ["L1mg=5@@G:uk?S:I0@ph>A5E>L@1", 28, 123456789],
    ] as const) {
      const r = decodePayload(payload, 0);
      assert.ok(r.ok, payload);
      assert.equal(r.message.type, type);
      assert.equal(r.message.mmsi, mmsi);
    }
  });
});

describe("framing", () => {
  test("a plain sentence: envelope from the context", () => {
    const dec = createAisDecoder();
    const m = only(dec, T1, AT, "feed-1");
    assert.equal(m.time, AT);
    assert.equal(m.station, null);
    assert.equal(m.source, "feed-1");
    assert.equal(m.channel, "B");
    assert.equal(m.own, false);
  });

  test("talkers, VDO, channels, lowercase hex, CRLF, trailers, logger prefix", () => {
    const dec = createAisDecoder();
    const body = T1.slice(1, T1.indexOf("*"));
    for (const talker of ["AB", "BS", "SA", "AI"]) {
      const b = talker + body.slice(2);
      assert.equal(only(dec, frame(b)).mmsi, 240205400, talker);
    }
    const vdo = only(dec, frame(body.replace("AIVDM", "AIVDO")));
    assert.equal(vdo.own, true);
    for (const ch of ["1", "2", ""]) assert.equal(only(dec, frame(body.replace(",B,", `,${ch},`))).channel, ch);
    assert.ok(dec.feed(T1.replace("*4C", "*4c"), { source: "s", receivedAt: AT }) !== null);
    assert.ok(dec.feed(T1 + "\r\n", { source: "s", receivedAt: AT }) !== null);
    assert.ok(dec.feed(`  ${T1}  `, { source: "s", receivedAt: AT }) !== null);
    assert.ok(dec.feed(T1 + ",s36310,d-081,T59.01777335,1234567890", { source: "s", receivedAt: AT }) !== null);
    assert.ok(dec.feed("2026-11-20 12:00:00.123 " + T1, { source: "s", receivedAt: AT }) !== null);
    assert.deepEqual(reasonsOf(dec), {});
  });

  test("each malformed sentence is rejected and counted under its reason", () => {
    const cases: Array<[string, string]> = [
      ["", "empty_line"],
      ["   \r\n", "empty_line"],
      ["foobar", "no_sentence"],
      ["# comment", "no_sentence"],
      ["$GPRMC,213950.00,A,5250.53669,N,00542.34920,E,0.020,,070420,,,A*7D", "not_ais"],
      [frame("AIALR,1,2,3"), "not_ais"],
      [frame("GPGGA,1,1,,B,x,0"), "not_ais"],
      [T1.slice(0, -3), "no_checksum"],
      [T1.slice(0, -1), "no_checksum"],
      [T1.replace("*4C", "*4G"), "no_checksum"],
      [T1.replace("*4C", "*40"), "bad_checksum"],
      [`!AIVDM,1,1,,B,${"0".repeat(600)},0*00`, "line_too_long"],
      [frame("AIVDM,1,1,,B,13U4vF0P001d<UnEeSmQ>gv`04hd,0,9"), "bad_field_count"],
      [frame("AIVDM,1,1,B,13U4vF0P001d<UnEeSmQ>gv`04hd,0"), "bad_field_count"],
      [frame("AIVDM,0,1,,B,13U4vF0P001d<UnEeSmQ>gv`04hd,0"), "bad_header_field"],
      [frame("AIVDM,1,2,,B,13U4vF0P001d<UnEeSmQ>gv`04hd,0"), "bad_header_field"],
      [frame("AIVDM,12,1,,B,13U4vF0P001d<UnEeSmQ>gv`04hd,0"), "bad_header_field"],
      [frame("AIVDM,1,1,X,B,13U4vF0P001d<UnEeSmQ>gv`04hd,0"), "bad_header_field"],
      [frame("AIVDM,1,1,,AB,13U4vF0P001d<UnEeSmQ>gv`04hd,0"), "bad_header_field"],
      [frame("AIVDM,1,1,,B,13U4vF0P001d<UnEeSmQ>gv`04hd,7"), "bad_fill"],
      [frame("AIVDM,1,1,,B,13U4vF0P001d<UnEeSmQ>gv`04hd,"), "bad_fill"],
      [frame("AIVDM,1,1,,B,13U4vF0P001d<UnEeSmQ>gv`04hd,10"), "bad_fill"],
      [frame("AIVDM,1,1,,B,13U4vF0P001d<UnEeSmQ>gv`04hx,0"), "bad_payload_char"],
      [frame("AIVDM,1,1,,B,,0"), "empty_payload"],
      [frame("AIVDM,2,1,3,B,,0"), "empty_payload"],
      [frame("AIVDM,1,1,,B,13U4vF,0"), "payload_too_short"],
      [frame("AIVDM,1,1,,A,H3KLehdt00000000?6ekkjm000000,0"), "unknown_type24_part"],
      ["\\s:abc*00!AIVDM,1,1,,B,13U4vF0P001d<UnEeSmQ>gv`04hd,0*4C", "bad_tag_block"],
    ];
    for (const [line, reason] of cases) {
      const dec = createAisDecoder();
      assert.equal(dec.feed(line, { source: "s", receivedAt: AT }), null, line);
      assert.deepEqual(reasonsOf(dec), { [reason]: 1 }, line);
      const st = dec.stats();
      assert.equal(st.rejected, 1);
      assert.equal(st.lines, 1);
    }
  });
});

describe("tag blocks", () => {
  test("s: and c: (seconds) give station and time", () => {
    const dec = createAisDecoder();
    const m = only(dec, tagBlock("s:station1,c:1700000000") + T1, 5);
    assert.equal(m.station, "station1");
    assert.equal(m.time, 1_700_000_000_000);
  });

  test("c: in milliseconds is recognised by magnitude", () => {
    const dec = createAisDecoder();
    assert.equal(only(dec, tagBlock("c:1700000000123") + T1, 5).time, 1_700_000_000_123);
  });

  test("a tag block with a wrong or missing checksum is ignored, the sentence kept and counted", () => {
    const dec = createAisDecoder();
    const m = only(dec, "\\s:station1,c:1700000000*00\\" + T1, 7);
    assert.equal(m.station, null);
    assert.equal(m.time, 7);
    const m2 = only(dec, "\\s:station1,c:1700000000\\" + T1, 8);
    assert.equal(m2.station, null);
    assert.deepEqual(reasonsOf(dec), { bad_tag_block_checksum: 2 });
    assert.equal(dec.stats().rejected, 0);
  });

  test("lower-case tag checksum, unknown fields and odd values", () => {
    const dec = createAisDecoder();
    const tb = tagBlock("q:u,s:r1,c:notanumber,T:2014-12-10 00.41.53,x").replace(/\*([0-9A-F]{2})\\$/, (_, h: string) => `*${h.toLowerCase()}\\`);
    const m = only(dec, tb + T1, 9);
    assert.equal(m.station, "r1");
    assert.equal(m.time, 9);
  });

  test("g: groups a multi-part message whose sequence id is empty", () => {
    const dec = createAisDecoder();
    const f1 = tagBlock("g:1-2-42,s:r1,c:1700000001") + sentence(P5A[0]!, 0, { total: 2, num: 1, seq: "" });
    const f2 = tagBlock("g:2-2-42") + sentence(P5A[1]!, 2, { total: 2, num: 2, seq: "" });
    // A different group on the same channel in between must not be spliced in.
    const o1 = tagBlock("g:1-2-43") + sentence(P5B[0]!, 0, { total: 2, num: 1, seq: "" });
    const o2 = tagBlock("g:2-2-43") + sentence(P5B[1]!, 2, { total: 2, num: 2, seq: "" });
    const msgs = feedAll(dec, [f1, o1, f2, o2]);
    assert.deepEqual(
      msgs.map((m) => [m.mmsi, m.station, m.time]),
      [
        [237201800, "r1", 1_700_000_001_000],
        [247431600, null, AT + 10],
      ],
    );
  });
});

describe("multi-part reassembly", () => {
  test("interleaved by sequence id, by channel and by source", () => {
    const dec = createAisDecoder();
    const [a1, a2] = two(P5A, "3");
    const [b1, b2] = two(P5B, "4");
    assert.deepEqual(feedAll(dec, [a1, b1, a2, b2]).map((m) => m.mmsi), [237201800, 247431600]);
    const [c1, c2] = two(P5A, "5", "A");
    const [d1, d2] = two(P5B, "5", "B");
    assert.deepEqual(feedAll(dec, [c1, d1, c2, d2]).map((m) => m.mmsi), [237201800, 247431600]);
    // Same talker, channel and sequence id, two receivers on one decoder.
    const [e1, e2] = two(P5A, "7");
    const [f1, f2] = two(P5B, "7");
    const out: number[] = [];
    for (const [line, source] of [[e1, "rx1"], [f1, "rx2"], [e2, "rx1"], [f2, "rx2"]] as const) {
      const m = dec.feed(line, { source, receivedAt: AT });
      if (m !== null) out.push(m.mmsi);
    }
    assert.deepEqual(out, [237201800, 247431600]);
    assert.deepEqual(reasonsOf(dec), {});
  });

  test("the message takes the time and tag station of fragment 1 and the fill of the last", () => {
    const dec = createAisDecoder();
    const [a1, a2] = two(P5A, "1");
    const msgs = feedAll(dec, [tagBlock("s:first,c:1700000002") + a1, tagBlock("s:second,c:1700000003") + a2]);
    assert.equal(msgs.length, 1);
    assert.equal(msgs[0]!.station, "first");
    assert.equal(msgs[0]!.time, 1_700_000_002_000);
    const m = msgs[0]!;
    if (m.type !== 5) assert.fail("type 5 expected");
    assert.equal(m.shipname, "VERGINA");
    assert.equal(m.destination, "ISTHMIA");
  });

  test("3 fragments; a payload split anywhere decodes the same", () => {
    const full = P5A[0]! + P5A[1]!;
    const ref = decodePayload(full, 2);
    assert.ok(ref.ok);
    for (const n of [2, 3, 4, 9]) {
      const dec = createAisDecoder();
      const msgs = feedAll(dec, fragments(full, 2, n, "2"));
      assert.equal(msgs.length, 1, `${n} fragments`);
      assert.deepEqual({ ...msgs[0], time: null, source: null, channel: null }, ref.message);
    }
  });

  test("a lost fragment times out on `now` and never joins another message", () => {
    const dec = createAisDecoder({ fragmentTimeoutMs: 1000 });
    const [a1] = two(P5A, "1");
    const [, b2] = two(P5B, "1");
    assert.equal(dec.feed(a1, { source: "s", receivedAt: AT }), null);
    assert.equal(dec.stats().pending, 1);
    // Fragment 2 of another message with the same key, after the timeout.
    assert.equal(dec.feed(b2, { source: "s", receivedAt: AT + 1001 }), null);
    assert.deepEqual(reasonsOf(dec), { fragment_missing: 1, fragment_out_of_order: 1 });
    assert.equal(dec.stats().pending, 0);
  });

  test("expire(now) and the periodic sweep drop stale fragments", () => {
    const dec = createAisDecoder({ fragmentTimeoutMs: 1000 });
    const [a1] = two(P5A, "1");
    const [b1] = two(P5B, "2");
    dec.feed(a1, { source: "s", receivedAt: AT });
    dec.feed(b1, { source: "s", receivedAt: AT + 500 });
    assert.equal(dec.expire(AT + 1200), 1);
    assert.equal(dec.stats().pending, 1);
    // Any later line sweeps once the timeout has passed since the last sweep.
    only(dec, T1, AT + 2300);
    assert.equal(dec.stats().pending, 0);
    assert.deepEqual(reasonsOf(dec), { fragment_missing: 2 });
  });

  test("a new fragment 1 replaces an incomplete message; a repeated one is a duplicate", () => {
    const dec = createAisDecoder();
    const [a1, a2] = two(P5A, "1");
    const [b1, b2] = two(P5B, "1");
    // a2 is lost: b1 (same key) discards a1, and b2 completes b1.
    assert.deepEqual(feedAll(dec, [a1, b1, b2]).map((m) => m.mmsi), [247431600]);
    assert.deepEqual(reasonsOf(dec), { fragment_missing: 1 });
    const dec2 = createAisDecoder();
    assert.deepEqual(feedAll(dec2, [a1, a1, a2]).map((m) => m.mmsi), [237201800]);
    assert.deepEqual(reasonsOf(dec2), { fragment_duplicate: 1 });
  });

  test("out of order, duplicate last fragment and wrong count are dropped", () => {
    const dec = createAisDecoder();
    const [a1, a2] = two(P5A, "1");
    assert.deepEqual(feedAll(dec, [a2, a1]), []);
    assert.deepEqual(feedAll(dec, [a2]).map((m) => m.mmsi), [237201800]);
    assert.deepEqual(feedAll(dec, [a2]), []);
    const f3 = fragments(P5A[0]! + P5A[1]!, 2, 3, "4");
    assert.deepEqual(feedAll(dec, [f3[0]!, f3[2]!, f3[1]!]), []);
    const st = dec.stats();
    assert.equal(st.reasons.fragment_out_of_order, 4);
    assert.equal(st.lines, st.messages + st.fragments + st.rejected);
  });

  test("the pending table is bounded", () => {
    const dec = createAisDecoder({ maxPending: 3 });
    for (let i = 0; i < 10; i++) dec.feed(two(P5A, "1")[0], { source: `rx${i}`, receivedAt: AT });
    const st = dec.stats();
    assert.equal(st.pending, 3);
    assert.equal(st.reasons.pending_overflow, 7);
  });
});

describe("stats", () => {
  test("counts by type, by reason, and lines = messages + fragments + rejected", () => {
    const dec = createAisDecoder();
    const [a1, a2] = two(P5A, "1");
    feedAll(dec, [T1, T1, a1, a2, "junk", T1.replace("*4C", "*41"), "\\s:x*00\\" + T1, ""]);
    const st = dec.stats();
    assert.deepEqual(st.byType, { "1": 3, "5": 1 });
    assert.equal(st.messages, 4);
    assert.equal(st.fragments, 1);
    assert.equal(st.rejected, 3);
    assert.equal(st.lines, 8);
    assert.deepEqual(reasonsOf(dec), { no_sentence: 1, bad_checksum: 1, bad_tag_block_checksum: 1, empty_line: 1 });
    assert.deepEqual(Object.keys(st.reasons), [...AIS_REASONS]);
    let lineReasons = 0;
    for (const [r, n] of Object.entries(st.reasons)) if (!EVENT_REASONS.has(r as never)) lineReasons += n;
    assert.equal(lineReasons, st.rejected);
  });

  test("checksum helper agrees with a real sentence", () => {
    assert.equal(checksum(T1.slice(1, T1.indexOf("*"))), "4C");
  });
});
