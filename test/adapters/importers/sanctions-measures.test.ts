import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { ENGINES, get, startTestService, type TestService } from "../../helpers/service.ts";
import { EU_LIBYA_AVAX, fixture, importBytes, importFile } from "../../helpers/sanctions.ts";

/**
 * AVAX (IMO 9058713), as Implementing Regulation (EU) 2026/1941 adds it to Annex V of
 * Regulation (EU) 2016/44 (Libya): one annex entry, two rows, under "Transportation
 * restrictions" and "Financial restrictions" (the real rows, see fixtures/sanctions/PROVENANCE.md).
 */
const AVAX_ROWS = readFileSync(EU_LIBYA_AVAX, "utf8").trim().split(/\r?\n/);
const LIBYA_ANNEX_V = { instrument: "Regulation (EU) 2016/44", provision: "Annex V", url: "https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=CELEX:32016R0044" };
const AVAX_MEASURES = [
  { type: "transport_ban", text: "Transportation restrictions", legalBasis: LIBYA_ANNEX_V },
  { type: "financial_restrictions", text: "Financial restrictions", legalBasis: LIBYA_ANNEX_V },
];

for (const engine of ENGINES) {
  describe(`every measure kept, with its legal basis (${engine})`, () => {
    let t: TestService;
    let key: string;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      ({ key } = await t.key("scale"));
      await importFile(t, "eu", [EU_LIBYA_AVAX], { asOf: "2026-08-07" });
      // The registry links the list's ships (what `serve` does every minute), for the vessel answer.
      await t.service.services.vessels.refresh(t.clock.now());
    });
    after(() => t.close());

    it("AVAX screens with both measures and their legal basis, on the list it is on", async () => {
      const r = await get(t, "/api/v1/screen?ids=9058713&lists=eu", key);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const [avax] = r.body.data[0].activeDesignations;
      assert.equal(r.body.data[0].activeDesignations.length, 1, "one designation: one annex entry");
      assert.equal(avax.name, "AVAX");
      assert.equal(avax.list, "eu_32016r0044_annex_v");
      assert.equal(avax.family, "eu");
      assert.equal(avax.listName, "Regulation (EU) 2016/44, Annex V");
      assert.deepEqual(avax.measures, AVAX_MEASURES);
    });

    it("the OpenAPI document (and so the MCP output schemas) declares the measure and the family", async () => {
      const doc = JSON.stringify((await get(t, "/api/v1/openapi.json")).body);
      for (const path of ["/api/v1/screen", "/api/v1/vessels/{id}", "/api/v1/sanctions/{list}"]) assert.ok(doc.includes(`"${path}"`), path);
      for (const word of ['"legalBasis"', '"secondary_sanctions_risk"', '"port_access_ban"', '"family"']) assert.ok(doc.includes(word), word);
    });

    it("the vessel answer and the list rows carry the same measures", async () => {
      const v = await get(t, "/api/v1/vessels/9058713", key);
      assert.equal(v.status, 200, JSON.stringify(v.body));
      const [designation] = v.body.data.sanctions;
      assert.equal(designation.list, "eu_32016r0044_annex_v");
      assert.deepEqual(designation.measures, AVAX_MEASURES);

      // The public page says the same, in words.
      const html = await t.service.app.inject({ method: "GET", url: "/vessel/9058713-avax" });
      assert.equal(html.statusCode, 200);
      assert.match(html.body, /Transportation restrictions \(Regulation \(EU\) 2016\/44, Annex V\); Financial restrictions \(Regulation \(EU\) 2016\/44, Annex V\)/);

      const list = await get(t, "/api/v1/sanctions/eu", key);
      const [row] = list.body.data;
      assert.equal(row.name, "AVAX");
      assert.equal(row.list, "eu_32016r0044_annex_v");
      assert.deepEqual(row.measures, AVAX_MEASURES);
      assert.equal(row.listedAt, "2026-08-07");
      const stored = (await t.service.services.sanctions.listActive("eu", 0, 10))[0]!.record;
      assert.match(stored.reason!, /^Listed on 22 July 2026\./, "one reason for both measures, given once");
    });

    it("a column the reader does not understand is reported and its values kept, never dropped silently", async () => {
      const warnings: string[] = [];
      const rows = [`${AVAX_ROWS[0]},vesselClass`, ...AVAX_ROWS.slice(1).map((row) => `${row},Aframax`)];
      await importBytes(t, "eu", "32026R1941-extended.csv", rows.join("\n"), { asOf: "2026-10-23", onWarning: (m) => warnings.push(m) });
      assert.deepEqual(warnings, ["32026R1941-extended.csv: 1 column(s) not understood (vesselClass); their values, in 2 vessel row(s), are kept in remarks"]);
      const stored = (await t.service.services.sanctions.listActive("eu", 0, 10))[0]!.record;
      assert.match(stored.remarks!, /vesselClass: Aframax/);
    });
  });
}

for (const engine of ENGINES) {
  describe(`records stored while measures were plain texts (${engine})`, () => {
    let t: TestService;
    let key: string;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      ({ key } = await t.key("scale"));
    });
    after(() => t.close());

    it("read with their measures and legal basis, and the next import of the same list reports no change", async () => {
      const sdn = fixture("ofac", "sdn_csv_vessel_rows_watchman_ofactest.csv");
      await importBytes(t, "ofac", "sdn.csv", sdn, { asOf: "2024-05-01" });
      // Put the records back in the shape they were stored in before: the remark texts only.
      const db = t.service.store.db;
      for (const r of await db.selectFrom("sanctions_designations").select(["id", "record"]).execute()) {
        const record = JSON.parse(r.record);
        record.measures = record.measures.filter((m: any) => !m.text.startsWith("Block (")).map((m: any) => m.text);
        await db.updateTable("sanctions_designations").set({ record: JSON.stringify(record) }).where("id", "=", r.id).execute();
      }

      const r = await get(t, "/api/v1/screen?ids=9339301&lists=ofac", key);
      assert.deepEqual(r.body.data[0].activeDesignations[0].measures, [
        { type: "asset_freeze", text: "Block (programme RUSSIA-EO14024)", legalBasis: { instrument: "Executive Order 14024", provision: null, url: null } },
        {
          type: "secondary_sanctions_risk",
          text: "Secondary sanctions risk: See Section 11 of Executive Order 14024",
          legalBasis: { instrument: "Executive Order 14024", provision: "Section 11", url: null },
        },
      ]);

      // The same publication again (another download: other bytes, same rows).
      const again = await importBytes(t, "ofac", "sdn.csv", Buffer.concat([sdn, Buffer.from("\r\n")]), { asOf: "2024-05-02" });
      assert.deepEqual([again.samePublication, again.changed, again.listed, again.delisted], [false, 0, 0, 0], "a new shape is not a change of the list");
      const changes = await db.selectFrom("sanctions_changes").selectAll().execute();
      assert.deepEqual(changes, []);
      // ...and the records are stored in the new shape from then on.
      const stored = await db.selectFrom("sanctions_designations").select("record").execute();
      assert.ok(stored.every((row) => JSON.parse(row.record).measures.every((m: unknown) => typeof m === "object")));
    });
  });
}
