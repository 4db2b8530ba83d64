/**
 * The vessel answer's risk indicators on both engines: events written by DerivedStore.commit
 * as live derivation writes them, designations from the real OFAC rows (one delisted by a
 * second version), and the other lists from their fixtures. Each indicator counts what it
 * should; a private station's events count for its owner only; a withheld station or list
 * makes an indicator say what it could not judge; bad input is refused as before.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { commitEvents, portCall, vesselEvent } from "../helpers/events.ts";
import { CANADA_POST, EU_CONSOLIDATED, importBytes, importFile, importUkCsv, NZ_XLSX, OFAC_2024_05_03 } from "../helpers/sanctions.ts";
import { ENGINES, get } from "../helpers/service.ts";
import { DAY, HOUR, identity, startVesselService, station, used, type VesselTestService, writeTrack } from "../helpers/vessels.ts";

const SHIP = 244_300_001;
const PLAIN = 244_300_002;
/** Heard by station 1 broadcasting ARNICA's IMO: screened by the IMO its station heard. */
const HEARD_AS_ARNICA = 244_300_003;
/** ARGO I (OFAC, IRAN): IMO 9187667, MMSI 256843000. */
const ARGO_MMSI = 256_843_000;
const ARGO_IMO = 9_187_667;
const ARNICA_IMO = 9_187_643;
/** EBANO (OFAC, CUBA), IMO 7406784: left out of the second OFAC version, so delisted. */
const EBANO_IMO = 7_406_784;
const iso = (t: number) => new Date(t).toISOString();
const byId = (body: any) => Object.fromEntries(body.data.risk.indicators.map((i: any) => [i.id, i]));

