import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { INGEST_BODY_LIMIT } from "../../../src/adapters/ingest/http-route.ts";
import { garbage, type IngestTestService, positionLine, positionsOf, startIngestService, staticLines, stationFor, type TestStation, totalPositions } from "../../helpers/ingest.ts";

describe("POST /ingest/nmea", () => {
  let t: IngestTestService;
  let st: TestStation;
  before(async () => {
    t = await startIngestService();
    st = await stationFor(t);
  });
  after(() => t.close());

  const post = (body: string | Buffer, headers: Record<string, string>) =>
    t.service.app.inject({ method: "POST", url: "/ingest/nmea", headers: { "content-type": "text/plain", ...headers }, payload: body });

  it("stores the lines and answers with counts accepted and rejected by reason, once stored", async () => {
    const body = [
      positionLine({ mmsi: 400_000_001, lat: 60.1, lon: 24.9 }),
      positionLine({ mmsi: 400_000_002, lat: 91, lon: 24.9 }),
      ...staticLines({ mmsi: 400_000_001, shipname: "ALPHA", imo: 9_074_729 }),
      "!AIVDM,1,1,,A,13u?etPv2;0n:dDPwUM1U1Cb069D,0*00",
      "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47",
      "",
      "junk",
    ].join("\r\n");
    const r = await post(body, { authorization: `Bearer ${st.secret}` });
    assert.equal(r.statusCode, 200, r.body);
    assert.deepEqual(r.json(), {
      station: { id: st.id, name: "roof" },
      format: "nmea",
      lines: 7,
      accepted: 4,
      rejected: 3,
      reasons: { bad_checksum: 1, not_ais: 1, no_sentence: 1 },
      messages: 3,
      fragments: 1,
      positions: 1,
      invalidPositions: 1,
      statics: 1,
    });
    assert.equal(await positionsOf(t, st.id), 1, "counted before the answer, stored by then");
  });

  it("no key, a wrong scheme, a wrong or an API key: 401 station_unauthenticated before the body is read; nothing stored", async () => {
    const { key } = await t.key("pro");
    const body = positionLine({ mmsi: 400_000_009, lat: 1, lon: 1 });
    for (const authorization of [undefined, `Basic ${st.secret}`, `Bearer ${st.secret.slice(0, -1)}`, `Bearer ${key}`, "Bearer", `Bearer ${"z".repeat(5_000)}`]) {
      const r = await post(body, authorization === undefined ? {} : { authorization });
      assert.equal(r.statusCode, 401, String(authorization));
      assert.equal(r.json().error.code, "station_unauthenticated");
      assert.match(r.headers["www-authenticate"] as string, /^Bearer/);
    }
    assert.equal(await totalPositions(t), 1);
  });

  it("a body over the limit is 413 payload_too_large; JSON that is no receiver's format 415", async () => {
    const big = `${"!AIVDM,1,1,,A,13u?etPv2;0n:dDPwUM1U1Cb069D,0*24\n".repeat(Math.ceil(INGEST_BODY_LIMIT / 45) + 10)}`;
    const r = await post(big, { authorization: `Bearer ${st.secret}` });
    assert.equal(r.statusCode, 413);
    assert.equal(r.json().error.code, "payload_too_large");
    const j = await t.service.app.inject({ method: "POST", url: "/ingest/nmea", headers: { authorization: `Bearer ${st.secret}`, "content-type": "application/json" }, payload: "{}" });
    assert.equal(j.statusCode, 415);
    assert.equal(j.json().error.code, "unsupported_media_type");
  });

  it("random bytes as a body are counted, not stored, and do not break the route", async () => {
    for (let seed = 10; seed < 14; seed++) {
      const r = await post(garbage(seed, 20_000), { authorization: `Bearer ${st.secret}` });
      assert.equal(r.statusCode, 200);
      assert.equal(r.json().positions, 0);
    }
    assert.equal(await totalPositions(t), 1);
  });
});
