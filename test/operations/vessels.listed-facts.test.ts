/**
 * Every fact a designation gives reaches the vessel (issue 25): the names, former names, MMSIs,
 * call sign, flag and type a list's record gives are facts of that list on the vessel answer,
 * dated by the listing (never as sightings), searchable, and withheld where the list may not be
 * shown. Read from the real-schema OFAC extract of 2024-05-03: ARTAVIL (IMO 9187629) is
 * "f.k.a. 'ALPHA'", flag Iran, a crude oil tanker, call sign T2EU4, MMSI 572469210; PEGAS
 * (IMO 9256860), formerly PERUN, is TEXAS STAR in the EU MRV data of 2019.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ENGINES, get } from "../helpers/service.ts";
import { EU_CONSOLIDATED, importFile, OFAC_2024_05_03 } from "../helpers/sanctions.ts";
import { startVesselService, type VesselTestService } from "../helpers/vessels.ts";
import { callTool, connect, type McpTestService } from "../helpers/mcp.ts";
import { Ajv2020 } from "ajv/dist/2020.js";

const ARTAVIL = 9_187_629;
const PEGAS = 9_256_860;

/** How OFAC's 2024-05-03 version dates record 15036: no listing date in sdn.csv, in that one version. */
const ARTAVIL_LISTING = { source: "ofac", recordId: "15036", active: true, listedAt: null, firstInVersionOf: "2024-05-03", lastInVersionOf: "2024-05-03", delistedAt: null };

async function start(engine: (typeof ENGINES)[number], deniedSources?: string[]): Promise<McpTestService & VesselTestService> {
  const t = await startVesselService(engine, deniedSources ? { deniedSources } : {});
  await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
  await t.service.services.vessels.refresh(t.clock.now());
  const address = await t.service.app.listen({ port: 0, host: "127.0.0.1" });
  return Object.assign(t, { address });
}