for (const engine of ENGINES) {
  describe(`vessel risk indicators (${engine})`, () => {
    let t: VesselTestService;
    let now: number;
    let scale: { key: string; keyId: string; accountId: string };
    let owner: { key: string; id: number };
    const api = async (url: string, key = scale.key) => {
      const r = await get(t, url, key);
      assert.equal(r.status, 200, `${url}: ${JSON.stringify(r.body).slice(0, 300)}`);
      return r.body;
    };

    before(async () => {
      // Station 1 shared and cleared; station 2 shared but not cleared for the API; station 3 private.
      t = await startVesselService(engine, { deniedSources: ["station:2"] });
      now = t.clock.now();
      const s1 = await station(t, "pro", true);
      await station(t, "pro", true);
      const s3 = await station(t, "pro", false);
      assert.equal(s3.id, 3);
      owner = { key: s3.key, id: s3.id };
      scale = await t.key("scale");

      // Every list loaded in full, so a no-match can be judged; OFAC's second version drops EBANO.
      const ofac = readFileSync(OFAC_2024_05_03, "utf8");
      await importBytes(t, "ofac", "sdn.csv", ofac, { asOf: "2024-05-03" });
      const without = ofac.split("\n").filter((l) => !l.startsWith("4243,")).join("\n");
      const r = await importBytes(t, "ofac", "sdn.csv", without, { asOf: "2024-06-01" });
      assert.equal(r.delisted, 1);
      await importUkCsv(t, { asOf: "2026-04-29" });
      await importFile(t, "eu", [EU_CONSOLIDATED], { asOf: "2026-07-17" });
      await importFile(t, "canada", [CANADA_POST], { asOf: "2026-08-25" });
      await importFile(t, "new-zealand", [NZ_XLSX], { asOf: "2026-08-01" });

      await identity(t, { stationId: 1, mmsi: SHIP, name: "RISK TESTER" });
      await identity(t, { stationId: 1, mmsi: HEARD_AS_ARNICA, imo: ARNICA_IMO, name: "ARNICA" });
      await writeTrack(t, s1.id, SHIP, now - 2 * HOUR, now, 30 * 60_000);
      await writeTrack(t, 2, SHIP, now - 2 * HOUR, now, 30 * 60_000);
      await t.service.services.vessels.refresh(now);

      const syriaEnd = Date.parse("2025-07-01T00:00:00Z");
      await commitEvents(
        t,
        [
          vesselEvent({ type: "ais_gap", stationId: 1, mmsi: SHIP, start: now - 40 * DAY }),
          vesselEvent({ type: "ais_gap", stationId: 1, mmsi: SHIP, start: now - 5 * DAY }),
          vesselEvent({ type: "loitering", stationId: 1, mmsi: SHIP, start: now - 4 * DAY }),
          vesselEvent({ type: "encounter", stationId: 1, mmsi: SHIP, start: now - 3 * DAY, counterpartMmsi: ARGO_MMSI }),
          vesselEvent({ type: "encounter", stationId: 1, mmsi: SHIP, start: now - 2 * DAY, counterpartMmsi: HEARD_AS_ARNICA }),
          vesselEvent({ type: "encounter", stationId: 1, mmsi: SHIP, start: now - DAY, counterpartMmsi: PLAIN }),
          vesselEvent({ type: "identity_change", stationId: 1, mmsi: SHIP, start: now - 6 * DAY, end: now - 6 * DAY, details: { field: "name", old: "RISK TEST", new: "RISK TESTER" } }),
          vesselEvent({
            type: "identity_change",
            stationId: 1,
            mmsi: SHIP,
            start: now - 3 * HOUR,
            end: now - 3 * HOUR,
            counterpartMmsi: PLAIN,
            details: { field: "imo", kind: "conflict", imo: ARNICA_IMO, otherMmsi: PLAIN },
          }),
          // A station the caller may see but not be shown: never counted, named as not judged.
          vesselEvent({ type: "ais_gap", stationId: 2, mmsi: SHIP, start: now - 10 * HOUR, end: null }),
          // A private station: its owner's only.
          vesselEvent({ type: "loitering", stationId: 3, mmsi: SHIP, start: now - 7 * HOUR }),
        ],
        [
          portCall({ stationId: 1, mmsi: SHIP, unlocode: "IRBND", arrival: now - 20 * DAY }),
          portCall({ stationId: 1, mmsi: SHIP, unlocode: "SYLTK", arrival: syriaEnd - 10 * DAY }),
          portCall({ stationId: 1, mmsi: SHIP, unlocode: "SYLTK", arrival: syriaEnd + 10 * DAY }),
          portCall({ stationId: 1, mmsi: SHIP, unlocode: "UASVP", arrival: now - 8 * DAY }),
          portCall({ stationId: 1, mmsi: SHIP, unlocode: "NLRTM", arrival: now - 9 * DAY }),
          portCall({ stationId: 3, mmsi: SHIP, unlocode: "CUHAV", arrival: now - 6 * HOUR }),
        ],
      );
    });
    after(() => t.close());

    it("every indicator is present in the one order, with a count, a latest date, sources and whether it was judged", async () => {
      const body = await api(`/api/v1/vessels/mmsi-${SHIP}`);
      assert.deepEqual(
        body.data.risk.indicators.map((i: any) => i.id),
        ["sanctioned_now", "was_sanctioned", "encounters_with_sanctioned", "ais_gaps", "loitering", "identity_changes", "identity_conflicts", "flag_mismatch", "port_calls_sanctioned_jurisdictions"],
      );
      assert.deepEqual(body.data.risk.window, { from: iso(0), to: iso(now) }, "Scale keeps everything held");
      for (const i of body.data.risk.indicators) {
        assert.ok(Number.isInteger(i.count) && Array.isArray(i.sources) && typeof i.judged === "boolean", JSON.stringify(i));
        assert.equal(i.judged, !("notJudged" in i), i.id);
      }
    });

    it("a ship's events: gaps, loitering, identity changes with conflicts apart, sanctioned counterparts, calls in sanctioned jurisdictions", async () => {
      const body = await api(`/api/v1/vessels/mmsi-${SHIP}`);
      const r = byId(body);
      // Station 2's gap is not counted: the indicator says so, and withheld counts it.
      assert.deepEqual(r.ais_gaps, {
        id: "ais_gaps",
        count: 2,
        latest: iso(now - 5 * DAY),
        sources: ["station:1"],
        judged: false,
        notJudged: { reason: "sources_withheld", sources: ["station:2"] },
      });
      assert.ok(body.withheld.some((w: any) => w.section === "risk.ais_gaps" && w.sources.join() === "station:2" && w.rows === 1), JSON.stringify(body.withheld));
      assert.deepEqual(r.loitering, { id: "loitering", count: 1, latest: iso(now - 4 * DAY), sources: ["station:1"], judged: true });
      assert.deepEqual(r.identity_changes, { id: "identity_changes", count: 1, latest: iso(now - 6 * DAY), sources: ["station:1"], judged: true });
      assert.deepEqual(r.identity_conflicts, { id: "identity_conflicts", count: 1, latest: iso(now - 3 * HOUR), sources: ["station:1"], judged: true });
      // ARGO I by its MMSI, ARNICA by the IMO station 1 heard; the plain ship is no match.
      const e = r.encounters_with_sanctioned;
      assert.deepEqual([e.count, e.latest, e.sources, e.judged], [2, iso(now - 2 * DAY), ["station:1", "ofac"], true], JSON.stringify(e));
      assert.deepEqual(e.listsChecked, { full: ["ofac", "uk", "eu", "canada", "new-zealand"], extract: [], notChecked: [] });
      // Iran, Syria before 1 July 2025, Sevastopol; not Syria after, not Rotterdam.
      const p = r.port_calls_sanctioned_jurisdictions;
      assert.deepEqual([p.count, p.latest, p.sources, p.jurisdictions, p.judged], [3, iso(now - 8 * DAY), ["station:1"], ["ir", "sy", "ua-crimea"], true], JSON.stringify(p));
      assert.deepEqual([r.sanctioned_now.count, r.sanctioned_now.certainty, r.sanctioned_now.judged], [0, "clear", true]);
      assert.deepEqual([r.was_sanctioned.count, r.was_sanctioned.judged], [0, true]);
      assert.ok(body.sources.includes("ofac") && body.sources.includes("station:1") && !body.sources.includes("station:2"));
    });

    it("sanctioned now: the designations, lists and certainty screening gives", async () => {
      const body = await api(`/api/v1/vessels/${ARGO_IMO}`);
      const s = byId(body).sanctioned_now;
      const active = body.data.sanctions.filter((d: any) => d.active);
      assert.ok(active.length >= 1);
      assert.equal(s.count, active.length);
      assert.deepEqual(s.lists, [...new Set(active.map((d: any) => d.list))].sort());
      assert.deepEqual(s.sources, [...new Set(active.map((d: any) => d.family))]);
      // OFAC's sdn.csv dates no listing: the first version that carried it stands in.
      const latest = active.map((d: any) => d.listedAt ?? "2024-05-03").sort().at(-1);
      assert.equal(s.latest, latest);
      const screened = (await get(t, `/api/v1/screen?ids=${ARGO_IMO}`, scale.key)).body.data[0];
      assert.deepEqual([s.certainty, s.listsChecked, s.count > 0], [screened.certainty, screened.listsChecked, screened.sanctioned]);
      assert.equal(s.judged, true);
      // Never heard by a station: the events say nothing, and say so.
      assert.deepEqual(byId(body).ais_gaps, { id: "ais_gaps", count: 0, latest: null, sources: [], judged: false, notJudged: { reason: "no_coverage", sources: [] } });
    });

    it("flag mismatch: a station heard ARNICA's IMO on a Dutch MMSI while OFAC lists her under Iran's flag; a ship no list designates has none", async () => {
      const r = byId(await api(`/api/v1/vessels/${ARNICA_IMO}`)).flag_mismatch;
      assert.deepEqual(
        [r.count, r.sources, r.judged, r.mismatches.map((m: any) => [m.mmsi, m.midCountries, m.list, m.listedFlag, m.source])],
        [1, ["station:1", "ofac", "itu_mid"], true, [[HEARD_AS_ARNICA, ["NL"], "ofac_sdn", "IR", "station:1"]]],
        JSON.stringify(r),
      );
      assert.equal(r.latest, r.mismatches[0].heard);
      const plain = byId(await api(`/api/v1/vessels/mmsi-${SHIP}`)).flag_mismatch;
      assert.deepEqual([plain.count, plain.mismatches, plain.judged], [0, [], true]);
    });

    it("was sanctioned: a delisting from a list that no longer designates the ship", async () => {
      const r = byId(await api(`/api/v1/vessels/${EBANO_IMO}`));
      assert.deepEqual([r.was_sanctioned.count, r.was_sanctioned.latest, r.was_sanctioned.lists, r.was_sanctioned.sources, r.was_sanctioned.judged], [1, "2024-06-01", ["ofac_sdn"], ["ofac"], true]);
      assert.deepEqual([r.sanctioned_now.count, r.sanctioned_now.certainty], [0, "clear"]);
    });

    it("a private station's events and calls count for its owner, and for no other account", async () => {
      const other = byId(await api(`/api/v1/vessels/mmsi-${SHIP}`));
      const mine = byId(await api(`/api/v1/vessels/mmsi-${SHIP}`, owner.key));
      assert.deepEqual([other.loitering.count, mine.loitering.count], [1, 2]);
      assert.deepEqual(mine.loitering.sources, ["station:1", `station:${owner.id}`]);
      assert.deepEqual([other.port_calls_sanctioned_jurisdictions.count, mine.port_calls_sanctioned_jurisdictions.count], [3, 4]);
      assert.deepEqual(mine.port_calls_sanctioned_jurisdictions.jurisdictions, ["cu", "ir", "sy", "ua-crimea"]);
      const text = JSON.stringify(await api(`/api/v1/vessels/mmsi-${SHIP}`));
      assert.ok(!text.includes(`station:${owner.id}`), "not named, not counted as withheld");
    });

    it("a list the caller may not be shown: the indicators resting on it are not judged, naming it", async () => {
      const entry = t.service.services.sources.get("ofac")!;
      const before = entry.permissions;
      entry.permissions = { ...before, api: false };
      try {
        const argo = byId(await api(`/api/v1/vessels/${ARGO_IMO}`));
        assert.equal(argo.sanctioned_now.certainty, "incomplete");
        assert.deepEqual(argo.sanctioned_now.listsChecked.notChecked, ["ofac"]);
        if (argo.sanctioned_now.count === 0) assert.deepEqual(argo.sanctioned_now.sources, []);
        assert.ok(!argo.sanctioned_now.sources.includes("ofac"));
        assert.deepEqual([argo.sanctioned_now.judged, argo.sanctioned_now.notJudged], [false, { reason: "lists_not_checked", sources: ["ofac"] }]);
        const ship = byId(await api(`/api/v1/vessels/mmsi-${SHIP}`));
        const e = ship.encounters_with_sanctioned;
        assert.deepEqual([e.count, e.sources, e.judged, e.notJudged], [0, [], false, { reason: "lists_not_checked", sources: ["ofac"] }]);
        const ebano = byId(await api(`/api/v1/vessels/${EBANO_IMO}`));
        assert.deepEqual([ebano.was_sanctioned.count, ebano.was_sanctioned.judged], [0, false]);
      } finally {
        entry.permissions = before;
      }
    });

    it("counts over the plan's history window", async () => {
      const developer = await t.key("developer");
      const dev = await api(`/api/v1/vessels/mmsi-${SHIP}`, developer.key);
      assert.equal(dev.data.risk.window.from, iso(now - 30 * DAY));
      assert.equal(byId(dev).ais_gaps.count, 1, "the gap 40 days ago is outside 30 days");
      assert.equal(byId(dev).port_calls_sanctioned_jurisdictions.count, 2, "Iran and Sevastopol; Syria's was over a year ago");
      const sandbox = await t.key("sandbox");
      const day = byId(await api(`/api/v1/vessels/mmsi-${SHIP}`, sandbox.key));
      assert.deepEqual([day.ais_gaps.count, day.identity_conflicts.count, day.encounters_with_sanctioned.count], [0, 1, 0]);
    });

    it("bad input is refused as before, and not charged", async () => {
      const before = await used(t, scale);
      for (const id of ["9074728", "mmsi-1234", "IMO9074729"]) {
        const r = await get(t, `/api/v1/vessels/${id}`, scale.key);
        assert.deepEqual([r.status, r.body.error.code, r.body.error.param], [400, "invalid_parameter", "id"]);
      }
      assert.equal((await get(t, `/api/v1/vessels/mmsi-244399999`, scale.key)).status, 404);
      assert.equal(await used(t, scale), before);
    });
  });
}
