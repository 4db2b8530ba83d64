import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { normalizeName } from "../../src/domain/vessels/names.ts";
import { ENGINES, get } from "../helpers/service.ts";
import { fix, identity, imoOf, startVesselService, station, type VesselTestService, used, writeFixes } from "../helpers/vessels.ts";

for (const engine of ENGINES) {
  describe(`search (${engine})`, () => {
    let t: VesselTestService;
    let shared: Awaited<ReturnType<typeof station>>;
    let priv: Awaited<ReturnType<typeof station>>;
    let other: { key: string; accountId: string; keyId: string };
    const search = (query: string, key = other.key) => get(t, `/api/v1/search?${query}`, key);
    const names = (body: Record<string, any>) => body.data.map((h: { name: string }) => h.name);

    before(async () => {
      t = await startVesselService(engine);
      shared = await station(t, "pro", true);
      priv = await station(t, "pro");
      other = await t.key("scale");
      // Names no bundled dataset holds, one of each rank, heard by the shared station (WOMBAT STAR and the private one broadcast a ship type).
      await identity(t, { stationId: shared.id, mmsi: 244_000_101, imo: imoOf(200_001), name: "WOMBAT STAR", shipType: 70 }, false);
      await identity(t, { stationId: shared.id, mmsi: 244_000_102, name: "BLUE WOMBAT" }, false);
      await identity(t, { stationId: shared.id, mmsi: 244_000_103, name: "SUPERWOMBATS" }, false);
      await identity(t, { stationId: shared.id, mmsi: 244_000_104, name: "WOMBAT" }, false);
      await identity(t, { stationId: priv.id, mmsi: 244_000_105, name: "SECRET WOMBAT", shipType: 80 }, false);
      await t.service.services.vessels.refresh(t.clock.now());
    });
    after(() => t.close());

    it("ranks the whole name first, then names starting with the query, then a later word, then inside a word", async () => {
      const r = await search("q=wombat&kind=vessel");
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.type, "search");
      assert.equal(r.body.apiVersion, "1");
      assert.deepEqual(names(r.body), ["WOMBAT", "WOMBAT STAR", "BLUE WOMBAT", "SUPERWOMBATS"]);
      assert.deepEqual(r.body.data.map((h: { match: string }) => h.match), ["name", "name", "word", "substring"]);
      assert.equal(r.body.count, 4);
      const star = r.body.data[1];
      assert.deepEqual(
        { kind: star.kind, id: star.id, imo: star.imo, mmsi: star.mmsi },
        { kind: "vessel", id: String(imoOf(200_001)), imo: imoOf(200_001), mmsi: 244_000_101 },
      );
      assert.match(star.api, new RegExp(`/api/v1/vessels/${imoOf(200_001)}$`));
      assert.match(star.page, new RegExp(`/vessel/${imoOf(200_001)}-wombat-star$`));
      assert.equal(r.body.data[2].id, "mmsi-244000102");
      assert.equal(r.headers["x-credits-cost"], "1");
    });

    it("vessel type and flag are never in hits: one entry says so for the vessel hits, naming the sources that hold them, with a reason that is not their rights", async () => {
      const r = await search("q=wombat");
      // A vessel hit says which lists designate it now (none here), never its type or flag.
      for (const h of r.body.data) assert.deepEqual(Object.keys(h).sort(), ["api", "id", "imo", "kind", "match", "mmsi", "name", "page", ...(h.kind === "vessel" ? ["sanctioned"] : [])]);
      assert.ok(r.body.data.some((h: { kind: string; sanctioned?: string[] }) => h.kind === "vessel" && h.sanctioned?.length === 0));
      // Four vessel hits; only WOMBAT STAR's type is held, by the station that heard its ship type.
      assert.deepEqual(r.body.withheld, [{ section: "vessel.vesselType,vessel.flag", sources: [`station:${shared.id}`], rows: 4, reason: "source_not_licensed_for_api" }]);
      // VÆRØY's name and type come from EU MRV, a cleared source: named as the holder, not blamed for a right it grants.
      const mrv = await search("q=vaeroy&kind=vessel");
      assert.equal(mrv.body.data[0].name, "VÆRØY");
      assert.ok(mrv.body.sources.includes("emsa_mrv"));
      assert.deepEqual(mrv.body.withheld, [{ section: "vessel.vesselType,vessel.flag", sources: ["emsa_mrv"], rows: mrv.body.data.length, reason: "source_not_licensed_for_api" }]);
      // No vessel hit, no entry.
      assert.deepEqual((await search("q=rotterdam&kind=port")).body.withheld, []);
    });

    it("finds ports by name: Rotterdam and Shanghai first, exact name before prefix", async () => {
      const rotterdam = await search("q=rotterdam&kind=port");
      assert.equal(rotterdam.status, 200);
      assert.deepEqual([rotterdam.body.data[0].kind, rotterdam.body.data[0].id, rotterdam.body.data[0].match], ["port", "NLRTM", "name"]);
      assert.match(rotterdam.body.data[0].api, /\/api\/v1\/ports\/NLRTM$/);
      assert.equal((await search("q=shanghai&kind=port")).body.data[0].id, "CNSGH");
      assert.equal((await search("q=Hamburg&kind=port")).body.data[0].id, "DEHAM");
      // A prefix finds it too, after ports whose whole name is the query.
      const prefix = await search("q=rotterd&kind=port");
      assert.ok(prefix.body.data.some((h: { id: string }) => h.id === "NLRTM"));
      // Across kinds: the UN/LOCODE identifier first, then the exact name.
      const all = await search("q=nlrtm");
      assert.equal(all.body.data[0].id, "NLRTM");
      const mixed = await search("q=netherlands");
      assert.equal(mixed.body.data[0].id, "NL", "the exact country name before any prefix");
    });

    it("a name only a private station heard is found by its owner and by no one else, who sees no trace of it", async () => {
      const mine = await search("q=secret wombat", priv.key);
      assert.deepEqual(names(mine.body), ["SECRET WOMBAT"]);
      // Its owner is told their station holds its type.
      assert.deepEqual(mine.body.withheld, [{ section: "vessel.vesselType,vessel.flag", sources: [`station:${priv.id}`], rows: 1, reason: "source_not_licensed_for_api" }]);
      const theirs = await search("q=secret wombat");
      assert.deepEqual(theirs.body.data, []);
      assert.deepEqual(theirs.body.withheld, []);
      const all = await search("q=wombat");
      assert.ok(!JSON.stringify(all.body).includes("SECRET"));
      assert.ok(!JSON.stringify(all.body.withheld).includes(`station:${priv.id}`));
      assert.deepEqual(all.body.withheld, [{ section: "vessel.vesselType,vessel.flag", sources: [`station:${shared.id}`], rows: 4, reason: "source_not_licensed_for_api" }]);
      assert.equal(all.body.count, 4);
      assert.equal((await search("q=244000105")).body.count, 0);
    });

    it("case, accents and punctuation do not matter", async () => {
      // VÆRØY and FÆRØY are EU MRV names; Æ folds to "ae", Ø to "o".
      for (const q of ["vaeroy", "VÆRØY", "værøy", "Vae-Roy".replace("-", ""), "  væRøy  "]) {
        const r = await search(`q=${encodeURIComponent(q)}&kind=vessel`);
        assert.equal(r.status, 200);
        assert.equal(r.body.data[0]?.name, "VÆRØY", q);
        assert.equal(r.body.data[0].match, "name");
      }
      const r = await search(`q=${encodeURIComponent("Wombat-Star!")}`);
      assert.equal(r.body.data[0].name, "WOMBAT STAR");
      assert.equal(normalizeName("Ærø Sø-Ærø"), "aero so aero");
    });

    it("an IMO, an MMSI, an mmsi- id, a UN/LOCODE and an ISO code find what they name, first", async () => {
      const imo = await search(`q=${imoOf(200_001)}`);
      assert.deepEqual([imo.body.data[0].name, imo.body.data[0].match], ["WOMBAT STAR", "imo"]);
      const imoText = await search(`q=${encodeURIComponent(`IMO ${imoOf(200_001)}`)}`);
      assert.equal(imoText.body.data[0].name, "WOMBAT STAR");
      const mmsi = await search("q=244000102");
      assert.deepEqual([mmsi.body.data[0].id, mmsi.body.data[0].match, mmsi.body.data[0].mmsi], ["mmsi-244000102", "mmsi", 244_000_102]);
      assert.equal((await search("q=mmsi-244000103")).body.data[0].name, "SUPERWOMBATS");
      const port = await search("q=nlrtm");
      assert.deepEqual([port.body.data[0].kind, port.body.data[0].id, port.body.data[0].name, port.body.data[0].match], ["port", "NLRTM", "Rotterdam", "unlocode"]);
      assert.match(port.body.data[0].api, /\/api\/v1\/ports\/NLRTM$/);
      assert.ok(port.body.sources.includes("unlocode"));
      const flag = await search("q=pa&kind=flag");
      assert.deepEqual([flag.body.data[0].kind, flag.body.data[0].id, flag.body.data[0].match], ["flag", "PA", "iso2"]);
      const byName = await search("q=netherlands&kind=flag");
      assert.deepEqual(byName.body.data.map((h: { id: string }) => h.id), ["NL"]);
      const mrv = await search("q=9607382");
      assert.deepEqual([mrv.body.data[0].name, mrv.body.data[0].imo], ["VÆRØY", 9_607_382]);
    });

    it("kind filters: only the kinds asked for", async () => {
      assert.deepEqual((await search("q=nlrtm&kind=vessel")).body.data, []);
      const ports = await search("q=nlrtm&kind=port,flag");
      assert.deepEqual(ports.body.data.map((h: { kind: string }) => h.kind), ["port"]);
      const vessels = await search("q=star&kind=vessel");
      assert.ok(vessels.body.data.length > 0 && vessels.body.data.every((h: { kind: string }) => h.kind === "vessel"));
      assert.ok(vessels.body.count <= 20);
      assert.ok((await search("q=star&kind=VESSEL,%20port")).status === 200);
    });

    const garbage: [string, string, string][] = [
      ["no q", "kind=vessel", "q"],
      ["one character", "q=a", "q"],
      ["blanks", "q=%20%20%20", "q"],
      ["101 characters", `q=${"a".repeat(101)}`, "q"],
      ["punctuation only", "q=%21%3F%2A", "q"],
      ["a control character", "q=%00%01", "q"],
      ["q twice", "q=star&q=moon", "q"],
      ["an unknown kind", "q=star&kind=ship", "kind"],
      ["an empty kind", "q=star&kind=,", "kind"],
      ["an unknown parameter", "q=star&limit=5", "limit"],
    ];
    for (const [name, query, param] of garbage) {
      it(`${name}: 400 naming \`${param}\`, not charged`, async () => {
        const k = await t.key("scale");
        const r = await search(query, k.key);
        assert.equal(r.status, 400, JSON.stringify(r.body));
        assert.equal(r.body.error.code, "invalid_parameter");
        assert.equal(r.body.error.param, param);
        assert.equal(await used(t, k), 0);
      });
    }

    it("100 characters, odd scripts and SQL look-alikes are searched, not errors", async () => {
      for (const q of ["a".repeat(100), "ΑΘΗΝΑ", "Москва", "'; DROP TABLE vessels; --", "%_%", "東京"]) {
        const r = await search(`q=${encodeURIComponent(q)}`);
        assert.equal(r.status, q === "%_%" ? 400 : 200, `${q}: ${JSON.stringify(r.body).slice(0, 200)}`);
      }
      assert.equal((await search("q=wombat")).body.count, 4, "still all there");
    });

    it("by MMSI, a ship heard only through position reports is found, as its vessel answer is (a private station's stays hidden)", async () => {
      const now = t.clock.now();
      await writeFixes(t, [fix(shared.id, 244_000_199, now - 60_000)]);
      await writeFixes(t, [fix(priv.id, 244_000_198, now - 60_000)]);
      assert.equal((await get(t, "/api/v1/vessels/mmsi-244000199", other.key)).status, 200);
      for (const q of ["244000199", "mmsi-244000199"]) {
        const r = await search(`q=${q}`);
        assert.equal(r.status, 200);
        assert.deepEqual(
          r.body.data.map((h: { kind: string; id: string; mmsi: number }) => [h.kind, h.id, h.mmsi]),
          [["vessel", "mmsi-244000199", 244000199]],
          q,
        );
        assert.match(r.body.data[0].page, /\/vessel\/mmsi-244000199$/);
      }
      assert.equal((await search("q=244000198")).body.count, 0, "heard only by a station the caller may not see");
    });

    it("needs a key", async () => {
      const r = await get(t, "/api/v1/search?q=wombat");
      assert.equal(r.status, 401);
    });
  });
}
