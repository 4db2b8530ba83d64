import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { aisstreamSubscription, goTime, parseAisstream } from "../../../src/domain/feeds/aisstream-message.ts";
import { aishubPollUrl, parseAishub } from "../../../src/domain/feeds/aishub-snapshot.ts";
import { backoffDelay } from "../../../src/domain/feeds/backoff.ts";
import { parseDigitraffic } from "../../../src/domain/feeds/digitraffic-message.ts";
import { feedUrlProblem } from "../../../src/domain/feeds/kinds.ts";

const NOW = Date.parse("2026-11-20T12:00:00Z");

describe("Digitraffic messages", () => {
  it("a location (Digitraffic's published example): MMSI from the topic, time in seconds, sentinels as null", () => {
    const r = parseDigitraffic(
      "vessels-v2/230145250/location",
      '{"time":1668075025,"sog":10.7,"cog":326.6,"navStat":0,"rot":0,"posAcc":true,"raim":false,"heading":325,"lon":20.345818,"lat":60.03802}',
      NOW,
    );
    assert.deepEqual(r, { reports: [{ kind: "position", mmsi: 230145250, time: 1668075025000, lat: 60.03802, lon: 20.345818, sog: 10.7, cog: 326.6, heading: 325, navStatus: 0 }] });
    const na = parseDigitraffic("vessels-v2/230145250/location", '{"time":1668075025,"sog":102.3,"cog":360,"navStat":15,"heading":511,"lon":20.3,"lat":60.0}', NOW);
    assert.ok("reports" in na);
    assert.deepEqual({ ...na.reports[0] }, { kind: "position", mmsi: 230145250, time: 1668075025000, lat: 60, lon: 20.3, sog: null, cog: null, heading: null, navStatus: 15 });
  });

  it("metadata (Digitraffic's published example): draught in tenths, the packed ETA, a check-digit-valid IMO", () => {
    const r = parseDigitraffic(
      "vessels-v2/538003913/metadata",
      '{"timestamp":1668075026035,"destination":"UST LUGA","name":"ARUNA CIHAN","draught":68,"eta":733376,"posType":15,"refA":160,"refB":33,"refC":20,"refD":12,"callSign":"V7WW7","imo":9543756,"type":70}',
      NOW,
    );
    assert.deepEqual(r, {
      reports: [
        { kind: "identity", mmsi: 538003913, imo: 9543756, name: "ARUNA CIHAN", callsign: "V7WW7", shipType: 70, toBow: 160, toStern: 33, toPort: 20, toStarboard: 12, draught: 6.8, destination: "UST LUGA", eta: "11-06T03:00Z" },
      ],
    });
  });

  it("garbage is rejected with a reason, never thrown", () => {
    const cases: [string, string, string][] = [
      ["vessels-v2/1/location", "{", "not_json"],
      ["vessels-v2/1/location", "null", "not_an_object"],
      ["vessels-v2/1/location", '{"lat":1}', "no_position"],
      ["vessels-v2/x/location", "{}", "unknown_topic"],
      ["vessels-v2/0/location", "{}", "bad_mmsi"],
      ["other/topic", "{}", "unknown_topic"],
    ];
    for (const [topic, payload, reason] of cases) assert.deepEqual(parseDigitraffic(topic, payload, NOW), { rejected: reason }, `${topic} ${payload}`);
    assert.deepEqual(parseDigitraffic("vessels-v2/status", '{"updated":1}', NOW), { reports: [] });
    assert.deepEqual(parseDigitraffic("vessels-v2/230145250/metadata", '{"imo":1234568,"name":"@@@@"}', NOW), {
      reports: [{ kind: "identity", mmsi: 230145250, imo: null, name: null, callsign: null, shipType: null, draught: null, destination: null, eta: null }],
    });
  });
});