for (const engine of ENGINES) {
  describe(`a list's facts on the vessel answer and in search (${engine})`, () => {
    let t: McpTestService & VesselTestService;
    let key: string;
    before(async () => {
      t = await start(engine);
      ({ key } = await t.key("scale"));
    });
    after(() => t.close());

    it("ARTAVIL (9187629): OFAC's former name ALPHA is among other names, with the list as source and dated by the listing, not as a sighting", async () => {
      const r = await get(t, `/api/v1/vessels/${ARTAVIL}`, key);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.name, "ARTAVIL");
      assert.deepEqual(r.body.data.otherNames, [{ name: "ALPHA", firstSeen: null, lastSeen: null, sources: ["ofac"], listed: [{ ...ARTAVIL_LISTING, as: "former_name" }] }]);
      // The MMSI the list gives is the list's, dated by it: no "first seen / last seen".
      assert.deepEqual(r.body.data.identity.mmsiHistory, [{ mmsi: 572_469_210, firstSeen: null, lastSeen: null, sources: ["ofac"], listed: [{ ...ARTAVIL_LISTING, current: true }] }]);
      assert.deepEqual(r.body.data.identity.listed, [{ ...ARTAVIL_LISTING, name: "ARTAVIL", callSign: "T2EU4" }]);
      assert.deepEqual(r.body.withheld, []);
      assert.ok(r.body.sources.includes("ofac"));
    });

    it("ARTAVIL: flag and type from OFAC, with the list as their source", async () => {
      const r = await get(t, `/api/v1/vessels/${ARTAVIL}`, key);
      const p = r.body.data.particulars;
      assert.ok(p, "particulars exist: the list gives them");
      assert.deepEqual(p.sources, [], "no registry dataset or station gives particulars of this ship");
      assert.deepEqual(p.listed, [
        {
          ...ARTAVIL_LISTING,
          vesselType: "Crude/Oil Products Tanker",
          flag: "Iran",
          flagIso2: "IR",
          formerFlags: ["Malta", "Tuvalu", "Tanzania"],
          tonnage: 99_144,
          grossTonnage: 56_068,
          yearBuilt: null,
        },
      ]);
    });

    it("search finds ARTAVIL by the former name OFAC gives, and links its page by its listed name", async () => {
      const s = await get(t, "/api/v1/search?q=alpha", key);
      assert.equal(s.status, 200, JSON.stringify(s.body));
      const hit = s.body.data.find((h: { id: string }) => h.id === String(ARTAVIL));
      assert.ok(hit, JSON.stringify(s.body.data.map((h: { id: string; name: string }) => [h.id, h.name])));
      assert.deepEqual([hit.kind, hit.name, hit.imo, hit.mmsi, hit.match], ["vessel", "ALPHA", ARTAVIL, 572_469_210, "name"]);
      assert.match(hit.page, /\/vessel\/9187629-artavil$/);
      assert.ok(s.body.sources.includes("ofac"));
      const byMmsi = await get(t, "/api/v1/search?q=572469210", key);
      assert.deepEqual(byMmsi.body.data.map((h: { id: string }) => h.id), [String(ARTAVIL)]);
    });

    it("search: the type and flag entry names the list among the sources holding them for the vessel hits, with a reason that is not a rights one", async () => {
      const s = await get(t, "/api/v1/search?q=artavil&kind=vessel", key);
      assert.deepEqual(s.body.withheld, [{ section: "vessel.vesselType,vessel.flag", sources: ["ofac"], rows: 1, reason: "source_not_licensed_for_api" }]);
      const alpha = await get(t, "/api/v1/search?q=alpha", key);
      const entry = alpha.body.withheld.find((w: { section: string }) => w.section === "vessel.vesselType,vessel.flag");
      assert.equal(entry.rows, alpha.body.data.filter((h: { kind: string }) => h.kind === "vessel").length);
      assert.ok(entry.sources.includes("ofac") && entry.sources.includes("emsa_mrv"), JSON.stringify(entry));
      assert.equal(entry.reason, "source_not_licensed_for_api");
    });

    it("the search page says type and flag are not part of results, apart from what sources withhold", async () => {
      const res = await t.service.app.inject({ method: "GET", url: "/search?q=artavil", remoteAddress: "10.77.0.2" });
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /id="not-in-hits" data-section="vessel.vesselType,vessel.flag">Vessel type and flag are not part of search results \(1 vessel listed\): open a vessel(?:&#39;|')s page to see them; for these vessels they come from OFAC Specially Designated Nationals list\. This is how search results are made, not a restriction of any source\./);
      assert.doesNotMatch(res.body, /data-section="vessel.vesselType,vessel.flag"><strong>/);
      assert.match(res.body, /id="withheld-none"/);
    });

    it("a ship the EU MRV data names otherwise: the list's listed and former names join its sighted names, each with its own dates", async () => {
      const r = await get(t, `/api/v1/vessels/${PEGAS}`, key);
      assert.equal(r.status, 200);
      // The list's version of 2024 is newer than the 2019 report: the listed name is the ship's name.
      assert.equal(r.body.name, "PEGAS");
      const byName = new Map(r.body.data.otherNames.map((n: { name: string }) => [n.name, n]));
      const texas = byName.get("TEXAS STAR") as Record<string, any>;
      assert.deepEqual([texas.sources, texas.firstSeen.slice(0, 4), texas.listed], [["emsa_mrv"], "2019", []]);
      const perun = byName.get("PERUN") as Record<string, any>;
      assert.deepEqual([perun.sources, perun.firstSeen, perun.lastSeen, perun.listed.map((l: { as: string }) => l.as)], [["ofac"], null, null, ["former_name"]]);
      assert.deepEqual(r.body.data.particulars.sources, ["emsa_mrv"]);
      assert.deepEqual(r.body.data.particulars.listed.map((l: { source: string; flag: string }) => [l.source, l.flag]), [["ofac", "Russia"]]);
    });

    it("the vessel page shows the list's names, flag, type and call sign with their source and what their dates mean", async () => {
      const res = await t.service.app.inject({ method: "GET", url: `/vessel/${ARTAVIL}-artavil`, remoteAddress: "10.77.0.1" });
      assert.equal(res.statusCode, 200);
      const body = res.body;
      const otherNames = body.slice(body.indexOf('id="other-names"'), body.indexOf("</table>", body.indexOf('id="other-names"')));
      assert.match(otherNames, /<td>ALPHA<\/td><td>not sighted<\/td><td>not sighted<\/td><td>OFAC Specially Designated Nationals list<\/td><td><code>ofac<\/code> record 15036 \(former name\): listing date not published; in the list&#39;s version of 2024-05-03<\/td>/);
      const mmsis = body.slice(body.indexOf('id="mmsi-history"'), body.indexOf("</table>", body.indexOf('id="mmsi-history"')));
      assert.match(mmsis, /<td>572469210<\/td><td>not sighted<\/td><td>not sighted<\/td>/);
      assert.doesNotMatch(mmsis, /2024-05-03 00:00 UTC/, "the list's date is not shown as a sighting");
      assert.match(body, /id="listed-identity"[\s\S]*<td>T2EU4<\/td>/);
      assert.match(body, /<dt>Call sign<\/dt><dd>T2EU4 \(as ofac lists it\)<\/dd>/);
      assert.match(body, /id="listed-particulars"[\s\S]*<td>Crude\/Oil Products Tanker<\/td><td>Iran \(IR\)<\/td>/);
    });

    it("the answers match the OpenAPI document's schemas, which carry the new fields", async () => {
      const doc = (await get(t, "/api/v1/openapi.json")).body;
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
      for (const [path, url] of [
        ["/api/v1/vessels/{id}", `/api/v1/vessels/${ARTAVIL}`],
        ["/api/v1/vessels/{id}", `/api/v1/vessels/${PEGAS}`],
      ]) {
        const text = JSON.stringify(doc.paths[path!].get.responses["200"].content["application/json"].schema);
        for (const field of ["listed", "firstInVersionOf", "former_name", "flagIso2"]) assert.ok(text.includes(field) || JSON.stringify(doc.components).includes(field), field);
        const validate = ajv.compile(JSON.parse(text.replaceAll('"#/components', '"doc#/components')));
        const r = await get(t, url!, key);
        assert.ok(validate(r.body), JSON.stringify(validate.errors?.slice(0, 3)));
      }
    });

    it("over MCP: get_vessel and search_entities give the list's facts too", async () => {
      const client = await connect(t, key);
      try {
        const v = await callTool(client, "get_vessel", { id: String(ARTAVIL) });
        assert.ok(!v.isError, v.content[0]?.text);
        const data = v.structuredContent!.data;
        assert.deepEqual(data.otherNames.map((n: { name: string; sources: string[] }) => [n.name, n.sources]), [["ALPHA", ["ofac"]]]);
        assert.deepEqual(data.particulars.listed.map((l: { flag: string; vesselType: string; source: string }) => [l.source, l.flag, l.vesselType]), [["ofac", "Iran", "Crude/Oil Products Tanker"]]);
        const s = await callTool(client, "search_entities", { q: "alpha", kind: "vessel" });
        assert.ok(!s.isError, s.content[0]?.text);
        assert.ok(s.structuredContent!.data.some((h: { id: string }) => h.id === String(ARTAVIL)));
      } finally {
        await client.close();
      }
    });
  });

  describe(`every list's facts, with the list's own listing date (${engine})`, () => {
    let t: McpTestService & VesselTestService;
    let key: string;
    before(async () => {
      t = await start(engine);
      await importFile(t, "eu", [EU_CONSOLIDATED], { asOf: "2026-07-17" });
      await t.service.services.vessels.refresh(t.clock.now());
      ({ key } = await t.key("scale"));
    });
    after(() => t.close());

    it("EU Annex XLII: KAVYA (9353113), previously HANA, applied from 25.6.2024: the former name is the EU's, listed on that date, and search finds it", async () => {
      const r = await get(t, "/api/v1/vessels/9353113", key);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const hana = r.body.data.otherNames.find((n: { name: string }) => n.name.toUpperCase() === "HANA");
      assert.ok(hana, JSON.stringify(r.body.data.otherNames));
      assert.deepEqual([hana.firstSeen, hana.lastSeen, hana.sources], [null, null, ["eu"]]);
      const eu = hana.listed.find((l: { source: string }) => l.source === "eu");
      assert.deepEqual([eu.as, eu.listedAt, eu.active, eu.firstInVersionOf, eu.lastInVersionOf, eu.delistedAt], ["former_name", "2024-06-25", true, "2026-07-17", "2026-07-17", null]);
      const s = await get(t, "/api/v1/search?q=hana&kind=vessel", key);
      assert.ok(s.body.data.some((h: { id: string }) => h.id === "9353113"), JSON.stringify(s.body.data.map((h: { id: string; name: string }) => [h.id, h.name])));
    });
  });

  describe(`a list the caller may not see (${engine})`, () => {
    let t: McpTestService & VesselTestService;
    let key: string;
    before(async () => {
      t = await start(engine, ["ofac"]);
      ({ key } = await t.key("scale"));
    });
    after(() => t.close());

    it("its names, MMSIs and particulars are withheld, each with an entry naming the list; the MRV's own facts stay", async () => {
      const r = await get(t, `/api/v1/vessels/${PEGAS}`, key);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.data.otherNames.map((n: { name: string }) => n.name), ["TEXAS STAR"]);
      assert.deepEqual(r.body.data.particulars.sources, ["emsa_mrv"]);
      assert.deepEqual(r.body.data.particulars.listed, []);
      const entry = (section: string) => r.body.withheld.find((w: { section: string }) => w.section === section);
      assert.deepEqual(entry("otherNames"), { section: "otherNames", sources: ["ofac"], rows: 1, reason: "source_not_licensed_for_api" });
      assert.deepEqual(entry("particulars.listed"), { section: "particulars.listed", sources: ["ofac"], rows: 1, reason: "source_not_licensed_for_api" });
      // The name the list alone gives is the ship's name: identity goes with it.
      assert.equal(r.body.name, null);
      assert.deepEqual(entry("identity")?.sources, ["ofac"]);
      assert.ok(!r.body.sources.includes("ofac"));
      assert.doesNotMatch(JSON.stringify(r.body.data), /PERUN|PEGAS/);
    });

    it("search does not find a ship by the list's names: the hit is withheld and counted", async () => {
      const s = await get(t, "/api/v1/search?q=perun", key);
      assert.equal(s.status, 200);
      assert.ok(!s.body.data.some((h: { id: string }) => h.id === String(PEGAS)));
      const entry = s.body.withheld.find((w: { section: string }) => w.section === "vessels");
      assert.deepEqual([entry?.sources, entry?.rows >= 1], [["ofac"], true]);
      assert.doesNotMatch(JSON.stringify(s.body.data), /PERUN/);
      // Nor does the type and flag entry name a list the caller may not see as holding them.
      const alpha = await get(t, "/api/v1/search?q=alpha&kind=vessel", key);
      const typeAndFlag = alpha.body.withheld.find((w: { section: string }) => w.section === "vessel.vesselType,vessel.flag");
      assert.deepEqual([typeAndFlag.rows, typeAndFlag.sources.includes("ofac")], [alpha.body.data.length, false]);
    });
  });
}
