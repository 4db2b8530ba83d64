import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { importSanctionsFiles } from "../../src/adapters/importers/sanctions-import.ts";
import { ENGINES, get, startTestService, type TestService } from "../helpers/service.ts";
import { OFAC_2024_05_03 } from "../helpers/sanctions.ts";

/**
 * An entity row in SDN.CSV's layout (12 columns, `-0-` for empty, type empty for an entity),
 * constructed for this test: the real vessel rows link ARTAVIL to this name with
 * "Linked To: NATIONAL IRANIAN TANKER COMPANY.", and the sample holds no entity rows.
 */
const NITC_ENTITY =
  '9702,"NATIONAL IRANIAN TANKER COMPANY",-0- ,"IRAN] [NPWMD",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"Company Number IMO 5000001; a.k.a. \'NITC\'."\r\n';

for (const engine of ENGINES) {
  describe(`companies (${engine})`, () => {
    let t: TestService;
    let key: string;
    before(async () => {
      t = await startTestService({ engine });
      ({ key } = await t.key("scale"));
    });
    after(() => t.close());

    it("MARAD's operator of ALASKAN EXPLORER (9244661) is found by search kind=company and lists the ship with role, evidence and source", async () => {
      const s = await get(t, "/api/v1/search?q=alaska%20tanker&kind=company", key);
      assert.equal(s.status, 200, JSON.stringify(s.body));
      const hit = s.body.data.find((h: any) => h.name === "Alaska Tanker Co LLC");
      assert.ok(hit, JSON.stringify(s.body.data));
      assert.equal(hit.kind, "company");
      assert.equal(hit.id, "marad-name-alaska-tanker-co-llc");
      assert.ok(s.body.data.every((h: any) => h.kind === "company"));

      const c = await get(t, `/api/v1/companies/${hit.id}`, key);
      assert.equal(c.status, 200, JSON.stringify(c.body));
      assert.equal(c.body.type, "company");
      assert.equal(c.body.id, hit.id);
      assert.equal(c.body.name, "Alaska Tanker Co LLC");
      assert.match(c.body.page, /\/company\/marad-name-alaska-tanker-co-llc-alaska-tanker-co-llc$/);
      const row = c.body.data.fleet.find((f: any) => f.vessel.imo === 9244661);
      assert.deepEqual(row, {
        vessel: { id: "9244661", imo: 9244661, mmsi: null, name: "ALASKAN EXPLORER", api: row.vessel.api, page: row.vessel.page },
        role: "operator",
        evidence: "Operator: Alaska Tanker Co LLC",
        sources: ["marad"],
        // No list designates it (none is loaded here).
        sanctioned: [],
      });
      assert.match(row.vessel.api, /\/api\/v1\/vessels\/9244661$/);
      assert.deepEqual(c.body.sources, ["marad"]);
      assert.deepEqual(c.body.withheld, []);

      // The vessel page's companies come from the same record.
      const v = await get(t, "/api/v1/vessels/9244661", key);
      assert.equal(v.status, 200);
      assert.deepEqual(
        v.body.data.companies.map((x: any) => [x.role, x.name, x.entityId, x.evidence, x.sources]),
        [["operator", "Alaska Tanker Co LLC", "marad-name-alaska-tanker-co-llc", "Operator: Alaska Tanker Co LLC", ["marad"]]],
      );
    });

    it("after an OFAC import a ship's Linked To: company is a company with the ship in its fleet and its own designation", async () => {
      await importSanctionsFiles(
        t.service.services,
        "ofac",
        [
          { name: "SDN.CSV", bytes: readFileSync(OFAC_2024_05_03) },
          { name: "SDN-entities.CSV", bytes: Buffer.from(NITC_ENTITY) },
        ],
        "test",
        { asOf: "2024-05-03" },
      );
      await t.service.services.vessels.refresh(t.clock.now());
      // ARTAVIL (IMO 9187629): "Linked To: NATIONAL IRANIAN TANKER COMPANY."
      const v = await get(t, "/api/v1/vessels/9187629", key);
      assert.equal(v.status, 200);
      const linked = v.body.data.companies.find((x: any) => x.name === "NATIONAL IRANIAN TANKER COMPANY");
      assert.ok(linked, JSON.stringify(v.body.data.companies));
      assert.equal(linked.role, "linked");
      assert.equal(linked.evidence, "Linked To: NATIONAL IRANIAN TANKER COMPANY");
      // The company IMO number is the strongest identifier the record carries.
      assert.equal(linked.entityId, "imo-5000001");
      // Its own status: OFAC designates the company itself (record 9702), and the list rests behind that.
      assert.deepEqual(linked.sanctioned, ["ofac"]);

      const c = await get(t, `/api/v1/companies/${linked.entityId}`, key);
      assert.equal(c.status, 200, JSON.stringify(c.body));
      assert.deepEqual(c.body.data.designations.map((d: any) => [d.list, d.recordId, d.programs]), [["ofac", "9702", ["IRAN", "NPWMD"]]]);
      const ship = c.body.data.fleet.find((f: any) => f.vessel.imo === 9187629);
      assert.deepEqual([ship.role, ship.evidence, ship.sources], ["linked", "Linked To: NATIONAL IRANIAN TANKER COMPANY", ["ofac"]]);
      // The fleet says which ships a list designates now: ARTAVIL is on the SDN list.
      assert.deepEqual(ship.sanctioned, ["ofac"]);
      assert.ok(c.body.data.fleet.length > 1, "NITC has more than one linked tanker in the 2024-05-03 list");
      assert.deepEqual(c.body.data.records[0].aliases, ["NITC"]);
      // The list's own record id resolves to the same company, and so does the page form.
      for (const id of ["ofac-9702", "OFAC-9702", "imo-5000001-national-iranian-tanker-company"]) {
        const again = await get(t, `/api/v1/companies/${id}`, key);
        assert.equal(again.status, 200, id);
        assert.equal(again.body.id, "imo-5000001", id);
      }
      // A "Linked To:" company with no entity row on the list is a company of that name on that list.
      // THEODOROS (IMO 6421660): "Linked To: ADJ TRADING LIMITED."
      const theodoros = await get(t, "/api/v1/vessels/6421660", key);
      const adj = theodoros.body.data.companies.find((x: any) => x.name === "ADJ TRADING LIMITED");
      assert.equal(adj?.entityId, "ofac-name-adj-trading-limited");
      const b = await get(t, "/api/v1/companies/ofac-name-adj-trading-limited", key);
      assert.equal(b.status, 200);
      assert.deepEqual(b.body.data.designations, []);
      // A person a ship is linked to ("Linked To: ADONEV, Sergei Nikolaevich.") is no company.
      const people = await get(t, "/api/v1/search?q=adonev&kind=company", key);
      assert.deepEqual(people.body.data, []);
    });

    it("re-importing a source keeps ids and replaces its rows, never duplicating them", async () => {
      const before = await get(t, "/api/v1/companies/marad-name-alaska-tanker-co-llc", key);
      await t.service.services.companies.replaceSource("marad", (await t.service.services.companies.resolve({ kind: "record", value: "marad-name-alaska-tanker-co-llc" })));
      const again = await get(t, "/api/v1/companies/marad-name-alaska-tanker-co-llc", key);
      assert.equal(again.status, 200);
      assert.deepEqual(again.body.data.fleet, before.body.data.fleet);
    });

    it("a malformed id is a 400 naming the parameter; an unknown one a 404 naming the id", async () => {
      for (const bad of ["x", "imo-12", "lei-ABC", "a b", "-ofac", "ofac-", "ofac--1"]) {
        const r = await get(t, `/api/v1/companies/${encodeURIComponent(bad)}`, key);
        assert.equal(r.status, 400, bad);
        assert.equal(r.body.error.code, "invalid_parameter", bad);
        assert.equal(r.body.error.param, "entityId", bad);
      }
      const r = await get(t, "/api/v1/companies/ofac-999999999", key);
      assert.equal(r.status, 404);
      assert.match(r.body.error.message, /ofac-999999999/);
    });
  });
}