describe("aisstream.io messages", () => {
  it("Go's time format becomes epoch ms; anything else is null", () => {
    assert.equal(goTime("2026-07-12 12:00:00.123456789 +0000 UTC"), Date.parse("2026-07-12T12:00:00.123Z"));
    assert.equal(goTime("2026-07-12 12:00:00 +0000 UTC"), Date.parse("2026-07-12T12:00:00Z"));
    assert.equal(goTime("2026-07-12T12:00:00Z"), null);
    assert.equal(goTime(5), null);
  });

  it("the subscription: APIKey and [lat, lon] corners", () => {
    assert.deepEqual(JSON.parse(aisstreamSubscription("k"))?.BoundingBoxes, [[[-90, -180], [90, 180]]]);
    assert.equal(JSON.parse(aisstreamSubscription("k")).APIKey, "k");
  });

  it("a Class B report and a type 24 part A; the server's error is told apart from garbage", () => {
    const b = parseAisstream(
      JSON.stringify({ MessageType: "StandardClassBPositionReport", MetaData: { MMSI: 244100743 }, Message: { StandardClassBPositionReport: { UserID: 244100743, Valid: true, Sog: 0, Cog: 0, TrueHeading: 511, Latitude: 52.247345, Longitude: 5.304275 } } }),
      NOW,
    );
    assert.deepEqual(b, { reports: [{ kind: "position", mmsi: 244100743, time: NOW, lat: 52.247345, lon: 5.304275, sog: 0, cog: 0, heading: null, navStatus: null }] });
    const a = parseAisstream(JSON.stringify({ MessageType: "StaticDataReport", MetaData: {}, Message: { StaticDataReport: { UserID: 338545764, Valid: true, ReportA: { Name: "ODYSSEY", Valid: true }, ReportB: { Valid: false } } } }), NOW);
    assert.deepEqual(a, { reports: [{ kind: "identity", mmsi: 338545764, name: "ODYSSEY" }] });
    assert.deepEqual(parseAisstream('{"error":"Api Key Is Not Valid"}', NOW), { error: "Api Key Is Not Valid" });
    for (const g of ["", "[]", "{}", '{"MessageType":"PositionReport","Message":{"PositionReport":{"UserID":-5}}}', '{"MessageType":1}']) assert.ok("rejected" in parseAisstream(g, NOW), g);
  });
});

describe("AISHub snapshots", () => {
  it("AIS encoding: 1/600000 degree, tenths of knots and degrees; an error header is an error", () => {
    const r = parseAishub(JSON.stringify([{ ERROR: false, RECORDS: 1 }, [{ MMSI: 257000001, TIME: "1795003200", LATITUDE: 35700000, LONGITUDE: 6150000, COG: 3600, SOG: 1023, HEADING: 511, NAVSTAT: 5 }]]), NOW);
    assert.ok("reports" in r);
    assert.deepEqual(r.reports, [{ kind: "position", mmsi: 257000001, time: 1795003200000, lat: 59.5, lon: 10.25, sog: null, cog: null, heading: null, navStatus: 5 }]);
    assert.deepEqual(parseAishub('[{"ERROR":true,"ERROR_MESSAGE":"Too frequent requests!"}]', NOW), { error: "Too frequent requests!" });
    assert.deepEqual(parseAishub("<xml/>", NOW), { rejected: "not_json" });
    assert.deepEqual(parseAishub("{}", NOW), { rejected: "not_a_snapshot" });
  });

  it("the poll address carries the username, JSON and the AIS encoding", () => {
    const u = new URL(aishubPollUrl("https://data.aishub.net/ws.php", "AH_1", 10));
    assert.equal(u.searchParams.get("username"), "AH_1");
    assert.equal(u.searchParams.get("format"), "0");
    assert.equal(u.searchParams.get("output"), "json");
  });
});

describe("reconnection and addresses", () => {
  it("backoff doubles from the floor, is capped, and jitter keeps it within [half, whole]", () => {
    const p = { minMs: 12_000, maxMs: 600_000 };
    assert.equal(backoffDelay(p, 1, 1), 12_000);
    assert.equal(backoffDelay(p, 1, 0), 12_000);
    assert.equal(backoffDelay(p, 3, 1), 48_000);
    assert.equal(backoffDelay(p, 3, 0), 24_000);
    assert.equal(backoffDelay(p, 50, 1), 600_000);
    assert.equal(backoffDelay(p, 50, 0), 300_000);
  });

  it("each kind takes its own schemes", () => {
    assert.equal(feedUrlProblem("kystverket", "tcp://153.44.253.27:5631"), null);
    assert.equal(feedUrlProblem("digitraffic", "wss://meri.digitraffic.fi:443/mqtt"), null);
    assert.match(feedUrlProblem("aishub", "ftp://x") ?? "", /must start with https:\/\/ or http:\/\//);
  });
});
