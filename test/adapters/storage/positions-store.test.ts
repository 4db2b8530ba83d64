import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { IngestBatch, PositionFix, PositionStore } from "../../../src/interfaces/positions.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";

const T = Date.parse("2026-11-20T12:00:00Z");

function fix(mmsi: number, time: number, stationId: number, lat = 60): PositionFix {
  return { mmsi, time, stationId, lat, lon: 20, sog: 10.5, cog: 180.2, heading: 179, navStatus: 0 };
}

const empty = (): IngestBatch => ({ positions: [], latest: [], identities: [], counters: [], heard: [] });

for (const engine of ENGINES) {
  describe(`positions store (${engine})`, () => {
    let t: TestService;
    let store: PositionStore;
    let s1: number;
    let s2: number;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      store = t.service.services.positions;
      const { accountId } = await t.key("pro");
      s1 = (await t.service.services.stations.createStation(accountId, "a")).station.id;
      s2 = (await t.service.services.stations.createStation(accountId, "b")).station.id;
    });
    after(() => t.close());

    it("writes fixes in bounded statements (here 2,601 rows), skips duplicates of a stored key, and reads tracks per station", async () => {
      const positions = Array.from({ length: 2_601 }, (_, i) => fix(400_000_000 + (i % 3), T + i * 1_000, i % 2 === 0 ? s1 : s2));
      assert.equal((await store.writeBatch({ ...empty(), positions })).inserted, 2_601);
      assert.equal((await store.writeBatch({ ...empty(), positions: positions.slice(0, 10) })).inserted, 0, "same (mmsi, time, station): not stored twice");
      assert.equal((await store.countPositions(s1)) + (await store.countPositions(s2)), 2_601);
      const track = await store.track(400_000_000, T, T + 3_600_000, [s1]);
      assert.ok(track.length > 100);
      assert.ok(track.every((f) => f.stationId === s1 && f.mmsi === 400_000_000));
      assert.deepEqual(track.map((f) => f.time), [...track.map((f) => f.time)].sort((a, b) => a - b));
      assert.deepEqual(await store.track(400_000_000, T, T + 3_600_000, []), [], "no stations, no data");
      assert.deepEqual({ ...track[0]! }, fix(400_000_000, T, s1));
    });

    it("the latest fix per station and vessel only moves forward in time", async () => {
      await store.writeBatch({ ...empty(), latest: [fix(410_000_001, T, s1, 61)] });
      await store.writeBatch({ ...empty(), latest: [fix(410_000_001, T - 60_000, s1, 62)] });
      await store.writeBatch({ ...empty(), latest: [fix(410_000_001, T - 60_000, s2, 63)] });
      const l = await store.latest([s1, s2], T - 3_600_000);
      const mine = l.filter((f) => f.mmsi === 410_000_001);
      assert.deepEqual(
        mine.map((f) => [f.stationId, f.lat]),
        [
          [s1, 61],
          [s2, 63],
        ],
      );
      assert.deepEqual((await store.latest([s2], T - 1)).filter((f) => f.mmsi === 410_000_001), [], "older than `since`");
    });

    it("an identity update changes only the fields its report carries", async () => {
      const base = { stationId: s1, mmsi: 420_000_001, updatedAt: T };
      await store.writeBatch({
        ...empty(),
        identities: [{ ...base, imo: 9_074_729, name: "ALPHA", callsign: "OJAB", shipType: 70, toBow: 100, toStern: 20, toPort: 10, toStarboard: 10, draught: 6.5, destination: "FIHEL", eta: "12-24T06:30Z" }],
      });
      // Type 24 part A: the name only.
      await store.writeBatch({ ...empty(), identities: [{ ...base, name: "BRAVO", updatedAt: T + 1 }] });
      let [id] = await store.identities([s1], [420_000_001]);
      assert.deepEqual([id!.imo, id!.name, id!.callsign, id!.shipType, id!.toBow, id!.draught, id!.destination, id!.eta], [9_074_729, "BRAVO", "OJAB", 70, 100, 6.5, "FIHEL", "12-24T06:30Z"]);
      // A type 5 saying "no IMO, no destination" clears them.
      await store.writeBatch({ ...empty(), identities: [{ ...base, imo: null, name: "BRAVO", callsign: "OJAB", shipType: 70, destination: null, eta: null, updatedAt: T + 2 }] });
      [id] = await store.identities([s1], [420_000_001]);
      assert.deepEqual([id!.imo, id!.destination, id!.eta, id!.toBow, id!.updatedAt], [null, null, null, 100, T + 2]);
      assert.deepEqual(await store.identities([s2], [420_000_001]), [], "another station's identity is its own");
    });

    it("counters add up across batches; last heard is a time", async () => {
      await store.writeBatch({ ...empty(), counters: [{ stationId: s1, counter: "lines", delta: 5 }], heard: [{ stationId: s1, at: T }] });
      await store.writeBatch({ ...empty(), counters: [{ stationId: s1, counter: "lines", delta: 7 }, { stationId: s2, counter: "type:1", delta: 1 }], heard: [{ stationId: s1, at: T + 5 }] });
      const c = await store.counters([s1, s2]);
      assert.deepEqual(c, [
        { stationId: s1, counters: { lines: 12 }, lastHeardAt: T + 5 },
        { stationId: s2, counters: { "type:1": 1 }, lastHeardAt: null },
      ]);
    });

    it("finds stations by secret hash and id, and nothing for nonsense", async () => {
      const s = await store.stationById(s1);
      assert.equal(s?.id, s1);
      assert.equal((await store.stationBySecretHash(s!.secretHash))?.id, s1);
      assert.equal(await store.stationBySecretHash("00".repeat(32)), null);
      assert.equal(await store.stationById(9_999_999_999), null);
      assert.equal(await store.stationById(-1), null);
    });
  });
}
