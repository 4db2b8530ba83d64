/**
 * Points of stations the caller may not be shown: counted per station and listed under
 * `withheld` in the stations' order, for a ship that changed its MMSI mid-window (a bucket
 * both MMSIs fill counts once), by IMO and by MMSI, and for a window reaching the archive.
 * The figures are what the track gave when it read those points to count them.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ENGINES, get } from "../helpers/service.ts";
import { DAY, HOUR, identity, MIN, startVesselService, station, type VesselTestService, writeTrack } from "../helpers/vessels.ts";

const OLD = 244_200_001;
const NEW = 244_200_002;
const IMO = 9_074_729;
const iso = (t: number) => new Date(t).toISOString();

for (const engine of ENGINES) {
  describe(`track points withheld per station (${engine})`, () => {
    let t: VesselTestService;
    let now: number;
    let key: string;
    const track = async (query: string, id: string | number = IMO) => {
      const r = await get(t, `/api/v1/vessels/${id}/track?${query}`, key);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return { count: r.body.count as number, withheld: r.body.withheld as { section: string; sources: string[]; rows?: number; reason: string }[] };
    };
    const positions = (rows: [number, number][]) => rows.map(([s, n]) => ({ section: "positions", sources: [`station:${s}`], rows: n, reason: "source_not_licensed_for_api" }));

    before(async () => {
      // Stations 2 and 3 are shared, but the sources file clears neither for the API.
      t = await startVesselService(engine, { deniedSources: ["station:2", "station:3"] });
      now = t.clock.now();
      const ids = [(await station(t, "pro", true)).id, (await station(t, "pro", true)).id, (await station(t, "pro", true)).id];
      assert.deepEqual(ids, [1, 2, 3], "the sources file names stations 2 and 3");
      key = (await t.key("scale")).key;
      // The ship used OLD until three days ago and NEW since; station 1 (cleared) heard both.
      await identity(t, { stationId: 1, mmsi: OLD, imo: IMO, name: "WITHHELD TESTER", updatedAt: now - 3 * DAY });
      await identity(t, { stationId: 1, mmsi: NEW, imo: IMO, name: "WITHHELD TESTER", updatedAt: now - HOUR });
      await writeTrack(t, 1, OLD, now - 7 * DAY, now - 3 * DAY, 10 * MIN);
      await writeTrack(t, 1, NEW, now - 3 * DAY, now, 10 * MIN);
      // Station 3 heard both MMSIs, overlapping around the change; station 2 only the new one, densely.
      await writeTrack(t, 3, OLD, now - 4 * DAY + 7_000, now - 3 * DAY + 2 * HOUR, 4 * MIN);
      await writeTrack(t, 3, NEW, now - 3 * DAY - 2 * HOUR + 11_000, now - 2 * DAY, 3 * MIN);
      await writeTrack(t, 2, NEW, now - 30 * HOUR + 13_000, now, 7 * MIN);
      // 100 days ago (older than the archive boundary, not compacted): all three stations.
      await writeTrack(t, 1, OLD, now - 100 * DAY, now - 100 * DAY + 6 * HOUR, 5 * MIN);
      await writeTrack(t, 2, OLD, now - 100 * DAY + 3_000, now - 100 * DAY + 6 * HOUR, 2 * MIN);
      await writeTrack(t, 3, OLD, now - 100 * DAY + 1 * HOUR + 5_000, now - 100 * DAY + 2 * HOUR, 45_000);
    });
    after(() => t.close());

    it("seven days by IMO: both MMSIs, ten-minute buckets", async () => {
      const r = await track("hours=168");
      assert.equal(r.count, 1008);
      assert.deepEqual(r.withheld, positions([[2, 180], [3, 288]]));
    });

    it("one day by IMO: minute buckets, one station withheld", async () => {
      const r = await track("hours=24");
      assert.deepEqual(r.withheld, positions([[2, 206]]));
    });

    it("by the former MMSI: that MMSI's whole track, whoever used it", async () => {
      const r = await track("hours=120", `mmsi-${OLD}`);
      assert.deepEqual(r.withheld, positions([[3, 312]]));
    });

    it("a window reaching the archive: the same count as the points it would give", async () => {
      const r = await track(`from=${iso(now - 100 * DAY - HOUR)}&to=${iso(now - 100 * DAY + 12 * HOUR)}`, `mmsi-${OLD}`);
      assert.deepEqual(r.withheld, positions([[2, 36], [3, 6]]));
    });
  });
}
