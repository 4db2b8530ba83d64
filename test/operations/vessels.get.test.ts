import assert from "node:assert/strict";
import { slugify } from "../../src/domain/pages/page-paths.ts";
import { after, before, describe, it } from "node:test";
import { ENGINES, get } from "../helpers/service.ts";
import { importFile, importUkCsv, OFAC_2024_05_03, screenAll } from "../helpers/sanctions.ts";
import { DAY, identity, imoOf, MIN, startVesselService, station, type VesselTestService, writeFixes, writeTrack } from "../helpers/vessels.ts";

const iso = (t: number) => new Date(t).toISOString();


const A = 244_000_001;
const B = 244_000_002;
const IMO_A = 9_074_729;

for (const engine of ENGINES) {
  describe(`vessel pages and the registry (${engine})`, () => {
    let t: VesselTestService;
    let now: number;
    let shared: Awaited<ReturnType<typeof station>>;
    let priv: Awaited<ReturnType<typeof station>>;
    let other: { key: string; accountId: string; keyId: string };
    let anonymousCalls = 0;
    /** `null`: without a key, each call from an address of its own (calls without a key are limited per address). */
    const page = async (id: string | number, key: string | null = other.key) => {
      if (key !== null) return get(t, `/api/v1/vessels/${id}`, key);
      const res = await t.service.app.inject({ method: "GET", url: `/api/v1/vessels/${id}`, remoteAddress: `192.0.2.${++anonymousCalls}` });
      return { status: res.statusCode, headers: res.headers, body: res.json() as Record<string, any> };
    };
    const sql = () => t.service.store.db;

    before(async () => {
      // The UK list is not cleared for the API here: its designations are withheld.
      t = await startVesselService(engine, { deniedSources: ["uk"] });
      now = t.clock.now();
      shared = await station(t, "pro", true);
      priv = await station(t, "pro");
      other = await t.key("scale");
      await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
      await importUkCsv(t, { asOf: "2026-04-29" });

      await identity(t, { stationId: shared.id, mmsi: A, imo: IMO_A, name: "PUBLIC NAME", callsign: "PBLC", shipType: 70, toBow: 100, toStern: 50, toPort: 10, toStarboard: 12, draught: 7.5 }, false);
      await identity(t, { stationId: priv.id, mmsi: B, name: "HIDDEN BOAT" }, false);
      await writeFixes(t, [
        { mmsi: A, time: now - 30 * MIN, stationId: shared.id, lat: 54.1, lon: 10.1, sog: 12, cog: 90, heading: 91, navStatus: 0 },
        { mmsi: A, time: now - 5 * MIN, stationId: priv.id, lat: 54.2, lon: 10.2, sog: 11, cog: 91, heading: 92, navStatus: 5 },
        { mmsi: B, time: now - 2 * MIN, stationId: priv.id, lat: 54.3, lon: 10.3, sog: 3, cog: 180, heading: 180, navStatus: 0 },
      ]);
      const r = await t.service.services.vessels.refresh(now);
      // The imports linked their versions themselves: the refresh has only the AIS identities left.
      assert.ok(r.sanctionsDesignations === 0 && r.aisIdentities === 2, JSON.stringify(r));
    });
    after(() => t.close());

    it("an IMO in the EU MRV data: its emissions per year with EMSA's attribution", async () => {
      const row = await sql().selectFrom("vessel_emissions").select("imo").groupBy("imo").having((eb) => eb.fn.countAll(), "=", 5).orderBy("imo").limit(1).executeTakeFirstOrThrow();
      const reports = await sql().selectFrom("vessel_emissions").selectAll().where("imo", "=", row.imo).orderBy("year").execute();
      const r = await page(row.imo);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.type, "vessel");
      assert.equal(r.body.apiVersion, "preview");
      assert.equal(r.body.imo, row.imo);
      assert.equal(r.body.name, reports.at(-1)!.name);
      // The canonical page address: IMO, then the name as a slug.
      assert.match(r.body.page, new RegExp(`/vessel/${row.imo}-${slugify(reports.at(-1)!.name)}$`));
      assert.equal(r.body.generatedAt, iso(now));
      assert.deepEqual(
        r.body.data.emissions,
        reports.map((e) => ({ year: e.year, co2T: e.co2_t, fuelT: e.fuel_t, timeAtSeaH: e.time_at_sea_h })),
      );
      assert.ok(r.body.sources.includes("emsa_mrv"));
      assert.ok(r.body.attribution.includes("Source: EMSA THETIS-MRV"));
      assert.ok(r.body.license.some((l: string) => l.includes("2011/833/EU")));
      // Every section is there; the ones without data are empty, not errors.
      for (const k of ["identity", "otherNames", "particulars", "lastPosition", "portCalls", "inspections", "emissions", "sanctions", "companies"]) assert.ok(k in r.body.data, k);
      assert.deepEqual([r.body.data.portCalls, r.body.data.inspections, r.body.data.companies, r.body.data.lastPosition], [[], [], [], null]);
      assert.equal(r.body.data.particulars.shipType, reports.at(-1)!.ship_type);
      assert.deepEqual(r.body.withheld, []);
    });

    it("names over time: the latest is the name, earlier ones are other names with their sources and years", async () => {
      const renamed = await sql()
        .selectFrom("vessel_emissions")
        .select(["imo"])
        .groupBy("imo")
        .having((eb) => eb.fn.count("name").distinct(), ">", 1)
        .orderBy("imo")
        .limit(1)
        .executeTakeFirstOrThrow();
      const reports = await sql().selectFrom("vessel_emissions").select(["year", "name"]).where("imo", "=", renamed.imo).orderBy("year").execute();
      const r = await page(renamed.imo);
      assert.equal(r.body.data.identity.name, reports.at(-1)!.name);
      const older = reports.find((x) => x.name !== reports.at(-1)!.name)!;
      const other = r.body.data.otherNames.find((n: { name: string }) => n.name === older.name);
      assert.ok(other, JSON.stringify(r.body.data.otherNames));
      assert.deepEqual(other.sources, ["emsa_mrv"]);
      assert.equal(other.firstSeen.slice(0, 4), String(reports.find((x) => x.name === older.name)!.year));
    });

    it("a ship of the MARAD fleet list: its operator as a company and its particulars", async () => {
      const r = await page(9_244_661);
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.body.data.companies.map(({ role, name, sources, entityId, evidence }: Record<string, unknown>) => ({ role, name, sources, entityId, evidence })),
        [{ role: "operator", name: "Alaska Tanker Co LLC", sources: ["marad"], entityId: "marad-name-alaska-tanker-co-llc", evidence: "Operator: Alaska Tanker Co LLC" }],
      );
      assert.equal(r.body.data.particulars.grossTons, 110_693);
      assert.equal(r.body.data.particulars.yearBuilt, 2005);
      assert.ok(r.body.attribution.some((a: string) => a.includes("MARAD")));
    });

    it("sanctions: the same designations as screening the ship gives", async () => {
      const ofac = await t.service.services.sanctions.listActive("ofac", 0, 1000);
      const imos = [...new Set(ofac.flatMap((d) => d.record.imos))].slice(0, 8);
      assert.ok(imos.length >= 5);
      const screened = await screenAll(t, other.key, imos.map(String));
      for (const [i, imo] of imos.entries()) {
        const r = await page(imo);
        assert.equal(r.status, 200, `${imo}: ${JSON.stringify(r.body)}`);
        const s = screened[i];
        const expected = [...s.activeDesignations, ...s.pastDesignations].map((d: { list: string; recordId: string }) => `${d.list}:${d.recordId}`).sort();
        assert.deepEqual(r.body.data.sanctions.map((d: { list: string; recordId: string }) => `${d.list}:${d.recordId}`).sort(), expected, String(imo));
        assert.ok(r.body.data.sanctions.every((d: { active: boolean; matchedOn: string }) => typeof d.active === "boolean" && ["imo", "mmsi"].includes(d.matchedOn)));
      }
    });

    it("a list not cleared for the API: its designations are withheld and counted, and so is the name it alone gives", async () => {
      const uk = await t.service.services.sanctions.listActive("uk", 0, 1000);
      const ofacImos = new Set((await t.service.services.sanctions.findByIdentifiers({ imos: uk.flatMap((d) => d.record.imos), mmsis: [], lists: ["ofac"] })).map((h) => h.value));
      const ukOnly = uk.flatMap((d) => d.record.imos).find((imo) => !ofacImos.has(imo) && imo !== IMO_A)!;
      const known = await sql().selectFrom("vessel_emissions").select("imo").where("imo", "=", ukOnly).executeTakeFirst();
      const r = await page(ukOnly);
      assert.equal(r.status, 200);
      assert.ok(!r.body.data.sanctions.some((d: { family: string }) => d.family === "uk"));
      const entry = r.body.withheld.find((w: { section: string }) => w.section === "sanctions");
      assert.deepEqual(entry.sources, ["uk"]);
      assert.ok(entry.rows >= 1);
      assert.equal(entry.reason, "source_not_licensed_for_api");
      if (!known) {
        assert.equal(r.body.name, null, "the name only the UK list gives");
        assert.equal(r.body.data.identity, null);
      }
      assert.ok(!r.body.sources.includes("uk"));
    });

    it("a station owner sees their station's last position; another account sees the shared one and no trace of the private", async () => {
      const mine = await page(IMO_A, priv.key);
      assert.equal(mine.status, 200);
      assert.deepEqual(mine.body.data.lastPosition, { time: iso(now - 5 * MIN), lat: 54.2, lon: 10.2, sog: 11, cog: 91, heading: 92, navStatus: "moored", source: `station:${priv.id}`, sourceName: "Receiving stations of this service's users", ageSeconds: 300 });

      for (const key of [other.key, null]) {
        const theirs = await page(IMO_A, key);
        assert.equal(theirs.status, 200);
        assert.equal(theirs.body.data.lastPosition.source, `station:${shared.id}`);
        assert.equal(theirs.body.data.lastPosition.time, iso(now - 30 * MIN));
        assert.ok(!JSON.stringify(theirs.body).includes(`station:${priv.id}`));
        assert.deepEqual(theirs.body.withheld, []);
      }

      const ownB = await page(`mmsi-${B}`, priv.key);
      assert.equal(ownB.status, 200);
      assert.equal(ownB.body.name, "HIDDEN BOAT");
      assert.equal(ownB.body.data.lastPosition.source, `station:${priv.id}`);
      for (const key of [other.key, null]) {
        const r = await page(`mmsi-${B}`, key);
        assert.equal(r.status, 404, "a ship only a private station heard does not exist for others");
        assert.equal(r.body.error.code, "not_found");
      }
    });

    it("identity from the shared station's broadcast: call sign, dimensions, draught", async () => {
      const r = await page(IMO_A);
      assert.deepEqual(
        { name: r.body.name, mmsi: r.body.mmsi, callsign: r.body.data.identity.callsign },
        { name: "PUBLIC NAME", mmsi: A, callsign: "PBLC" },
      );
      assert.deepEqual([r.body.data.particulars.lengthM, r.body.data.particulars.beamM, r.body.data.particulars.draughtM, r.body.data.particulars.aisShipType], [150, 22, 7.5, 70]);
      assert.deepEqual(r.body.data.identity.mmsiHistory.map((h: { mmsi: number }) => h.mmsi), [A]);
    });

    it("an MMSI change is a new link of the same IMO, not an overwrite", async () => {
      const imo = imoOf(100_001);
      await identity(t, { stationId: shared.id, mmsi: 244_000_011, imo, name: "OLD NAME", updatedAt: now - 10 * DAY });
      await identity(t, { stationId: shared.id, mmsi: 244_000_012, imo, name: "NEW NAME", updatedAt: now - DAY });
      const r = await page(imo);
      assert.equal(r.status, 200);
      assert.equal(r.body.mmsi, 244_000_012);
      assert.equal(r.body.name, "NEW NAME");
      assert.deepEqual(r.body.data.identity.mmsiHistory.map((h: { mmsi: number }) => h.mmsi), [244_000_012, 244_000_011]);
      assert.deepEqual(r.body.data.otherNames.map((n: { name: string }) => n.name), ["OLD NAME"]);
      const byOld = await page("mmsi-244000011");
      assert.equal(byOld.body.imo, imo, "the former MMSI still leads to the ship");
      assert.equal(byOld.body.mmsi, 244_000_011);
    });

    it("an MMSI passed on to another ship links both, merges neither, and now names the newer", async () => {
      const [d, e] = [imoOf(100_002), imoOf(100_003)];
      await identity(t, { stationId: shared.id, mmsi: 244_000_013, imo: d, name: "DELTA ONE", updatedAt: now - 20 * DAY });
      await identity(t, { stationId: shared.id, mmsi: 244_000_013, imo: e, name: "ECHO TWO", updatedAt: now - 2 * DAY });
      const pd = await page(d);
      const pe = await page(e);
      assert.equal(pd.body.name, "DELTA ONE");
      assert.equal(pe.body.name, "ECHO TWO");
      assert.deepEqual(pe.body.data.otherNames, [], "the other ship's name is not this ship's former name");
      assert.deepEqual(pd.body.data.otherNames, []);
      assert.equal((await page("mmsi-244000013")).body.imo, e);

      // Fixes of the MMSI since the newer ship took it over are the newer ship's.
      await writeTrack(t, shared.id, 244_000_013, now - 3 * 60 * MIN, now, MIN);
      assert.equal((await page(d)).body.data.lastPosition, null);
      assert.equal((await page(e)).body.data.lastPosition.time, iso(now - MIN));
      const track = async (id: string | number) => (await get(t, `/api/v1/vessels/${id}/track?hours=24`, other.key)).body.count;
      assert.deepEqual([await track(d), await track(e), await track("mmsi-244000013")], [0, 180, 180]);
    });

    it("an IMO failing its check digit links nothing to that number: the ship stays known by its MMSI", async () => {
      await identity(t, { stationId: shared.id, mmsi: 244_000_014, imo: 1_234_568, name: "NO CHECK DIGIT" });
      assert.equal(await t.service.services.vessels.findByImo(1_234_568, [shared.id]), null);
      const r = await page("mmsi-244000014");
      assert.equal(r.status, 200);
      assert.equal(r.body.imo, null);
      assert.equal(r.body.name, "NO CHECK DIGIT");
      assert.match(r.body.page, /\/vessel\/mmsi-244000014$/);
    });

    it("a ship heard by a visible station but not linked yet still has a page", async () => {
      await writeTrack(t, shared.id, 244_000_016, now - 10 * MIN, now, MIN);
      const r = await page("mmsi-244000016");
      assert.equal(r.status, 200);
      assert.equal(r.body.mmsi, 244_000_016);
      assert.equal(r.body.data.lastPosition.source, `station:${shared.id}`);
      assert.equal(r.body.data.identity.name, null);
    });

    it("auth is optional: without a key it is free, with a key it costs 1", async () => {
      assert.equal((await page(9_244_661, null)).headers["x-credits-cost"], "0");
      assert.equal((await page(9_244_661)).headers["x-credits-cost"], "1");
    });

    const garbage = ["123", "9074728", "12345678", "mmsi-1234", "mmsi-0000000000", "mmsi-abcdefghi", "IMO9074729", "imo-9074729", "%20", "9074729%00", "-9074729", "9.07e6"];
    for (const id of garbage) {
      it(`garbage id ${JSON.stringify(id)}: 400 naming \`id\`, not charged`, async () => {
        const r = await page(id);
        assert.equal(r.status, 400, JSON.stringify(r.body));
        assert.equal(r.body.error.code, "invalid_parameter");
        assert.equal(r.body.error.param, "id");
        assert.equal(r.headers["x-credits-cost"], "0");
      });
    }

    it("unknown ships are 404, not charged", async () => {
      for (const id of [String(imoOf(100_099)), "mmsi-999999999"]) {
        const r = await page(id);
        assert.equal(r.status, 404, id);
        assert.equal(r.headers["x-credits-cost"], "0");
      }
    });
  });
}
