import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { makeDesignation } from "../../src/domain/sanctions/designation.ts";
import { PROJECT_ROOT } from "../../src/main.ts";
import { ENGINES, get, startTestService, type TestService } from "../helpers/service.ts";
import { CANADA_POST, EU_AMENDMENT, EU_CONSOLIDATED, importFile, importUkCsv, OFAC_2024_05_03 } from "../helpers/sanctions.ts";

/** Validates a response against the schema the OpenAPI document gives for it. */
function validator(doc: Record<string, any>, path: string, status: number) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
  const schema = JSON.parse(JSON.stringify(doc.paths[path].get.responses[String(status)].content["application/json"].schema).replaceAll('"#/components', '"doc#/components'));
  return ajv.compile(schema);
}

async function importSamples(t: TestService): Promise<void> {
  await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
  await importUkCsv(t, { asOf: "2026-04-29" });
  await importFile(t, "eu", [EU_CONSOLIDATED, EU_AMENDMENT], { asOf: "2026-07-24" });
  await importFile(t, "canada", [CANADA_POST], { asOf: "2026-09-03" });
}

for (const engine of ENGINES) {
  describe(`GET /api/v1/screen and /api/v1/sanctions/{list} (${engine})`, () => {
    let t: TestService;
    let key: string;
    let accountKey: { key: string; keyId: string; accountId: string };
    let doc: Record<string, any>;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      ({ key } = await t.key("scale"));
      accountKey = await t.key("growth");
      await importSamples(t);
      doc = (await get(t, "/api/v1/openapi.json")).body;
    });
    after(() => t.close());

    it("screening 50 ids charges 50 credits", async () => {
      const ofac = await t.service.services.sanctions.listActive("ofac", 0, 1000);
      const ids = [...new Set(ofac.flatMap((r) => r.record.imos))].slice(0, 50);
      assert.equal(ids.length, 50);
      const before = (await get(t, "/api/v1/usage", accountKey.key)).body.data.credits.used;
      const r = await get(t, `/api/v1/screen?ids=${ids.join(",")}`, accountKey.key);
      assert.equal(r.status, 200);
      assert.equal(r.headers["x-credits-cost"], "50");
      assert.equal(r.body.count, 50);
      assert.equal(r.body.sanctionedCount, 50);
      const used = (await get(t, "/api/v1/usage", accountKey.key)).body.data.credits.used;
      assert.equal(used - before, 50);
      assert.ok(validator(doc, "/api/v1/screen", 200)(r.body));
    });

    it("the same vessel twice is answered and charged once", async () => {
      const r = await get(t, "/api/v1/screen?ids=9187629,%209187629,mmsi-572469210", key);
      assert.equal(r.headers["x-credits-cost"], "2");
      assert.deepEqual(
        r.body.data.map((d: any) => d.query),
        ["9187629", "mmsi-572469210"],
      );
    });

    it("matches by IMO across lists and by MMSI, in list order, with the list's own facts", async () => {
      const r = await get(t, "/api/v1/screen?ids=9292058,mmsi-572469210", key);
      const [tango, artavil] = r.body.data;
      assert.equal(tango.query, "9292058");
      assert.equal(tango.imo, 9292058);
      assert.equal(tango.sanctioned, true);
      assert.deepEqual(
        tango.activeDesignations.map((d: any) => [d.list, d.family, d.recordId, d.matchedOn]),
        [
          ["uk_sanctions_list", "uk", "RUS3024", "imo"],
          ["eu_32014r0833_annex_xlii", "eu", "32014R0833/XLII/414", "imo"],
        ],
      );
      assert.ok(tango.activeDesignations.every((d: any) => /^\d{4}-\d{2}-\d{2}$/.test(d.listedAt) && d.delistedAt === null));
      assert.deepEqual([artavil.imo, artavil.mmsi, artavil.name], [null, 572469210, "ARTAVIL"]);
      assert.deepEqual(
        artavil.activeDesignations.map((d: any) => [d.list, d.family, d.recordId, d.matchedOn, d.program, d.sourceUrl]),
        [["ofac_sdn", "ofac", "15036", "mmsi", "IRAN", "https://sanctionssearch.ofac.treas.gov/Details.aspx?id=15036"]],
      );
      // The designation names the list it is on (spec 2.7: `ofac_sdn`), and what it imposes.
      assert.deepEqual(
        artavil.activeDesignations[0].measures.map((m: any) => [m.type, m.text]),
        [
          ["asset_freeze", "Block (programme IRAN)"],
          ["secondary_sanctions_risk", "Additional Sanctions Information - Subject to Secondary Sanctions"],
        ],
      );
      assert.match(r.body.method, /Identifier-only/);
      assert.match(r.body.method, /not a clearance/);
      assert.deepEqual(
        r.body.coverage.map((c: any) => [c.list, c.asOf]),
        [
          ["ofac", "2024-05-03"],
          ["uk", "2026-04-29"],
          ["eu", "2026-07-24"],
          ["canada", "2026-09-03"],
          ["new-zealand", null],
        ],
      );
      assert.deepEqual([...r.body.sources].sort(), ["eu", "ofac", "uk"]);
    });

    it("never matches on names: same-named ships on the lists stay apart, and a name is not an id", async () => {
      // TANGO: OFAC 35740 is IMO 1010703, UK RUS3024 and EU 414 are IMO 9292058. TERIBERKA: two OFAC records, two hulls.
      const r = await get(t, "/api/v1/screen?ids=1010703,8931748", key);
      const [tango, teriberka] = r.body.data;
      assert.deepEqual(
        tango.activeDesignations.map((d: any) => d.recordId),
        ["35740"],
      );
      assert.deepEqual(
        teriberka.activeDesignations.map((d: any) => d.recordId),
        ["37058"],
      );
      const byName = await get(t, "/api/v1/screen?ids=TANGO", key);
      assert.equal(byName.status, 400);
      assert.equal(byName.body.error.param, "ids");
    });

    it("an unlisted vessel: not sanctioned on the lists loaded in full, no designation, and the method says it is no clearance", async () => {
      const r = await get(t, "/api/v1/screen?ids=9074729,mmsi-244123456&lists=ofac,uk,eu,canada", key);
      for (const d of r.body.data) {
        assert.deepEqual([d.sanctioned, d.certainty], [false, "clear"]);
        assert.deepEqual([d.activeDesignations, d.pastDesignations, d.name], [[], [], null]);
      }
      assert.equal(r.body.sanctionedCount, 0);
      assert.ok(r.body.coverage.every((c: any) => c.status === "current" && c.kind === "list"));
      assert.match(r.body.coverageNote, /sanctioned=false has no active designation/);
    });

    it("with a requested list never loaded, an unlisted vessel is false with certainty incomplete, never clear, and the list is named as missing", async () => {
      const r = await get(t, "/api/v1/screen?ids=9074729,9187629", key);
      assert.equal(r.status, 200);
      const [unlisted, artavil] = r.body.data;
      assert.deepEqual([unlisted.sanctioned, unlisted.certainty, unlisted.listsChecked.notChecked], [false, "incomplete", ["new-zealand"]]);
      assert.deepEqual([artavil.sanctioned, artavil.certainty], [true, "match"], "a match on a loaded list is still a match");
      const nz = r.body.coverage.find((c: any) => c.list === "new-zealand");
      assert.deepEqual([nz.status, nz.asOf, nz.importedAt, nz.kind], ["missing", null, null, null]);
      assert.match(r.body.coverageNote, /NOT CHECKED, never loaded: new-zealand/);
      assert.match(r.body.coverageNote, /NOT that the vessel is clear/);
    });

    it("`lists` narrows the lists screened; new-zealand is accepted", async () => {
      const r = await get(t, "/api/v1/screen?ids=9292058&lists=UK,new-zealand", key);
      assert.deepEqual(
        r.body.data[0].activeDesignations.map((d: any) => d.family),
        ["uk"],
      );
      assert.deepEqual(
        r.body.coverage.map((c: any) => c.list),
        ["uk", "new-zealand"],
      );
    });

    const bad: [string, string, string, RegExp][] = [
      ["a short number", "ids=123", "ids", /`123`/],
      ["a wrong IMO check digit", "ids=9187629,9187628", "ids", /`9187628`.*checksum-valid/],
      ["an IMO with a prefix", "ids=IMO9187629", "ids", /`IMO9187629`/],
      ["a short MMSI", "ids=mmsi-12345", "ids", /`mmsi-12345`/],
      ["an empty list", "ids=", "ids", /at least one/],
      ["no ids", "lists=ofac", "ids", /required/],
      ["51 vessels", `ids=${Array.from({ length: 51 }, (_, i) => `mmsi-${244000000 + i}`).join(",")}`, "ids", /51 vessels; at most 50/],
      ["an unknown list", "ids=9187629&lists=ofac,un", "lists", /`un`/],
    ];
    for (const [name, query, param, message] of bad) {
      it(`400 for ${name}, naming it, not charged`, async () => {
        const r = await get(t, `/api/v1/screen?${query}`, key);
        assert.equal(r.status, 400);
        assert.equal(r.body.error.code, "invalid_parameter");
        assert.equal(r.body.error.param, param);
        assert.match(r.body.error.message, message);
        assert.equal(r.headers["x-credits-cost"], "0");
      });
    }

    it("a key is required", async () => {
      assert.equal((await get(t, "/api/v1/screen?ids=9187629")).status, 401);
      assert.equal((await get(t, "/api/v1/sanctions/ofac")).status, 401);
    });

    it("the list pages through every active designation exactly once, 1 credit a page", async () => {
      const seen: string[] = [];
      let url: string | undefined = "/api/v1/sanctions/uk?limit=100";
      let pages = 0;
      const valid = validator(doc, "/api/v1/sanctions/{list}", 200);
      while (url) {
        const r = await get(t, url, key);
        assert.equal(r.status, 200);
        assert.equal(r.headers["x-credits-cost"], "1");
        assert.equal(r.body.type, "sanctions_list");
        assert.equal(r.body.apiVersion, "1");
        assert.ok(valid(r.body), JSON.stringify(valid.errors?.slice(0, 3)));
        seen.push(...r.body.data.map((d: any) => d.recordId));
        pages++;
        url = r.body.next ? new URL(r.body.next).pathname + new URL(r.body.next).search : undefined;
      }
      assert.equal(pages, 7);
      assert.equal(seen.length, 632);
      assert.equal(new Set(seen).size, 632);
    });

    it("list rows carry the list's own facts only", async () => {
      const r = await get(t, "/api/v1/sanctions/OFAC?limit=100", key);
      assert.equal(r.body.list, "ofac");
      assert.equal(r.body.asOf, "2024-05-03");
      const artavil = r.body.data.find((d: any) => d.recordId === "15036");
      assert.deepEqual(artavil, {
        list: "ofac_sdn",
        listName: "OFAC Specially Designated Nationals and Blocked Persons List (SDN)",
        recordId: "15036",
        name: "ARTAVIL",
        aliases: [],
        formerNames: ["ALPHA"],
        imos: [9187629],
        mmsis: [572469210],
        flag: "Iran",
        vesselType: "Crude/Oil Products Tanker",
        program: "IRAN",
        measures: [
          { type: "asset_freeze", text: "Block (programme IRAN)", legalBasis: null },
          { type: "secondary_sanctions_risk", text: "Additional Sanctions Information - Subject to Secondary Sanctions", legalBasis: null },
        ],
        listedAt: null,
        firstSeenAt: artavil.firstSeenAt,
        sourceUrl: "https://sanctionssearch.ofac.treas.gov/Details.aspx?id=15036",
      });
      const never = await get(t, "/api/v1/sanctions/new-zealand", key);
      // A list never loaded is not an empty list: the same 503 as screening it (issue 25).
      assert.deepEqual([never.status, never.body.error?.code, never.headers["x-credits-cost"]], [503, "sanctions_unavailable", "0"]);
    });

    const listErrors: [string, string, string][] = [
      ["an unknown list", "/api/v1/sanctions/un", "list"],
      ["limit 0", "/api/v1/sanctions/ofac?limit=0", "limit"],
      ["limit 101", "/api/v1/sanctions/ofac?limit=101", "limit"],
      ["a forged cursor", "/api/v1/sanctions/ofac?cursor=bm9wZQ", "cursor"],
    ];
    for (const [name, url, param] of listErrors) {
      it(`list: 400 for ${name}`, async () => {
        const r = await get(t, url, key);
        assert.equal(r.status, 400);
        assert.equal(r.body.error.param, param);
      });
    }

    it("list: a cursor of another list is refused", async () => {
      const first = await get(t, "/api/v1/sanctions/ofac?limit=1", key);
      const cursor = new URL(first.body.next).searchParams.get("cursor");
      const r = await get(t, `/api/v1/sanctions/uk?cursor=${cursor}`, key);
      assert.equal(r.status, 400);
      assert.equal(r.body.error.param, "cursor");
    });
  });

  describe(`screening under source rights (${engine})`, () => {
    let t: TestService;
    let key: string;
    let dir: string;
    before(async () => {
      // An operator who has not cleared the UK list for the API.
      dir = mkdtempSync(join(tmpdir(), "mds-sources-"));
      const file = JSON.parse(readFileSync(join(PROJECT_ROOT, "config/sources.json"), "utf8"));
      for (const s of file.sources) if (s.id === "uk") s.permissions.api = false;
      writeFileSync(join(dir, "sources.json"), JSON.stringify(file));
      t = await startTestService({ engine, withData: false, env: { SOURCES_FILE: join(dir, "sources.json") } });
      ({ key } = await t.key("scale"));
      await importSamples(t);
    });
    after(async () => {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("UK designations are withheld and counted; the UK list is not checked for this caller, so `sanctioned` rests on the lists it may see, with certainty incomplete", async () => {
      const uk = await t.service.services.sanctions.listActive("uk", 0, 1000);
      const others = await t.service.services.sanctions.findByIdentifiers({ imos: uk.flatMap((r) => r.record.imos), mmsis: [], lists: ["ofac", "eu", "canada"] });
      const elsewhere = new Set(others.map((h) => h.value));
      const ukOnly = uk.flatMap((r) => r.record.imos).find((imo) => !elsewhere.has(imo))!;
      const r = await get(t, `/api/v1/screen?ids=9292058,${ukOnly}`, key);
      const [tango, only] = r.body.data;
      assert.deepEqual(
        tango.activeDesignations.map((d: any) => d.family),
        ["eu"],
      );
      // TANGO is designated on a list the caller sees: sanctioned. The UK-only vessel is not on any
      // list the caller may be shown: false, but incomplete, and the UK named as not checked.
      assert.deepEqual([tango.sanctioned, tango.certainty], [true, "match"]);
      assert.deepEqual([only.sanctioned, only.certainty, only.name, only.activeDesignations], [false, "incomplete", null, []]);
      assert.ok(only.listsChecked.notChecked.includes("uk") && !only.listsChecked.full.includes("uk"));
      assert.equal(r.body.sanctionedCount, 1);
      assert.match(r.body.coverageNote, /NOT CHECKED for this caller, withheld .*: uk/);
      const entry = r.body.withheld.find((w: any) => w.section === "designations");
      assert.deepEqual([entry.sources, entry.rows, entry.reason], [["uk"], 2, "source_not_licensed_for_api"]);
      assert.ok(!r.body.sources.includes("uk"));
      const list = await get(t, "/api/v1/sanctions/uk?limit=20", key);
      assert.equal(list.body.count, 0);
      assert.equal(list.body.withheld[0].rows, 20);
    });
  });

  describe(`identifier links between designations (${engine}, synthetic records)`, () => {
    let t: TestService;
    let key: string;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      ({ key } = await t.key("scale"));
      // Synthetic: A is a hull with IMO and MMSI; B publishes only that MMSI; C is another hull
      // (its own IMO) that a list gives the same MMSI.
      const v = (recordId: string, imos: number[], mmsis: number[]) => makeDesignation({ list: "ofac", recordId, name: `TEST ${recordId}`, imos, mmsis, sourceUrl: "https://example.org/" });
      await t.service.services.sanctions.importVersion({
        list: "ofac",
        designations: [v("A", [9187629], [572469210]), v("B", [], [572469210]), v("C", [9339301], [572469210])],
        asOf: "2026-01-01",
        origin: "synthetic",
        checksum: "0",
        bytes: 0,
        importedAt: Date.parse("2026-01-01T00:00:00Z"),
      });
    });
    after(() => t.close());

    it("an IMO query also reaches designations that carry no IMO through the IMO's own MMSIs, never another hull", async () => {
      const r = await get(t, "/api/v1/screen?ids=9187629,mmsi-572469210", key);
      const [byImo, byMmsi] = r.body.data;
      assert.deepEqual(
        byImo.activeDesignations.map((d: any) => [d.recordId, d.matchedOn, d.matchedValue]),
        [
          ["A", "imo", 9187629],
          ["B", "mmsi", 572469210],
        ],
      );
      assert.deepEqual(
        byMmsi.activeDesignations.map((d: any) => d.recordId),
        ["A", "B", "C"],
      );
    });
  });
}
