import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { after, before, describe, it } from "node:test";
import { MAX_DECOMPRESSED_BYTES } from "../../../src/adapters/ingest/http-body.ts";
import { garbage, type IngestTestService, positionLine, positionsOf, staticLines, startWithStation, stationFor, type TestStation } from "../../helpers/ingest.ts";

const NOW = Date.parse("2026-11-20T12:00:00Z");

/** AIS-catcher's `rxtime`: UTC yyyymmddHHMMSS. */
function rxtime(t: number): string {
  return new Date(t).toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

/** A body as AIS-catcher's HTTP output builds it for `protocol AISCATCHER` (the jsonaiscatcher envelope). */
function envelope(msgs: unknown[], protocol = "jsonaiscatcher"): string {
  return JSON.stringify({
    protocol,
    encodetime: rxtime(NOW),
    stationid: "MyStation",
    station_lat: 52.0,
    station_lon: 4.0,
    receiver: { description: "AIS-catcher v0.62", version: 62, engine: "A-FM", setting: "" },
    device: { product: "RTL2838UHIDIR", vendor: "Realtek", serial: "00000001", setting: "" },
    msgs,
  });
}

function msg(nmea: string[], mmsi: number, t: number) {
  return { class: "AIS", device: "AIS-catcher", rxtime: rxtime(t), scaled: true, channel: "A", nmea, signalpower: -20.1, ppm: 0.5, type: 1, mmsi };
}

describe("POST /ingest/nmea from AIS-catcher's HTTP output (-H url userpwd <id>:<secret>)", () => {
  let t: IngestTestService;
  let st: TestStation;
  before(async () => {
    ({ t, st } = await startWithStation());
  });
  after(() => t.close());

  /** As AIS-catcher posts: Basic auth, Content-Type application/json whatever the body, gzip when `gzip on`. */
  const post = (body: string | Buffer, extra: Record<string, string> = {}, user = String(st.id), secret = st.secret) =>
    t.service.app.inject({
      method: "POST",
      url: "/ingest/nmea",
      headers: { authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`, "content-type": "application/json", accept: "*/*", connection: "close", ...extra },
      payload: body,
    });

  it("protocol AISCATCHER: the msgs' NMEA is stored, with each message's rxtime as the fix's time", async () => {
    const t1 = NOW - 50_000;
    const r = await post(envelope([msg([positionLine({ mmsi: 245_000_001, lat: 51.1, lon: 3.1 })], 245_000_001, t1), { ...msg(staticLines({ mmsi: 245_000_001, shipname: "ENVELOPED" }), 245_000_001, t1), type: 5 }]));
    assert.equal(r.statusCode, 200, r.body);
    const body = r.json();
    assert.equal(body.format, "jsonaiscatcher");
    assert.equal(body.positions, 1);
    assert.equal(body.statics, 1);
    const [fix] = await t.service.services.positions.latest([st.id], 0);
    assert.equal(fix!.time, t1, "rxtime, not the time of the post");
  });

  it("gzip on: Content-Encoding gzip is undone; a gzip body without the header is recognised by its magic bytes", async () => {
    const body = gzipSync(envelope([msg([positionLine({ mmsi: 245_000_002, lat: 51.2, lon: 3.2 })], 245_000_002, NOW)]));
    assert.equal((await post(body, { "content-encoding": "gzip" })).json().positions, 1);
    const unannounced = gzipSync(positionLine({ mmsi: 245_000_003, lat: 51.3, lon: 3.3 }));
    const r = await post(unannounced);
    assert.equal(r.json().format, "nmea");
    assert.equal(r.json().positions, 1);
  });

  it("protocol NMEA (sentences joined by \\n under Content-Type application/json), LIST (JSON per line) and the airframes envelope (MINIMAL posts the jsonaiscatcher one)", async () => {
    const nmea = await post(`${positionLine({ mmsi: 245_000_004, lat: 51.4, lon: 3.4 })}\n${positionLine({ mmsi: 245_000_005, lat: 51.5, lon: 3.5 })}\n`);
    assert.deepEqual([nmea.json().format, nmea.json().positions], ["nmea", 2]);
    const list = await post(`${JSON.stringify(msg([positionLine({ mmsi: 245_000_006, lat: 51.6, lon: 3.6 })], 245_000_006, NOW))}\n${JSON.stringify(msg([positionLine({ mmsi: 245_000_007, lat: 51.7, lon: 3.7 })], 245_000_007, NOW))}\n`);
    assert.deepEqual([list.json().format, list.json().positions], ["json_lines", 2]);
    const airframes = await post(gzipSync(envelope([msg([positionLine({ mmsi: 245_000_008, lat: 51.8, lon: 3.8 })], 245_000_008, NOW)], "airframes")), { "content-encoding": "gzip" });
    assert.deepEqual([airframes.json().format, airframes.json().positions], ["airframes", 1]);
  });

  it("protocol APRS (multipart jsonais, decoded fields without NMEA): accepted, and the messages without NMEA are counted", async () => {
    const boundary = "------------------------AIScatcherBoundary";
    const doc = JSON.stringify({ protocol: "jsonais", encodetime: rxtime(NOW), groups: [{ path: [{ name: "MyStation", url: "http://x" }], msgs: [{ msgtype: 1, mmsi: 245000009, lat: 51.9, lon: 3.9 }] }] });
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="jsonais"\r\nContent-Type: application/json\r\n\r\n${doc}\r\n--${boundary}--\r\n`;
    const r = await post(body, { "content-type": `multipart/form-data; boundary=${boundary}` });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.json().format, "jsonais");
    assert.equal(r.json().messagesWithoutNmea, 1);
    assert.equal(r.json().positions, 0);
  });

  it("an empty envelope or body (AIS-catcher's heartbeat) is 200 and marks the station heard", async () => {
    const r = await post(envelope([]));
    assert.equal(r.statusCode, 200);
    assert.equal(r.json().lines, 0);
    assert.equal((await post("")).statusCode, 200);
    await t.service.ingest.pipeline.flush();
    const [c] = await t.service.services.positions.counters([st.id]);
    assert.ok(c!.lastHeardAt !== null);
  });

  it("Basic with a wrong secret, another station's id as user, or no password: 401; Bearer still works", async () => {
    const other = await stationFor(t, "pro", "other roof");
    const line = positionLine({ mmsi: 245_000_010, lat: 50, lon: 3 });
    assert.equal((await post(line, {}, String(st.id), `${st.secret}x`)).statusCode, 401);
    assert.equal((await post(line, {}, String(other.id), st.secret)).statusCode, 401, "the user must be the station the secret belongs to");
    const noColon = await t.service.app.inject({ method: "POST", url: "/ingest/nmea", headers: { authorization: `Basic ${Buffer.from(st.secret).toString("base64")}` }, payload: line });
    assert.equal(noColon.statusCode, 401);
    assert.match(noColon.headers["www-authenticate"] as string, /Basic realm="station"/);
    const bearer = await t.service.app.inject({ method: "POST", url: "/ingest/nmea", headers: { authorization: `Bearer ${st.secret}` }, payload: line });
    assert.equal(bearer.json().positions, 1, "no Content-Type at all is fine too");
  });

  it("garbage bodies under every content type: counted or refused with a clear error, never a 5xx, nothing stored", async () => {
    const before = await positionsOf(t, st.id);
    const bodies: [string | Buffer, Record<string, string>][] = [
      [garbage(3, 5_000), {}],
      [garbage(4, 5_000), { "content-encoding": "gzip" }],
      [Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]), {}],
      ["{", {}],
      ['{"msgs": "not an array"}', {}],
      ['{"msgs": [1, null, {"nmea": "no array"}, {"nmea": [1, 2]}]}', {}],
      ["[1, 2, 3]", {}],
      ['{"a":1}\n{"b":2}\n', {}],
      ["--boundary-without-parts", {}],
      [positionLine({ mmsi: 245_000_011, lat: 50, lon: 3 }), { "content-encoding": "br" }],
      ['{"msgs":[{"nmea":["!AIVDM,1,1,,A,13u?etPv2;0n:dDPwUM1U1Cb069D,0*00"],"rxtime":"20261399999999"}]}', {}],
      [gzipSync(Buffer.alloc(MAX_DECOMPRESSED_BYTES + 1, 0x41)), {}],
    ];
    for (const [body, headers] of bodies) {
      for (const type of ["application/json", "text/plain", "application/octet-stream", "multipart/form-data; boundary=x"]) {
        const r = await post(body, { "content-type": type, ...headers });
        assert.ok([200, 413, 415].includes(r.statusCode), `${type}: ${r.statusCode} ${r.body}`);
        if (r.statusCode !== 200) assert.match(r.json().error.code, /^(unsupported_media_type|payload_too_large)$/);
        else assert.equal(r.json().positions, 0);
      }
    }
    assert.equal(await positionsOf(t, st.id), before);
  });

  it("--allow-from applies to HTTP too: 403 station_address_not_allowed, counted, nothing stored", async () => {
    const guarded = await stationFor(t, "pro", "guarded");
    await t.service.services.stations.updateStation(guarded.id, { allowFrom: ["192.0.2.0/24"] });
    t.service.ingest.directory.forget();
    const r = await post(positionLine({ mmsi: 245_000_012, lat: 50, lon: 3 }), {}, String(guarded.id), guarded.secret);
    assert.equal(r.statusCode, 403);
    assert.equal(r.json().error.code, "station_address_not_allowed");
    assert.equal(await positionsOf(t, guarded.id), 0);
    await t.service.ingest.pipeline.flush();
    const [c] = await t.service.services.positions.counters([guarded.id]);
    assert.equal(c!.counters.address_not_allowed, 1);
  });
});
