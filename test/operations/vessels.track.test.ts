import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { compact } from "../../src/adapters/archive/compact.ts";
import { ENGINES, get } from "../helpers/service.ts";
import { DAY, HOUR, identity, MIN, startVesselService, station, type VesselTestService, used, writeFixes, writeTrack } from "../helpers/vessels.ts";

const A = 244_000_001; // heard by the shared, the private and the restricted station
const B = 244_000_002; // heard by the private station only
const IMO_A = 9_074_729;
const iso = (t: number) => new Date(t).toISOString();

for (const engine of ENGINES) {
  describe(`vessel track (${engine})`, () => {
    let t: VesselTestService;
    let now: number;
    let shared: Awaited<ReturnType<typeof station>>;
    let priv: Awaited<ReturnType<typeof station>>;
    let restricted: Awaited<ReturnType<typeof station>>;
    let other: { key: string; accountId: string; keyId: string };
    const track = (query: string, key = other.key, id: string | number = IMO_A) => get(t, `/api/v1/vessels/${id}/track${query ? `?${query}` : ""}`, key);

    before(async () => {
      // Station 3's feed is not cleared for the API: its points are withheld and counted.
      t = await startVesselService(engine, { deniedSources: ["station:3"] });
      now = t.clock.now();
      shared = await station(t, "pro", true);
      priv = await station(t, "pro");
      restricted = await station(t, "pro", true);
      assert.deepEqual([shared.id, priv.id, restricted.id], [1, 2, 3], "the sources file names station 3");
      other = await t.key("scale");

      await identity(t, { stationId: shared.id, mmsi: A, imo: IMO_A, name: "TRACK TESTER" });
      await identity(t, { stationId: priv.id, mmsi: B, name: "HIDDEN BOAT" });
      // A: every minute for 7 days, every 10 s for the last day, hourly back to the history start,
      // and one day at one fix a minute 100 days ago (to be archived).
      await writeTrack(t, shared.id, A, now - 7 * DAY, now, MIN);
      await writeTrack(t, shared.id, A, now - DAY + 5_000, now, 10_000);
      await writeTrack(t, shared.id, A, Date.UTC(2026, 5, 1), now - 7 * DAY, HOUR);
      await writeTrack(t, shared.id, A, now - 100 * DAY, now - 99 * DAY, MIN);
      // 59 s into its minute: later than the shared station's last fix of that minute, so it represents the bucket.
      await writeTrack(t, priv.id, A, now - DAY + 59_000, now, 10 * MIN);
      await writeTrack(t, restricted.id, A, now - DAY, now, 5 * MIN);
      await writeTrack(t, priv.id, B, now - 2 * HOUR, now, MIN);
    });
    after(() => t.close());

    it("the last 24 hours by default: one point per minute bucket, the last fix of each, from the stations the caller may see", async () => {
      const r = await track("");
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.type, "vessel_track");
      assert.equal(r.body.apiVersion, "1");
      assert.equal(r.body.imo, IMO_A);
      assert.equal(r.body.mmsi, A);
      assert.deepEqual(r.body.window, { from: iso(now - DAY), to: iso(now), bucketSeconds: 60 });
      assert.equal(r.body.count, r.body.data.length);
      assert.equal(r.body.count, 1440);
      for (const p of r.body.data) {
        assert.equal(p.source, `station:${shared.id}`);
        assert.equal(p.navStatus, "under_way_using_engine");
        assert.equal(typeof p.lat, "number");
      }
      // The last fix of each minute: 55 s past it (the 10-s fixes start 5 s into the day).
      assert.equal(r.body.data[0].time, iso(now - DAY + 55_000));
      const times = r.body.data.map((p: { time: string }) => Date.parse(p.time));
      assert.deepEqual(times, [...times].sort((a, b) => a - b));
      assert.equal(r.headers["x-credits-cost"], "1");
    });

    it("points of a feed not cleared for the API are left out and counted per source", async () => {
      const r = await track("hours=24");
      assert.deepEqual(r.body.withheld, [{ section: "positions", sources: [`station:${restricted.id}`], rows: 288, reason: "source_not_licensed_for_api" }]);
      // A shared station is a source of its own, named in `sources`.
      assert.deepEqual(r.body.sources, [`station:${shared.id}`]);
    });

    it("a private station's points reach its owner only; to anyone else they do not exist", async () => {
      const mine = await track("hours=24", priv.key);
      assert.ok(mine.body.data.some((p: { source: string }) => p.source === `station:${priv.id}`));
      // Every row's source is listed in the envelope's `sources` as the row names it, the private station's included.
      const rowSources = [...new Set(mine.body.data.map((p: { source: string }) => p.source))].sort();
      assert.deepEqual([...mine.body.sources].sort(), rowSources);
      assert.equal(mine.body.count, 1440);
      const theirs = await track("hours=24");
      const text = JSON.stringify(theirs.body);
      assert.ok(!text.includes(`station:${priv.id}`), "no trace: not shown, not counted, not named");
      assert.equal(theirs.body.withheld.length, 1);

      const ownB = await track("hours=3", priv.key, `mmsi-${B}`);
      assert.equal(ownB.status, 200);
      assert.equal(ownB.body.count, 120);
      assert.equal(ownB.body.imo, null);
      const otherB = await track("hours=3", other.key, `mmsi-${B}`);
      assert.equal(otherB.status, 404);
      assert.equal(otherB.body.error.code, "not_found");
      assert.equal(otherB.headers["x-credits-cost"], "0");
    });

    it("never more than 1,500 points, and count is the number of points, for every window length", async () => {
      for (const hours of [1, 2, 23, 25, 71, 72, 100, 167, 168]) {
        const r = await track(`hours=${hours}`);
        assert.equal(r.status, 200);
        assert.ok(r.body.count <= 1500, `${hours} h: ${r.body.count} points`);
        assert.equal(r.body.count, r.body.data.length);
        assert.ok(r.body.count >= Math.min(1000, hours * 60) * 0.9, `${hours} h: ${r.body.count} points for a fix a minute`);
        const bucket = r.body.window.bucketSeconds * 1000;
        assert.ok(Math.ceil((hours * HOUR) / bucket) <= 1500);
      }
      const week = await track("hours=168");
      assert.equal(week.body.window.bucketSeconds, 600);
      assert.equal(week.body.count, 1008);
    });

    it("from/to: any window up to 7 days; to defaults to now; a window reaching past now ends now", async () => {
      const r = await track(`from=${iso(now - 36 * HOUR)}&to=${iso(now - 12 * HOUR)}`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.window, { from: iso(now - 36 * HOUR), to: iso(now - 12 * HOUR), bucketSeconds: 60 });
      assert.ok(r.body.data.every((p: { time: string }) => Date.parse(p.time) >= now - 36 * HOUR && Date.parse(p.time) < now - 12 * HOUR));
      const open = await track(`from=${iso(now - 2 * HOUR)}`);
      assert.equal(open.body.window.to, iso(now));
      const future = await track(`from=${iso(now - 2 * HOUR)}&to=${iso(now + 5 * DAY)}`);
      assert.equal(future.body.window.to, iso(now));
      assert.equal(future.headers["x-credits-cost"], "1");
      const offset = await track(`from=2026-11-20T10:00:00%2B02:00&to=2026-11-20T11:00:00Z`);
      assert.deepEqual(offset.body.window.from, "2026-11-20T08:00:00.000Z");
      const dates = await track("from=2026-11-19&to=2026-11-20");
      assert.deepEqual(dates.body.window, { from: "2026-11-19T00:00:00.000Z", to: "2026-11-20T00:00:00.000Z", bucketSeconds: 60 });
      const onlyTo = await track(`to=${iso(now - 3 * HOUR)}`);
      assert.equal(onlyTo.body.window.from, iso(now - 27 * HOUR));
    });

    it("costs one credit per day of track, days rounded up, computed from the input", async () => {
      const k = await t.key("scale");
      const cases: [string, number][] = [
        ["hours=1", 1],
        ["hours=24", 1],
        ["hours=25", 2],
        ["hours=48", 2],
        ["hours=49", 3],
        ["hours=168", 7],
        [`from=${iso(now - 36 * HOUR)}&to=${iso(now - 12 * HOUR)}`, 1],
        [`from=${iso(now - 36 * HOUR)}&to=${iso(now - 11 * HOUR)}`, 2],
        [`from=${iso(now - 3 * DAY)}`, 3],
        [`from=${iso(now - 7 * DAY)}&to=${iso(now)}`, 7],
      ];
      for (const [query, credits] of cases) {
        const before = await used(t, k);
        const r = await track(query, k.key);
        assert.equal(r.status, 200, query);
        assert.equal(r.headers["x-credits-cost"], String(credits), query);
        assert.equal((await used(t, k)) - before, credits, query);
      }
    });

    const rules: [string, string, number, string, string][] = [
      ["hours 0", "hours=0", 400, "invalid_parameter", "hours"],
      ["hours 169", "hours=169", 400, "invalid_parameter", "hours"],
      ["hours not a number", "hours=day", 400, "invalid_parameter", "hours"],
      ["hours fractional", "hours=1.5", 400, "invalid_parameter", "hours"],
      ["hours with from", `hours=2&from=${encodeURIComponent("2026-11-20T00:00:00Z")}`, 400, "invalid_parameter", "hours"],
      ["hours with to", `hours=2&to=${encodeURIComponent("2026-11-20T00:00:00Z")}`, 400, "invalid_parameter", "hours"],
      ["from not a time", "from=yesterday", 400, "invalid_parameter", "from"],
      ["from without a zone", "from=2026-11-20T01:00:00", 400, "invalid_parameter", "from"],
      ["to on a day that does not exist", "from=2026-11-19T00:00:00Z&to=2026-02-30", 400, "invalid_parameter", "to"],
      ["from after to", "from=2026-11-20T06:00:00Z&to=2026-11-20T05:00:00Z", 400, "invalid_parameter", "from"],
      ["from equal to to", "from=2026-11-20T06:00:00Z&to=2026-11-20T06:00:00Z", 400, "invalid_parameter", "from"],
      ["from in the future", "from=2026-11-21T06:00:00Z", 400, "invalid_parameter", "from"],
      ["a window over 7 days", "from=2026-11-13T11:59:59Z&to=2026-11-20T12:00:00Z", 400, "invalid_parameter", "from"],
      ["from before the history start", "from=2026-05-31T23:59:59Z&to=2026-06-01T06:00:00Z", 400, "invalid_parameter", "from"],
      ["to at the history start", "to=2026-06-01T00:00:00Z", 400, "invalid_parameter", "to"],
      ["an unknown parameter", "days=2", 400, "invalid_parameter", "days"],
      ["a repeated parameter", "hours=2&hours=3", 400, "invalid_parameter", "hours"],
    ];
    for (const [name, query, status, code, param] of rules) {
      it(`${name}: ${status} ${code} naming \`${param}\`, not charged`, async () => {
        const k = await t.key("scale");
        const r = await track(query, k.key);
        assert.equal(r.status, status, JSON.stringify(r.body));
        assert.equal(r.body.error.code, code);
        assert.equal(r.body.error.param, param);
        assert.ok(r.body.error.rule.length > 5);
        assert.equal(r.headers["x-credits-cost"], "0");
        assert.equal(await used(t, k), 0);
      });
    }

    it("ids: garbage is 400 naming `id`, an unknown ship 404, and a key is required", async () => {
      for (const id of ["123", "9074728", "mmsi-12345", "IMO9074729x", "%20"]) {
        const r = await track("", other.key, id);
        assert.equal(r.status, 400, id);
        assert.equal(r.body.error.param, "id");
      }
      assert.equal((await track("", other.key, "mmsi-999999999")).status, 404);
      const anonymous = await get(t, `/api/v1/vessels/${IMO_A}/track`);
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.error.code, "missing_api_key");
    });

    it("history by plan: the last 24 hours for every plan, older windows within the plan's history", async () => {
      const window = (startDaysAgo: number, hours = 12) => `from=${iso(now - startDaysAgo * DAY)}&to=${iso(now - startDaysAgo * DAY + hours * HOUR)}`;
      const cases: [string, string, number][] = [
        ["sandbox", "hours=24", 200],
        ["sandbox", `from=${iso(now - 20 * HOUR)}&to=${iso(now - 10 * HOUR)}`, 200],
        ["sandbox", `from=${iso(now - 25 * HOUR)}&to=${iso(now - 20 * HOUR)}`, 403],
        ["sandbox", "hours=25", 403],
        ["developer", window(29), 200],
        ["developer", window(31), 403],
        ["plus", window(300), 400], // before the history start: the rule of the data, not the plan
        ["plus", window(150), 200],
        ["growth", "from=2026-06-01T00:00:00Z&to=2026-06-02T00:00:00Z", 200],
        ["pro", "from=2026-06-01T00:00:00Z&to=2026-06-08T00:00:00Z", 200],
        ["scale", window(170), 200],
        ["team", window(120), 200],
      ];
      for (const [plan, query, status] of cases) {
        const k = await t.key(plan as "sandbox");
        const r = await track(query, k.key);
        assert.equal(r.status, status, `${plan} ${query}: ${JSON.stringify(r.body).slice(0, 300)}`);
        if (status === 403) {
          assert.equal(r.body.error.code, "plan_lacks_feature");
          assert.equal(r.body.error.param, "from");
          assert.equal(await used(t, k), 0, "refused calls are not charged");
        }
        if (status === 200) assert.ok(r.body.count > 0, `${plan} ${query}: points`);
      }
    });

    const OLD_DAY = () => `from=${iso(now - 100 * DAY)}&to=${iso(now - 99 * DAY)}`;
    let beforeCompaction: unknown[];

    it("older than 90 days: 10-minute resolution and no navStatus, before compaction too", async () => {
      const r = await track(OLD_DAY());
      assert.equal(r.status, 200);
      assert.equal(r.body.count, 144, "one point per 10-minute slot of a fix a minute");
      const times = r.body.data.map((p: { time: string }) => Date.parse(p.time));
      for (let i = 1; i < times.length; i++) assert.ok(times[i] - times[i - 1] >= 10 * MIN);
      for (const p of r.body.data) assert.ok(!("navStatus" in p), "no navStatus in the archive");
      beforeCompaction = r.body.data;
    });

    it("compaction moves what passes 90 days into the archive, downsampled; the track reads the same from there", async () => {
      const report = await compact(t.service.tracks, t.service.archive, now);
      assert.ok(report.fixes > 1440, `moved ${report.fixes}`);
      assert.ok(report.points < report.fixes);
      const left = await t.service.store.db.selectFrom("positions").select((eb) => eb.fn.countAll<number>().as("n")).where("time", "<", report.cutoff).executeTakeFirstOrThrow();
      assert.equal(Number(left.n), 0, "nothing older than the cutoff stays in the main store");
      assert.ok((await t.service.archive.count()) >= 144);
      const again = await compact(t.service.tracks, t.service.archive, now);
      assert.equal(again.fixes, 0, "a second run finds nothing to move");

      const r = await track(OLD_DAY());
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.data, beforeCompaction);
      // Across the boundary: archived points have no navStatus, recent ones do.
      const across = await track(`from=${iso(now - 90 * DAY - 12 * HOUR)}&to=${iso(now - 90 * DAY + 12 * HOUR)}`);
      assert.equal(across.status, 200);
      const boundary = now - 90 * DAY;
      assert.ok(across.body.data.some((p: { time: string }) => Date.parse(p.time) < boundary));
      for (const p of across.body.data) assert.equal("navStatus" in p, Date.parse(p.time) >= boundary, p.time);
    });

    it("the store gives each bucket's fix back exactly: nulls stay null, coordinates keep every digit, other stations are skipped", async () => {
      const C = 244_000_003;
      const at = now - 3 * HOUR;
      await writeFixes(t, [
        { mmsi: C, time: at + 1_000, stationId: shared.id, lat: -33.856784, lon: 151.215297, sog: null, cog: null, heading: null, navStatus: null },
        { mmsi: C, time: at + 61_000, stationId: shared.id, lat: 89.999999, lon: -179.999999, sog: 102.2, cog: 359.9, heading: 1, navStatus: 15 },
        { mmsi: C, time: at + 62_000, stationId: priv.id, lat: 1, lon: 1, sog: 1, cog: 1, heading: 1, navStatus: 1 },
      ]);
      const points = await t.service.services.tracks.lastPerBucket({ mmsi: C, from: at, to: at + 2 * MIN, bucketMs: MIN, stationIds: [shared.id] });
      assert.equal(points.length, 2);
      assert.deepEqual(points[0], { time: at + 1_000, stationId: shared.id, lat: -33.856784, lon: 151.215297, sog: null, cog: null, navStatus: null });
      assert.equal(points[1]!.time, at + 61_000);
      assert.equal(points[1]!.navStatus, 15);
      // Coordinates are stored as float8 (PostgreSQL) or real (SQLite): within 1e-5 degrees (about a metre).
      assert.ok(Math.abs(points[1]!.lat - 89.999999) < 1e-5 && Math.abs(points[1]!.lon + 179.999999) < 1e-5, JSON.stringify(points[1]));
      assert.ok(Math.abs(points[1]!.sog! - 102.2) < 1e-4 && Math.abs(points[1]!.cog! - 359.9) < 1e-4);
      assert.deepEqual(await t.service.services.tracks.lastPerBucket({ mmsi: C, from: at, to: at + 2 * MIN, bucketMs: MIN, stationIds: [] }), []);
    });

    it("with the archive stopped, a window older than 90 days is 503 archive_unavailable and not charged; recent ones still work", async () => {
      await t.service.archive.close();
      const k = await t.key("scale");
      const r = await track(OLD_DAY(), k.key);
      assert.equal(r.status, 503);
      assert.equal(r.body.error.code, "archive_unavailable");
      assert.equal(r.body.error.retryable, true);
      assert.equal(r.headers["x-credits-cost"], "0");
      assert.equal(await used(t, k), 0, "the credits are unchanged");
      const recent = await track("hours=24", k.key);
      assert.equal(recent.status, 200);
      assert.equal(await used(t, k), 1);

      // Compaction with the archive down deletes nothing.
      await writeFixes(t, [{ mmsi: A, time: now - 95 * DAY, stationId: shared.id, lat: 1, lon: 1, sog: null, cog: null, heading: null, navStatus: null }]);
      await assert.rejects(compact(t.service.tracks, t.service.archive, now), /archive/);
      const kept = await t.service.store.db.selectFrom("positions").select("mmsi").where("time", "=", now - 95 * DAY).execute();
      assert.equal(kept.length, 1);
    });
  });
}
