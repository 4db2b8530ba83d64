import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { parseSanctionsList } from "../../../src/adapters/importers/sanctions/index.ts";
import { isValidImo } from "../../../src/domain/identifiers.ts";
import { DelistingGuardError } from "../../../src/domain/sanctions/diff.ts";
import { SanctionsImportError } from "../../../src/interfaces/sanctions.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import {
  CANADA_POST,
  CANADA_PRE,
  EU_AMENDMENT,
  EU_CONSOLIDATED,
  importBytes,
  importFile,
  importUkCsv,
  NZ_XLSX,
  OFAC_2024_05_03,
  reassembleUkCsv,
  screenAll,
  tableCounts,
  UK_XML,
} from "../../helpers/sanctions.ts";

/** IMO column of the EU annex CSVs, every checksum-valid value. */
function euAnnexImos(path: string): number[] {
  const [header, ...lines] = readFileSync(path, "utf8").trim().split(/\r?\n/);
  const col = header!.split(",").indexOf("imoNumber");
  assert.ok(col >= 0, "imoNumber column");
  const imos = new Set<number>();
  for (const line of lines) for (const m of line.match(/\b\d{7}\b/g) ?? []) if (isValidImo(m)) imos.add(Number(m));
  return [...imos];
}

for (const engine of ENGINES) {
  describe(`sanctions import of the real samples (${engine})`, () => {
    let t: TestService;
    let key: string;
    before(async () => {
      t = await startTestService({ engine });
      ({ key } = await t.key("scale"));
    });
    after(() => t.close());

    it("OFAC 2024-05-03: 851 vessel rows, 846 IMOs and 154 MMSIs read from the remarks, all screenable", async () => {
      const r = await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
      assert.deepEqual([r.records, r.active, r.listed, r.baseline, r.events], [851, 851, 851, true, 851]);
      const parsed = await parseSanctionsList("ofac", readFileSync(OFAC_2024_05_03));
      const imos = [...new Set(parsed.flatMap((d) => d.imos))];
      const mmsis = [...new Set(parsed.flatMap((d) => d.mmsis))];
      assert.equal(parsed.filter((d) => d.imos.length > 0).length, 846);
      assert.equal(parsed.filter((d) => d.mmsis.length > 0).length, 154);
      const results = await screenAll(t, key, [...imos.map(String), ...mmsis.map((m) => `mmsi-${String(m).padStart(9, "0")}`)], "ofac");
      assert.equal(results.length, imos.length + mmsis.length);
      for (const res of results) {
        assert.equal(res.sanctioned, true, res.query);
        assert.ok(res.activeDesignations.every((d: any) => d.list === "ofac_sdn" && d.family === "ofac" && d.listedAt === null && typeof d.firstSeenAt === "string"));
      }
      console.warn(`# ofac: ${r.records} vessels, ${imos.length} distinct IMOs and ${mmsis.length} MMSIs all matched`);
    });

    it("EU Annex XLII: the consolidated version (633 vessels), then with Implementing Reg. 2026/1848 (42 rows: 41 new entries, entry 629 restated), every IMO screenable", async () => {
      const first = await importFile(t, "eu", [EU_CONSOLIDATED], { asOf: "2026-07-17" });
      assert.deepEqual([first.records, first.active, first.listed], [633, 633, 633]);
      const second = await importFile(t, "eu", [EU_CONSOLIDATED, EU_AMENDMENT], { asOf: "2026-07-24" });
      assert.deepEqual([second.records, second.active, second.listed, second.delisted, second.baseline], [674, 674, 41, 0, false]);
      console.warn(`# eu: entry changes by the amendment: ${second.changed}`);
      const imos = [...new Set([...euAnnexImos(EU_CONSOLIDATED), ...euAnnexImos(EU_AMENDMENT)])];
      assert.ok(imos.length >= 670, `${imos.length} IMOs`);
      const results = await screenAll(t, key, imos.map(String), "eu");
      const missing = results.filter((r) => r.sanctioned !== true).map((r) => r.query);
      assert.deepEqual(missing, []);
      // MIKHAIL ULYANOV (IMO 9333670) is in the annex twice: two designations, both shown.
      const ulyanov = results.find((r) => r.imo === 9333670)!;
      assert.equal(ulyanov.activeDesignations.length, 2);
      assert.ok(ulyanov.activeDesignations.every((d: any) => /^\d{4}-\d{2}-\d{2}$/.test(d.listedAt) && d.sourceUrl.startsWith("https://eur-lex.europa.eu/")));
      console.warn(`# eu: ${second.active} Annex XLII vessels, ${imos.length} distinct IMOs all matched`);
    });

    it("UK: 632 ships from the 29-Apr-2026 list (CSV layout), then the XML fragments as a later version under the guard", async () => {
      const r = await importUkCsv(t, { asOf: "2026-04-29" });
      assert.deepEqual([r.records, r.active, r.listed], [632, 632, 632]);
      const [petrel] = await screenAll(t, key, ["9562233"], "uk");
      assert.equal(petrel.activeDesignations[0].recordId, "DPR0075");
      assert.equal(petrel.activeDesignations[0].listedAt, "2017-10-03");
      // The two XML fragments alone (RUS3686 is newer than the CSV) would delist 631 ships: refused, nothing changes.
      const before = await tableCounts(t);
      await assert.rejects(importFile(t, "uk", [UK_XML], { asOf: "2026-09-25" }), (e) => e instanceof DelistingGuardError && /would delist 631 of 632/.test(e.message));
      assert.deepEqual(await tableCounts(t), before);
      console.warn(`# uk: ${r.active} ships`);
    });

    it("Canada: the pre- and post-2026-08-25 element names as two versions of one list", async () => {
      const pre = await importFile(t, "canada", [CANADA_PRE], { asOf: "2026-08-24" });
      assert.deepEqual([pre.records, pre.active], [2, 2]);
      const post = await importFile(t, "canada", [CANADA_POST], { asOf: "2026-09-03" });
      // Item 1 (Balitiyskiy III) keeps its record id across the rename; item 257 is absent from the later excerpt.
      assert.deepEqual([post.records, post.listed, post.delisted, post.unchanged], [2, 1, 1, 1]);
      const [balitiyskiy, maria, alliance] = await screenAll(t, key, ["7612448", "8517839", "9413561"], "canada");
      assert.equal(balitiyskiy.activeDesignations[0].listedAt, "2025-02-21");
      assert.equal(maria.activeDesignations[0].listedAt, "2025-06-13");
      assert.equal(alliance.sanctioned, false);
      assert.equal(alliance.pastDesignations[0].delistedAt, "2026-09-03");
      console.warn(`# canada: ${pre.active} + ${post.active} ships in the two tag versions`);
    });

    it("New Zealand: a ship deleted in the file is never listed; its later deletion carries the list's own date", async () => {
      const r = await importFile(t, "new-zealand", [NZ_XLSX], { asOf: "2026-03-10" });
      assert.deepEqual([r.records, r.active, r.listed], [4, 3, 3]);
      const [moti] = await screenAll(t, key, ["9281011"], "new-zealand");
      assert.equal(moti.sanctioned, false);
      assert.deepEqual(moti.pastDesignations, []);
    });

    it("every listing and delisting is an event with its subject, in id order", async () => {
      const events = await t.service.services.sanctions.events(0, 100_000);
      assert.ok(events.every((e, i) => i === 0 || e.id > events[i - 1]!.id));
      const alliance = events.find((e) => e.list === "canada" && e.action === "delisted")!;
      assert.deepEqual(
        { record: alliance.recordId, imos: alliance.imos, name: alliance.name, date: alliance.date, source: alliance.sourceId, baseline: alliance.baseline },
        { record: "Russia / Russie|1.1|257", imos: [9413561], name: "Alliance", date: "2026-09-03", source: "canada", baseline: false },
      );
      const artavil = events.find((e) => e.list === "ofac" && e.recordId === "15036")!;
      assert.deepEqual([artavil.action, artavil.imos, artavil.mmsis, artavil.program, artavil.baseline], ["listed", [9187629], [572469210], "IRAN", true]);
      const euAdded = events.filter((e) => e.list === "eu" && !e.baseline);
      assert.equal(euAdded.length, 41);
      assert.ok(euAdded.every((e) => e.action === "listed" && e.date === "2026-07-24" && e.dateSource === "list"));
      const counts = await tableCounts(t);
      assert.equal(counts.sanctions_events, events.length);
      console.warn(`# events: ${events.length} (${events.filter((e) => !e.baseline).length} after the first versions)`);
    });
  });

  describe(`refused imports change nothing (${engine})`, () => {
    let t: TestService;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
      await importUkCsv(t, { asOf: "2026-04-29" });
    });
    after(() => t.close());

    const ofac = readFileSync(OFAC_2024_05_03);
    const ukCsv = Buffer.from(reassembleUkCsv());
    const lines = ofac.toString("latin1").split("\r\n");
    const cases: [string, string, string, Buffer, RegExp][] = [
      ["a zero-byte OFAC file", "ofac", "sdn.csv", Buffer.alloc(0), /empty/],
      ["OFAC cut in the middle of a record", "ofac", "sdn.csv", ofac.subarray(0, Math.floor(ofac.length / 2)), /columns|Quote|CSV|truncated/i],
      ["OFAC cut at a record boundary, 10% left", "ofac", "sdn.csv", Buffer.from(`${lines.slice(0, 85).join("\r\n")}\r\n`, "latin1"), /would delist 766 of 851/],
      ["a zero-byte UK file", "uk", "UK-Sanctions-List.csv", Buffer.alloc(0), /empty/],
      ["the UK CSV cut inside a quoted field", "uk", "UK-Sanctions-List.csv", ukCsv.subarray(0, ukCsv.indexOf('"', Math.floor(ukCsv.length / 2)) + 3), /CSV|Quote|would delist/i],
      ["the UK XML cut short", "uk", "UK-Sanctions-List.xml", readFileSync(UK_XML).subarray(0, 900), /well-formed/],
      ["an HTML error page instead of the list", "uk", "UK-Sanctions-List.csv", Buffer.from("<html><body>503 Service Unavailable</body></html>"), /uk/],
    ];
    for (const [name, list, file, bytes, pattern] of cases) {
      it(`${name}: refused with a clear error`, async () => {
        const before = await tableCounts(t);
        await assert.rejects(importBytes(t, list, file, bytes, { asOf: "2026-10-01" }), (e: Error) => {
          assert.match(e.message, pattern);
          assert.match(e.message, new RegExp(list));
          return true;
        });
        assert.deepEqual(await tableCounts(t), before);
      });
    }

    it("a version dated before the stored one is refused", async () => {
      const before = await tableCounts(t);
      await assert.rejects(importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-01-01" }), (e) => e instanceof SanctionsImportError && /before the stored version of 2024-05-03/.test(e.message));
      assert.deepEqual(await tableCounts(t), before);
    });

    it("the guard's share can be raised for one import when the delistings are real", async () => {
      const r = await importBytes(t, "ofac", "sdn.csv", Buffer.from(`${lines.slice(0, 600).join("\r\n")}\r\n`, "latin1"), { asOf: "2024-05-04", maxDelistedShare: 0.5 });
      assert.deepEqual([r.active, r.delisted], [600, 251]);
    });

    it("two imports of one list at once run one after the other", async () => {
      const [a, b] = await Promise.all([
        importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-05" }),
        importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-05" }),
      ]);
      assert.deepEqual([a.listed + b.listed, a.active, b.active], [251, 851, 851]);
      const counts = await tableCounts(t);
      assert.equal(counts.active, 851 + 632);
    });
  });
}
