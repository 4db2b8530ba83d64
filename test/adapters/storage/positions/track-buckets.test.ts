/**
 * The store's last fix per bucket against a plain computation over the same fixes: random
 * fixes of one vessel from three stations, random windows (their ends not aligned to anything) and
 * bucket lengths from a second to an hour, before and after compaction deletes a prefix.
 * The fixes are written in many small batches, as ingest writes them.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { PositionFix } from "../../../../src/interfaces/positions.ts";
import { ENGINES, startTestService, type TestService } from "../../../helpers/service.ts";
import { writeFixes } from "../../../helpers/vessels.ts";

const MMSI = 244_123_456;
const T0 = Date.parse("2026-11-10T00:00:00Z");
const HOUR = 3_600_000;

/** A seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s + 0x6d2b79f5) | 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) % n;
  };
}

function expected(fixes: readonly PositionFix[], from: number, to: number, bucketMs: number, stations: readonly number[]) {
  const best = new Map<number, PositionFix>();
  for (const f of fixes) {
    if (f.time < from || f.time >= to || !stations.includes(f.stationId)) continue;
    // Buckets are aligned to multiples of their length (window.ts).
    const b = Math.floor(f.time / bucketMs);
    const had = best.get(b);
    if (!had || f.time > had.time) best.set(b, f);
  }
  return [...best.values()].sort((a, b) => a.time - b.time).map((f) => `${f.time}@${f.stationId}`);
}

for (const engine of ENGINES) {
  describe(`last fix per bucket, against a plain computation (${engine})`, () => {
    let t: TestService;
    const fixes: PositionFix[] = [];
    const rand = random(7);

    before(async () => {
      t = await startTestService({ engine });
      // Six hours: mostly every 2 to 12 s, with gaps of 1 to 8 minutes and bursts every 1 to 4 s, from
      // stations 1 to 3; written in many small batches, as ingest does, so minutes span batches.
      const times = new Set<number>();
      let time = T0 + rand(60_000);
      while (time < T0 + 6 * HOUR) {
        const kind = rand(100);
        const step = kind < 85 ? 2_000 + rand(10_000) : kind < 90 ? 60_000 + rand(400_000) : 1_000 + rand(3_000);
        time += step;
        if (times.has(time)) continue;
        times.add(time);
        fixes.push({ mmsi: MMSI, time, stationId: 1 + rand(3), lat: 50 + rand(1000) / 1000, lon: 5, sog: 10, cog: 90, heading: 90, navStatus: 0 });
      }
      for (let at = 0; at < fixes.length; at += 37) await writeFixes(t, fixes.slice(at, at + 37));
    });
    after(() => t.close());

    const check = async (live: readonly PositionFix[], rounds: number) => {
      for (let i = 0; i < rounds; i++) {
        const bucketMs = [1_000, 5_000, 30_000, 60_000, 90_000, 600_000, 3_600_000][rand(7)]!;
        const from = T0 + rand(5 * HOUR);
        const to = from + 1 + rand(Math.min(6 * HOUR, bucketMs * 1_500));
        const stations = [[1], [2, 3], [1, 2, 3], [3]][rand(4)]!;
        const got = await t.service.services.tracks.lastPerBucket({ mmsi: MMSI, from, to, bucketMs, stationIds: stations });
        assert.deepEqual(
          got.map((p) => `${p.time}@${p.stationId}`),
          expected(live, from, to, bucketMs, stations),
          `window ${from}..${to}, bucket ${bucketMs} ms, stations ${stations.join(",")}`,
        );
      }
    };

    it("every bucket's last fix, over 200 random windows", async () => {
      assert.ok(fixes.length > 800, `${fixes.length} fixes`);
      await check(fixes, 200);
    });

    it("the same after compaction deleted the oldest two hours", async () => {
      const cut = fixes.filter((f) => f.time < T0 + 2 * HOUR).at(-1)!;
      await t.service.tracks.deleteThrough(MMSI, cut.time, cut.stationId);
      await check(fixes.filter((f) => f.time > cut.time), 100);
    });
  });
}
