import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SHARED_STATIONS_TTL_MS } from "../../../src/adapters/storage/stations/shared-stations.ts";
import { OWN_STATIONS_TTL_MS } from "../../../src/adapters/storage/stations/own-stations.ts";
import { FEED_STATIONS_TTL_MS } from "../../../src/adapters/storage/stations/feed-stations.ts";
import { ENGINES, get } from "../../helpers/service.ts";
import { type IngestTestService, positionLine, startIngestService, stationFor, type TestStation } from "../../helpers/ingest.ts";

const NOW = Date.parse("2026-11-20T12:00:00Z");

async function feed(t: IngestTestService, st: TestStation, lines: string[]): Promise<void> {
  const station = (await t.service.services.positions.stationById(st.id))!;
  const r = t.service.ingest.pipeline.submit(station, lines, { source: "test", transport: "file" });
  await t.service.ingest.pipeline.flush();
  await r.stored;
}

for (const engine of ENGINES) {
  describe(`shared stations (${engine})`, () => {
    let t: IngestTestService;
    let priv: TestStation;
    let pub: TestStation;
    before(async () => {
      t = await startIngestService(engine);
      priv = await stationFor(t, "pro", "private roof");
      pub = await stationFor(t, "pro", "harbour mast");
      await t.service.services.stations.updateStation(pub.id, { shared: true, sourceName: "Harbour Mast AIS" });
      await feed(t, priv, [positionLine({ mmsi: 244_000_001, lat: 52.1, lon: 4.1 }, NOW - 60_000)]);
      await feed(t, pub, [positionLine({ mmsi: 244_000_002, lat: 52.2, lon: 4.2 }, NOW - 60_000)]);
      t.clock.t += SHARED_STATIONS_TTL_MS + 1;
    });
    after(() => t.close());
    it("another process's station change is seen within a second: the caches of visible stations live at most that long", () => {
      assert.ok(SHARED_STATIONS_TTL_MS <= 1_000 && OWN_STATIONS_TTL_MS <= 1_000 && FEED_STATIONS_TTL_MS <= 1_000);
    });
    const keyOf = async (accountId: string) => (await t.service.services.accounts.createKey(accountId)).key;

    it("another account sees the public station's vessels under the station's own source, never the private one's", async () => {
      const other = await t.key("sandbox", "stranger");
      const hidden = await get(t, "/api/v1/vessels/mmsi-244000001", other.key);
      assert.equal(hidden.status, 404, "a vessel only a private station heard does not exist for others");
      const shown = await get(t, "/api/v1/vessels/mmsi-244000002", other.key);
      assert.equal(shown.status, 200, JSON.stringify(shown.body));
      assert.equal(shown.body.data.lastPosition.lat, 52.2);
      assert.equal(shown.body.data.lastPosition.source, `station:${pub.id}`);
      assert.ok(shown.body.sources.includes(`station:${pub.id}`));
      assert.ok(shown.body.attribution.some((a: string) => a.includes("Harbour Mast AIS")), JSON.stringify(shown.body.attribution));
      assert.ok(shown.body.license.some((l: string) => /no redistribution or commercial use granted/.test(l)), JSON.stringify(shown.body.license));
    });

    it("shared stations are listed as sources with the owner's grants, the owner's account left out; private ones not at all", async () => {
      const sources = await t.service.services.stations.sharedSources();
      assert.deepEqual(
        sources.map((s) => [s.id, s.name, s.permissions]),
        [[`station:${pub.id}`, "Harbour Mast AIS", { api: true, redistribution: false, commercial: false }]],
      );
      assert.equal("ownerAccountId" in sources[0]!, false);
    });

    it("anonymous callers see what is public and nothing private", async () => {
      const anon = await get(t, "/api/v1/vessels/mmsi-244000002");
      assert.equal(anon.status, 200, JSON.stringify(anon.body));
      assert.equal(anon.body.data.lastPosition.lat, 52.2);
      t.clock.t += 1_000; // the anonymous rate limit is per second
      assert.equal((await get(t, "/api/v1/vessels/mmsi-244000001")).status, 404);
    });

    it("a commercial plan gets the position only once the owner grants commercial use; the owner always gets their own", async () => {
      const business = await t.key("developer", "business");
      const before = await get(t, "/api/v1/vessels/mmsi-244000002", business.key);
      assert.equal(before.status, 200);
      assert.equal(before.body.data.lastPosition, null, "withheld: commercial use not granted");
      assert.ok(before.body.withheld.some((w: { sources: string[] }) => w.sources.includes(`station:${pub.id}`)));

      // The owner is on Pro (commercial use) and has not granted it to others: their own feed is not restricted.
      const own = await get(t, "/api/v1/me/feed?maxAge=1440", await keyOf(pub.accountId));
      assert.equal(own.status, 200);
      assert.deepEqual(own.body.data.map((d: { mmsi: number }) => d.mmsi), [244_000_002]);

      await t.service.services.stations.updateStation(pub.id, { commercial: true });
      t.clock.t += SHARED_STATIONS_TTL_MS + 1;
      const after = await get(t, "/api/v1/vessels/mmsi-244000002", (await t.service.services.accounts.createKey(business.accountId)).key);
      assert.equal(after.body.data.lastPosition?.lat, 52.2, JSON.stringify(after.body.withheld));
    });

    it("made private again, the station's vessels disappear for others within the snapshot's lifetime", async () => {
      await t.service.services.stations.updateStation(pub.id, { shared: false, commercial: false });
      t.clock.t += SHARED_STATIONS_TTL_MS + 1;
      const other = await t.key("sandbox", "stranger 2");
      assert.equal((await get(t, "/api/v1/vessels/mmsi-244000002", other.key)).status, 404);
      // Shared again for the other tests' sake.
      await t.service.services.stations.updateStation(pub.id, { shared: true });
      t.clock.t += SHARED_STATIONS_TTL_MS + 1;
    });
  });
}
