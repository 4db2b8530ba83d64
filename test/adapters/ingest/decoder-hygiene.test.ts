import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { PositionFix } from "../../../src/interfaces/positions.ts";
import { armor, bits, sentence } from "../../helpers/ais-sentences.ts";
import { type IngestTestService, metric, metricsText, positionLine, startIngestService, stationFor, type TestStation } from "../../helpers/ingest.ts";

const MIN = 60_000;

/** A type 27 of MMSI 343135459 at 60.06 N, 92.20 W (on land), `extra` bits longer than the legal 96. */
function longRange(extra: number): string {
  const body = bits([27, 6], [0, 2], [343135459, 30], [0, 1], [0, 1], [0, 4], [Math.round(-92.2 * 600), 18], [Math.round(60.06 * 600), 17], [10, 6], [90, 9], [0, 1], [0, 1]);
  const a = armor(body + "0".repeat(extra));
  return sentence(a.payload, a.fill);
}

describe("decoder hygiene through ingest", () => {
  let t: IngestTestService;
  let st: TestStation;
  /** Every fix handed to zone evaluation. */
  const evaluated: PositionFix[] = [];
  before(async () => {
    t = await startIngestService();
    st = await stationFor(t);
    const zones = t.service.ingest.pipeline.onPositions;
    t.service.ingest.pipeline.onPositions = (fixes) => {
      evaluated.push(...fixes);
      zones?.(fixes);
    };
  });
  after(() => t.close());

  const post = async (lines: string[]) => {
    const r = await t.service.app.inject({ method: "POST", url: "/ingest/nmea", headers: { "content-type": "text/plain", authorization: `Bearer ${st.secret}` }, payload: lines.join("\r\n") });
    assert.equal(r.statusCode, 200, r.body);
    return r.json();
  };
  const counters = async () => (await t.service.services.positions.counters([st.id]))[0]?.counters ?? {};
  const storedOf = async (mmsi: number) =>
    (await t.service.store.db.selectFrom("positions").select(["lat", "lon", "time"]).where("mmsi", "=", mmsi).orderBy("time").execute()).map((r) => ({ lat: r.lat, lon: r.lon }));

  it("12 type 27 messages of 104 to 376 bits are counted under illegal_length and none is stored", async () => {
    const extras = [8, 16, 24, 40, 56, 72, 96, 128, 160, 200, 240, 280];
    const body = await post(extras.map(longRange));
    assert.deepEqual(body.reasons, { illegal_length: 12 });
    assert.equal(body.rejected, 12);
    assert.equal(body.positions, 0);
    assert.deepEqual(await storedOf(343135459), []);
    assert.equal((await counters())["reason:illegal_length"], 12);
    assert.equal(metric(await metricsText(t), `mds_ingest_decoder_events_total{station="${st.id}",reason="illegal_length"}`), 12);
    // The same report at its legal 96 bits is a position.
    const legal = await post([longRange(0)]);
    assert.equal(legal.positions, 1);
    assert.equal((await storedOf(343135459)).length, 1);
  });

  it("a fix farther from the last one than a ship can sail is counted, kept off the track, the latest position and zone evaluation", async () => {
    const mmsi = 230_000_777;
    const at = t.clock.t;
    const line = (lat: number, lon: number, time: number) => positionLine({ mmsi, lat, lon }, time);
    const first = await post([line(60.1, 24.9, at), line(60.11, 24.9, at + MIN)]);
    assert.equal(first.positions, 2);
    // A minute later 1,900 nm away (over 100,000 kn), then back on course.
    const jump = await post([line(40.0, -30.0, at + 2 * MIN)]);
    assert.equal(jump.positions, 0);
    assert.equal(jump.invalidPositions, 1);
    const back = await post([line(60.12, 24.9, at + 3 * MIN)]);
    assert.equal(back.positions, 1);

    assert.deepEqual(await storedOf(mmsi), [{ lat: 60.1, lon: 24.9 }, { lat: 60.11, lon: 24.9 }, { lat: 60.12, lon: 24.9 }]);
    assert.ok(!evaluated.some((f) => f.mmsi === mmsi && f.lat === 40), "the jump never reaches zone evaluation");
    assert.equal(evaluated.filter((f) => f.mmsi === mmsi).length, 3);
    assert.equal((await counters()).positions_jump, 1);
    assert.equal(metric(await metricsText(t), `mds_ingest_positions_total{station="${st.id}",outcome="jump"}`), 1);
    const latest = await t.service.services.positions.latest([st.id], 0);
    assert.deepEqual(latest.filter((f) => f.mmsi === mmsi).map((f) => f.lat), [60.12]);
  });
});
