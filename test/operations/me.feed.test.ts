import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { encodePositionB, encodeStaticB_A, encodeStaticB_B, toSentences } from "../../src/domain/ais/encode.ts";
import { ENGINES, get } from "../helpers/service.ts";
import { type IngestTestService, positionLine, startIngestService, staticLines, stationFor, type TestStation, tcpExchange } from "../helpers/ingest.ts";

const NOW = Date.parse("2026-11-20T12:00:00Z");
const MIN = 60_000;

async function sendTcp(t: IngestTestService, st: TestStation, lines: string[]): Promise<void> {
  const r = await tcpExchange(t.tcpPort, [`AUTH ${st.secret}\n${lines.join("\n")}\n`]);
  assert.ok(r.acked >= lines.length, r.output);
}

for (const engine of ENGINES) {
  describe(`GET /api/v1/me/feed (${engine})`, () => {
    let t: IngestTestService;
    let alice: TestStation;
    let bob: TestStation;
    before(async () => {
      t = await startIngestService(engine);
      alice = await stationFor(t, "pro", "alice roof");
      bob = await stationFor(t, "team", "bob mast");
      // Alice's station hears two ships (one twice) and a Class B boat; Bob's hears one
      // ship that Alice also hears, and one of his own. Times come from tag blocks.
      await sendTcp(t, alice, [
        positionLine({ mmsi: 230_000_001, lat: 60.1, lon: 24.9, sog: 12.3, cog: 45.6, heading: 44, navStatus: 0 }, NOW - 30 * MIN),
        positionLine({ mmsi: 230_000_001, lat: 60.2, lon: 25.0, sog: 12.5, cog: 46, heading: 45, navStatus: 0 }, NOW - 5 * MIN),
        positionLine({ mmsi: 230_000_002, lat: 59.5, lon: 24.5, sog: 0, cog: 0, heading: 180, navStatus: 5 }, NOW - 2 * MIN),
        positionLine({ mmsi: 230_000_003, lat: 59.9, lon: 23.0, navStatus: 1 }, NOW - 3 * 60 * MIN),
        ...staticLines({ mmsi: 230_000_001, imo: 9_074_729, shipname: "FINNMAID", callsign: "OJAB", shipType: 60, destination: "FIHEL" }, 1),
        // IMO 9074728 fails the check digit: stored as null.
        ...staticLines({ mmsi: 230_000_002, imo: 9_074_728, shipname: "BAD IMO", shipType: 70 }, 2),
        ...toSentences(encodePositionB({ mmsi: 230_000_004, lat: 60.0, lon: 24.0, sog: 5, cog: 10, heading: null }), { time: NOW - MIN }),
        ...toSentences(encodeStaticB_A({ mmsi: 230_000_004, shipname: "SAILOR" })),
        ...toSentences(encodeStaticB_B({ mmsi: 230_000_004, shipType: 37, callsign: "OH1234", toBow: 8, toStern: 4, toPort: 2, toStarboard: 2 })),
      ]);
      await sendTcp(t, bob, [
        positionLine({ mmsi: 230_000_001, lat: 60.3, lon: 25.1 }, NOW - MIN),
        positionLine({ mmsi: 266_000_001, lat: 57.7, lon: 11.9 }, NOW - 10 * MIN),
        ...staticLines({ mmsi: 266_000_001, shipname: "BOBS SHIP" }, 3),
      ]);
    });
    after(() => t.close());
    // Keys are rate-limited per second; a fresh key of the same account per test keeps the suite under it.
    const keyOf = async (st: TestStation) => (await t.service.services.accounts.createKey(st.accountId)).key;

    it("shows the latest fix and identity of each vessel the key owner's stations heard, newest first", async () => {
      const r = await get(t, "/api/v1/me/feed", await keyOf(alice));
      assert.equal(r.status, 200);
      assert.equal(r.body.type, "my_feed");
      assert.equal(r.body.apiVersion, "1");
      assert.equal(r.body.private, true);
      assert.equal(r.body.maxAgeMinutes, 60);
      assert.deepEqual(
        r.body.data.map((d: { mmsi: number }) => d.mmsi),
        [230_000_004, 230_000_002, 230_000_001],
        "newest first; the 3-hour-old fix is outside the default 60 minutes",
      );
      const finnmaid = r.body.data.find((d: { mmsi: number }) => d.mmsi === 230_000_001);
      assert.deepEqual(finnmaid, {
        station: { id: alice.id, name: "alice roof" },
        mmsi: 230_000_001,
        time: new Date(NOW - 5 * MIN).toISOString(),
        lat: 60.2,
        lon: 25,
        sog: 12.5,
        cog: 46,
        heading: 45,
        navStatus: 0,
        name: "FINNMAID",
        callsign: "OJAB",
        imo: 9_074_729,
        shipType: 60,
        destination: "FIHEL",
      });
      const bad = r.body.data.find((d: { mmsi: number }) => d.mmsi === 230_000_002);
      assert.equal(bad.imo, null, "a wrong IMO check digit is not an identity");
      assert.equal(bad.name, "BAD IMO");
      assert.equal(bad.navStatus, 5);
      const boat = r.body.data.find((d: { mmsi: number }) => d.mmsi === 230_000_004);
      assert.deepEqual([boat.name, boat.callsign, boat.shipType, boat.navStatus, boat.heading], ["SAILOR", "OH1234", 37, 15, null], "24 A and B merge; Class B has no status (15)");
      assert.deepEqual(r.body.sources, [`station:${alice.id}`], "the station as the rows name it");
      assert.deepEqual(r.body.withheld, []);
      assert.equal(r.body.count, 3);
    });

    it("never shows another account's stations: each owner sees only their own vessels and fixes", async () => {
      const b = await get(t, "/api/v1/me/feed?maxAge=1440", await keyOf(bob));
      assert.equal(b.status, 200);
      assert.deepEqual(b.body.data.map((d: { mmsi: number }) => d.mmsi), [230_000_001, 266_000_001]);
      assert.ok(b.body.data.every((d: { station: { id: number } }) => d.station.id === bob.id));
      const shared = b.body.data.find((d: { mmsi: number }) => d.mmsi === 230_000_001);
      assert.equal(shared.name, null, "Alice's identity of the ship is not Bob's");
      assert.equal(shared.lat, 60.3);
      const a = await get(t, "/api/v1/me/feed?maxAge=1440", await keyOf(alice));
      assert.ok(a.body.data.every((d: { station: { id: number } }) => d.station.id === alice.id));
      assert.ok(!a.body.data.some((d: { mmsi: number }) => d.mmsi === 266_000_001));
    });

    it("an account without stations gets an empty feed", async () => {
      const { key } = await t.key("pro");
      const r = await get(t, "/api/v1/me/feed", key);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.data, []);
    });

    it("maxAge bounds the fixes (minutes, 1..1440)", async () => {
      const one = await get(t, "/api/v1/me/feed?maxAge=1", await keyOf(alice));
      assert.deepEqual(one.body.data.map((d: { mmsi: number }) => d.mmsi), [230_000_004]);
      assert.equal(one.body.maxAgeMinutes, 1);
      const all = await get(t, "/api/v1/me/feed?maxAge=1440", await keyOf(alice));
      assert.deepEqual(all.body.data.map((d: { mmsi: number }) => d.mmsi), [230_000_004, 230_000_002, 230_000_001, 230_000_003]);
      for (const bad of ["0", "1441", "-5", "ten", "1.5"]) {
        const r = await get(t, `/api/v1/me/feed?maxAge=${bad}`, await keyOf(alice));
        assert.equal(r.status, 400, bad);
        assert.equal(r.body.error.code, "invalid_parameter");
        assert.equal(r.body.error.param, "maxAge");
      }
    });

    it("plans without private feeds get 403 plan_lacks_feature, uncharged; no key is 401", async () => {
      for (const plan of ["sandbox", "plus", "developer", "scale"] as const) {
        const { key } = await t.key(plan);
        const r = await get(t, "/api/v1/me/feed", key);
        assert.equal(r.status, 403, plan);
        assert.equal(r.body.error.code, "plan_lacks_feature");
        assert.equal(r.headers["x-credits-cost"], "0");
      }
      assert.equal((await get(t, "/api/v1/me/feed")).status, 401);
      const ok = await get(t, "/api/v1/me/feed", await keyOf(alice));
      assert.equal(ok.headers["x-credits-cost"], "1");
    });

    it("matches the OpenAPI document's schema", async () => {
      const doc = (await get(t, "/api/v1/openapi.json")).body;
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
      for (const path of ["/api/v1/me/feed", "/api/v1/me/stations"]) {
        const schema = JSON.parse(JSON.stringify(doc.paths[path].get.responses["200"].content["application/json"].schema).replaceAll('"#/components', '"doc#/components'));
        const validate = ajv.compile(schema);
        const r = await get(t, path, await keyOf(alice));
        assert.ok(validate(r.body), JSON.stringify(validate.errors?.slice(0, 3)));
      }
    });

    it("GET /api/v1/me/stations: the owner's stations with their ingest counters, free", async () => {
      const r = await get(t, "/api/v1/me/stations", await keyOf(alice));
      assert.equal(r.status, 200);
      assert.equal(r.headers["x-credits-cost"], "0");
      assert.equal(r.body.count, 1);
      const s = r.body.data[0];
      assert.equal(s.id, alice.id);
      assert.equal(s.lines, 11);
      assert.deepEqual(s.messagesByType, { "1": 4, "5": 2, "18": 1, "24": 2 });
      assert.equal(s.positions, 5);
      assert.equal(s.staticReports, 4);
      assert.equal(s.rejectedLines, 0);
      assert.equal(s.lastHeardAt, new Date(NOW).toISOString());
    });
  });
}
