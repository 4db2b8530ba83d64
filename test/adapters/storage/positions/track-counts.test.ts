/**
 * The track store's bucket counts, on every engine: per station, as many buckets as
 * lastPerBucket gives that station alone, a bucket two MMSIs share counted once.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ENGINES, startTestService, type TestService } from "../../../helpers/service.ts";
import { fix, MIN, station, writeFixes } from "../../../helpers/vessels.ts";

const M1 = 244_100_001;
const M2 = 244_100_002;

for (const engine of ENGINES) {
  describe(`track store: buckets per station counted (${engine})`, () => {
    let t: TestService;
    let a: number;
    let b: number;
    let c: number;
    let now: number;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      now = t.clock.now();
      [a, b, c] = [(await station(t)).id, (await station(t)).id, (await station(t)).id];
      const fixes = [];
      // a: M1 every 20 s for two hours; b: M1 every 7 minutes and M2 every 3 minutes, partly in the same minutes; c: only another ship.
      for (let x = now - 120 * MIN; x < now; x += 20_000) fixes.push(fix(a, M1, x));
      for (let x = now - 120 * MIN + 1_000; x < now; x += 7 * MIN) fixes.push(fix(b, M1, x));
      for (let x = now - 90 * MIN + 2_000; x < now; x += 3 * MIN) fixes.push(fix(b, M2, x));
      fixes.push(fix(c, 244_100_003, now - 10 * MIN));
      await writeFixes(t, fixes);
    });
    after(() => t.close());

    /** What lastPerBucket gives each station alone, merged over the ranges by bucket. */
    async function expected(ranges: { mmsi: number; to: number }[], from: number, bucketMs: number, stations: number[]) {
      const out = new Map<number, number>();
      for (const s of stations) {
        const buckets = new Set<number>();
        for (const r of ranges) {
          if (r.to <= from) continue;
          for (const p of await t.service.tracks.lastPerBucket({ mmsi: r.mmsi, from, to: r.to, bucketMs, stationIds: [s] })) buckets.add(Math.floor(p.time / bucketMs));
        }
        if (buckets.size > 0) out.set(s, buckets.size);
      }
      return out;
    }

    const cases: { name: string; ranges: (now: number) => { mmsi: number; to: number }[]; from: (now: number) => number; bucketMs: number }[] = [
      { name: "one MMSI, a minute per bucket", ranges: (n) => [{ mmsi: M1, to: n }], from: (n) => n - 24 * 60 * MIN, bucketMs: 60_000 },
      { name: "one MMSI, window cut mid-bucket at both ends", ranges: (n) => [{ mmsi: M1, to: n - 17 * MIN - 5_000 }], from: (n) => n - 100 * MIN + 30_000, bucketMs: 5 * 60_000 },
      { name: "two MMSIs, shared buckets counted once", ranges: (n) => [{ mmsi: M1, to: n }, { mmsi: M2, to: n }], from: (n) => n - 3 * 60 * MIN, bucketMs: 10 * 60_000 },
      { name: "two MMSIs, one ending early (another ship took it over)", ranges: (n) => [{ mmsi: M1, to: n }, { mmsi: M2, to: n - 45 * MIN + 1 }], from: (n) => n - 2 * 60 * MIN, bucketMs: 60_000 },
      { name: "a range ending before the window starts gives nothing", ranges: (n) => [{ mmsi: M2, to: n - 3 * 60 * MIN }], from: (n) => n - 2 * 60 * MIN, bucketMs: 60_000 },
    ];
    for (const k of cases) {
      it(k.name, async () => {
        const q = { ranges: k.ranges(now), from: k.from(now), bucketMs: k.bucketMs, stationIds: [a, b, c] };
        const counts = await t.service.tracks.bucketCounts(q);
        assert.deepEqual([...counts.entries()].sort((x, y) => x[0] - y[0]), [...(await expected(q.ranges, q.from, q.bucketMs, [a, b, c])).entries()]);
      });
    }

    it("the figures themselves: 120 minutes of one station in minute buckets, and only the stations asked for", async () => {
      const counts = await t.service.tracks.bucketCounts({ ranges: [{ mmsi: M1, to: now }], from: now - 24 * 60 * MIN, bucketMs: 60_000, stationIds: [a, c] });
      assert.deepEqual([...counts.entries()], [[a, (await t.service.tracks.lastPerBucket({ mmsi: M1, from: now - 24 * 60 * MIN, to: now, bucketMs: 60_000, stationIds: [a] })).length]]);
      assert.ok(counts.get(a)! >= 120);
      assert.deepEqual(await t.service.tracks.bucketCounts({ ranges: [{ mmsi: M1, to: now }], from: now - MIN, bucketMs: 60_000, stationIds: [] }), new Map());
    });
  });
}
