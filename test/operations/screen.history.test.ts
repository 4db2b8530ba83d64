/**
 * The real OFAC vessel history of 2021-08 .. 2024-05: every recorded version of sdn.csv
 * (rebuilt from the 2024-05-03 rows by undoing the recorded changes) is imported in
 * order, then the removed vessels and the changed identifiers are screened.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isValidImo } from "../../src/domain/identifiers.ts";
import { ENGINES, startTestService, type TestService } from "../helpers/service.ts";
import { importBytes, importFile, OFAC_2024_05_03, ofacChanges, ofacCsvBefore, screenAll } from "../helpers/sanctions.ts";

const changes = ofacChanges();
const snapshots = [...new Set(changes.map((c) => c.snapshot))].sort();
// The scrape's first version: the state before any recorded change.
const firstDay = snapshots[0]!;
const mmsiId = (m: string) => `mmsi-${m.padStart(9, "0")}`;

/** Listing date a removed vessel must show: the snapshot that added it, or the first version. */

for (const engine of ENGINES) {
  describe(`OFAC history, ${snapshots.length + 2} versions 2021-08 .. 2024-05 (${engine})`, () => {
    let t: TestService;
    let key: string;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      ({ key } = await t.key("scale"));
      await importBytes(t, "ofac", "sdn.csv", ofacCsvBefore("0000").csv, { asOf: firstDay });
      for (const day of snapshots) await importBytes(t, "ofac", "sdn.csv", ofacCsvBefore(day).csv, { asOf: day });
    });
    after(() => t.close());

    it("the rebuilt versions end where the real 2024-05-03 file is: importing it changes nothing", async () => {
      const r = await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
      assert.deepEqual([r.active, r.listed, r.delisted, r.changed], [851, 0, 0, 0]);
      const versions = await t.service.services.sanctions.versions("ofac");
      assert.equal(versions.length, snapshots.length + 2);
      assert.deepEqual(
        versions.filter((v) => v.baseline).map((v) => v.asOf),
        [firstDay],
      );
    });

    it("one listing event per ADDED and one delisting event per REMOVED change, dated by the version", async () => {
      const events = (await t.service.services.sanctions.events(0, 100_000)).filter((e) => !e.baseline);
      const added = changes.filter((c) => c.change === "ADDED");
      const removed = changes.filter((c) => c.change === "REMOVED");
      const key = (list: { entNum: string; snapshot: string }[]) => list.map((c) => `${c.entNum}@${c.snapshot}`).sort();
      assert.deepEqual(key(events.filter((e) => e.action === "listed").map((e) => ({ entNum: e.recordId, snapshot: e.date }))), key(added));
      assert.deepEqual(key(events.filter((e) => e.action === "delisted").map((e) => ({ entNum: e.recordId, snapshot: e.date }))), key(removed));
      console.warn(`# ofac history: ${snapshots.length + 2} versions, ${added.length} listings and ${removed.length} delistings as events`);
    });

    it("every removed vessel with an identifier is screened under pastDesignations with its listing and delisting dates", async () => {
      const removed = changes.filter((c) => c.change === "REMOVED");
      const screenable = removed.filter((c) => isValidImo(c.before.imo) || /^\d{9}$/.test(c.before.mmsi));
      const ids = screenable.map((c) => (isValidImo(c.before.imo) ? c.before.imo : mmsiId(c.before.mmsi)));
      const results = await screenAll(t, key, ids);
      for (const [i, c] of screenable.entries()) {
        const past = results[i]!.pastDesignations.find((d: any) => d.recordId === c.entNum);
        assert.ok(past, `${c.entNum} ${c.before.name} under pastDesignations`);
        assert.equal(past.delistedAt, c.snapshot, `${c.entNum} delisted`);
        // sdn.csv carries no listing date: null, never the import day; firstSeenAt says when the service first saw it.
        assert.equal(past.listedAt, null, `${c.entNum} listed`);
        assert.match(past.firstSeenAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, `${c.entNum} first seen`);
        assert.equal(past.name, c.before.name);
        assert.ok(!results[i]!.activeDesignations.some((d: any) => d.recordId === c.entNum));
      }
      // Removed vessels that also carried an MMSI are found by it as well.
      const byMmsi = screenable.filter((c) => /^\d{9}$/.test(c.before.mmsi));
      const mmsiResults = await screenAll(t, key, byMmsi.map((c) => mmsiId(c.before.mmsi)));
      for (const [i, c] of byMmsi.entries()) assert.ok(mmsiResults[i]!.pastDesignations.some((d: any) => d.recordId === c.entNum && d.matchedOn === "mmsi"));
      console.warn(`# ofac history: ${screenable.length} of ${removed.length} removed vessels screened as past designations (${byMmsi.length} also by MMSI); the rest carried no IMO or MMSI`);
    });

    it("every changed IMO and MMSI still matches, as a former identifier of the same designation", async () => {
      const modified = changes.filter((c) => c.change === "MODIFIED");
      const formerImos = modified.filter((c) => c.before.imo !== c.after.imo && isValidImo(c.before.imo));
      const formerMmsis = modified.filter((c) => c.before.mmsi !== c.after.mmsi && /^\d{9}$/.test(c.before.mmsi));
      assert.ok(formerImos.length >= 1 && formerMmsis.length >= 10, `${formerImos.length} IMOs, ${formerMmsis.length} MMSIs`);
      const ids = [...formerImos.map((c) => c.before.imo), ...formerMmsis.map((c) => mmsiId(c.before.mmsi))];
      const results = await screenAll(t, key, ids);
      for (const [i, c] of [...formerImos, ...formerMmsis].entries()) {
        const all = [...results[i]!.activeDesignations, ...results[i]!.pastDesignations];
        const d = all.find((x: any) => x.recordId === c.entNum);
        assert.ok(d, `${c.entNum} ${c.after.name} found by ${ids[i]}`);
        assert.equal(d.matchedFormerIdentifier, true, `${ids[i]} is a former identifier of ${c.entNum}`);
      }
      // SASCO ANGARA: IMO 924298 (a 6-digit typo, never a valid IMO) fixed to 9242986 on 2023-08-03.
      const [angara] = await screenAll(t, key, ["9242986"]);
      assert.equal(angara.activeDesignations[0].recordId, "44245");
      assert.equal(angara.activeDesignations[0].matchedFormerIdentifier, false);
      console.warn(`# ofac history: ${formerImos.length} former IMOs and ${formerMmsis.length} former MMSIs still match`);
    });

    it("YOUNG YONG -> SAINT LIGHT: the rename, reflag and new MMSI are one change of one designation", async () => {
      const [byOld, byNew, byImo] = await screenAll(t, key, ["mmsi-621819067", "mmsi-750514000", "9194127"]);
      for (const r of [byOld, byNew, byImo]) {
        assert.equal(r.activeDesignations.length, 1);
        assert.equal(r.activeDesignations[0].recordId, "39693");
        assert.equal(r.activeDesignations[0].name, "SAINT LIGHT");
      }
      assert.equal(byOld.activeDesignations[0].matchedFormerIdentifier, true);
      assert.equal(byNew.activeDesignations[0].matchedFormerIdentifier, false);
      assert.deepEqual(byImo.activeDesignations[0].mmsis, [621819067, 750514000]);
      const hits = await t.service.services.sanctions.findByIdentifiers({ imos: [9194127], mmsis: [], lists: ["ofac"] });
      const history = await t.service.services.sanctions.changes(hits[0]!.id);
      const change = history.find((h) => h.asOf === "2024-04-04")!;
      assert.deepEqual(change.fields, ["mmsi", "name", "flag"]);
      assert.deepEqual([change.before.name, change.after.name, change.before.flag, change.after.flag], ["YOUNG YONG", "SAINT LIGHT", "Djibouti", "Guyana"]);
    });
  });
}
