import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Fleet, loadSeeds, SAMPLE_FILE } from "../../../../src/adapters/ingest/simulator/fleet.ts";
import { parseTarget, senderFor, startSimulator } from "../../../../src/adapters/ingest/simulator/index.ts";
import { LANES, nearestLane } from "../../../../src/adapters/ingest/simulator/lanes.ts";
import { createAisDecoder } from "../../../../src/domain/ais/index.ts";
import { DATASETS_DIR } from "../../../../src/main.ts";
import { get } from "../../../helpers/service.ts";
import { startIngestService, stationFor } from "../../../helpers/ingest.ts";

const T0 = Date.parse("2026-11-20T12:00:00Z");
const seeds = loadSeeds(join(DATASETS_DIR, SAMPLE_FILE));

describe("station simulator", () => {
  it("the bundled sample holds real vessels: nine-digit MMSIs, positions in the northern Baltic, names", () => {
    assert.equal(seeds.length, 515);
    assert.ok(seeds.every((s) => s.mmsi >= 200_000_000 && s.mmsi < 800_000_000 && s.name.length > 0));
    assert.ok(seeds.every((s) => s.lat >= 58.5 && s.lat <= 66 && s.lon >= 17 && s.lon <= 30.5));
  });

  it("over half an hour every vessel reports, everything decodes, ships move along the lanes and stay in the sea area", () => {
    const fleet = new Fleet(seeds, T0, { vessels: 150 });
    const dec = createAisDecoder();
    const tracks = new Map<number, { lat: number; lon: number }[]>();
    const named = new Set<number>();
    for (let t = T0; t <= T0 + 30 * 60_000; t += 1_000) {
      for (const line of fleet.step(t)) {
        const m = dec.feed(line, { source: "sim", receivedAt: t });
        if (!m) continue;
        assert.ok(m.time !== null && Math.abs(m.time - t) < 1_000, "tag-block time is the send time");
        if ((m.type === 1 || m.type === 18) && m.lat !== null && m.lon !== null) {
          const list = tracks.get(m.mmsi) ?? [];
          list.push({ lat: m.lat, lon: m.lon });
          tracks.set(m.mmsi, list);
        }
        if (m.type === 5 || (m.type === 24 && m.partno === 0)) named.add(m.mmsi);
      }
    }
    const stats = dec.stats();
    assert.equal(stats.rejected, 0, JSON.stringify(stats.reasons));
    assert.ok(stats.byType["5"]! > 0 && stats.byType["1"]! > 0);
    assert.equal(tracks.size, 150, "every vessel reported a position");
    assert.equal(named.size, 150, "every vessel sent its identity");
    let moved = 0;
    for (const pts of tracks.values()) {
      for (const p of pts) assert.ok(p.lat > 57 && p.lat < 66.5 && p.lon > 16.5 && p.lon < 31, `${p.lat},${p.lon}`);
      const a = pts[0]!;
      const b = pts.at(-1)!;
      if (Math.hypot(a.lat - b.lat, a.lon - b.lon) > 0.01) moved++;
    }
    assert.ok(moved > 80, `${moved} vessels moved`);
  });

  it("lanes are joined in the vessel's direction of travel", () => {
    const lane = LANES.find((l) => l.name === "Helsinki - Tallinn")!;
    const south = nearestLane([59.95, 24.93], 190, 12);
    const north = nearestLane([59.95, 24.93], 10, 12);
    assert.equal(south?.lane, lane);
    assert.equal(south?.direction, 1);
    assert.equal(north?.direction, -1);
    assert.equal(nearestLane([55, 5], 0, 12), null);
  });

  it("targets are parsed from URLs", () => {
    assert.deepEqual(parseTarget("tcp://127.0.0.1:5631"), { kind: "tcp", host: "127.0.0.1", port: 5631 });
    assert.deepEqual(parseTarget("udp://[::1]:5632"), { kind: "udp", host: "::1", port: 5632 });
    assert.deepEqual(parseTarget("http://localhost:8080"), { kind: "http", url: "http://localhost:8080/ingest/nmea" });
    assert.throws(() => parseTarget("ftp://x"), /unknown scheme/);
    assert.throws(() => parseTarget("tcp://host"), /port/);
  });

  for (const kind of ["tcp", "udp"] as const) {
    it(`a simulated station over ${kind.toUpperCase()} fills its owner's feed with moving vessels`, async () => {
      const t = await startIngestService();
      let stop = async () => {};
      try {
        const st = await stationFor(t);
        const sender = senderFor({ kind, host: "127.0.0.1", port: kind === "tcp" ? t.tcpPort : t.udpPort }, st.id, st.secret, undefined, () => t.clock.t);
        // Simulated time runs 10 s per 20 ms tick, on the service's clock (UDP signatures are checked against it).
        const sim = startSimulator(sender, { datasetsDir: DATASETS_DIR, vessels: 40, tickMs: 20, now: () => (t.clock.t += 10_000) });
        stop = () => sim.stop();
        const feed = async () => {
          const key = (await t.service.services.accounts.createKey(st.accountId)).key;
          return (await get(t, "/api/v1/me/feed?maxAge=5", key)).body.data as { mmsi: number; lat: number; lon: number; name: string | null }[];
        };
        const waitFor = async (pred: (rows: Awaited<ReturnType<typeof feed>>) => boolean) => {
          for (let i = 0; i < 100; i++) {
            const rows = await feed();
            if (pred(rows)) return rows;
            await new Promise((r) => setTimeout(r, 50));
          }
          assert.fail("the feed did not fill");
        };
        const first = await waitFor((rows) => rows.length >= 35 && rows.filter((r) => r.name).length >= 35);
        const later = await waitFor((rows) => rows.filter((r) => first.some((f) => f.mmsi === r.mmsi && (f.lat !== r.lat || f.lon !== r.lon))).length >= 10);
        assert.ok(later.length >= 35);
        await sim.stop();
        if (kind === "tcp") assert.equal(sender.acknowledged(), sender.sent(), "every line sent over TCP was acknowledged");
      } finally {
        await stop();
        await t.close();
      }
    });
  }
});
