import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { normalizeName } from "../../src/domain/vessels/names.ts";
import { ENGINES, get, startTestService, type TestService } from "../helpers/service.ts";
import { writeSourcesFile } from "../helpers/sources-file.ts";

/** The shipped sources file with NOAA AWOIS not cleared for the API. */
const sourcesWithoutAwois = () =>
  writeSourcesFile((sources) => {
    for (const s of sources) if (s.id === "noaa_awois") s.permissions.api = false;
  });

for (const engine of ENGINES) {
  describe(`search across every kind (${engine})`, () => {
    let t: TestService;
    let key: string;
    const search = async (query: string) => {
      const r = await get(t, `/api/v1/search?${query}`, key);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body;
    };
    before(async () => {
      t = await startTestService({ engine });
      ({ key } = await t.key("scale"));
    });
    after(() => t.close());

    it("finds a wreck by name and by its AWOIS number, the number first", async () => {
      const byName = await search("q=algeria&kind=wreck");
      assert.deepEqual(byName.data[0], {
        kind: "wreck",
        id: "14296",
        name: "ALGERIA",
        imo: null,
        mmsi: null,
        match: "name",
        api: byName.data[0].api,
        page: byName.data[0].page,
      });
      assert.match(byName.data[0].page, /\/wreck\/14296-algeria$/);
      const byId = await search("q=14296");
      assert.deepEqual([byId.data[0].kind, byId.data[0].id, byId.data[0].match], ["wreck", "14296", "id"]);
      assert.deepEqual(byId.withheld, []);
    });

    it("finds a waterway by name and by its id, and its page link opens the waterway page", async () => {
      const byName = await search("q=dover%20strait&kind=waterway");
      assert.deepEqual([byName.data[0].kind, byName.data[0].id, byName.data[0].name, byName.data[0].match], ["waterway", "chokepoint9", "Dover Strait", "name"]);
      assert.match(byName.data[0].page, /\/waterway\/chokepoint9-dover-strait$/);
      const byId = await search("q=kiel-canal");
      assert.deepEqual([byId.data[0].kind, byId.data[0].id, byId.data[0].match], ["waterway", "kiel-canal", "id"]);
      const page = await t.service.app.inject({ method: "GET", url: new URL(byName.data[0].page).pathname });
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers["content-type"]), /text\/html/);
      assert.deepEqual((await search("q=dover&kind=waterway")).withheld, []);
    });

    it("finds a company by name and by its entity id", async () => {
      const byName = await search("q=alaska%20tanker");
      const hit = byName.data.find((h: any) => h.kind === "company");
      assert.equal(hit?.id, "marad-name-alaska-tanker-co-llc");
      const byId = await search("q=marad-name-alaska-tanker-co-llc");
      assert.deepEqual([byId.data[0].kind, byId.data[0].id, byId.data[0].match], ["company", "marad-name-alaska-tanker-co-llc", "id"]);
    });

    it("ranks across kinds: every exact name before any name that only starts with the query", async () => {
      const body = await search("q=algeria");
      const kinds = new Set(body.data.map((h: any) => h.kind));
      assert.ok(kinds.has("wreck") && kinds.has("flag"), JSON.stringify(body.data));
      const exact = body.data.map((h: any) => normalizeName(h.name) === "algeria");
      const firstOther = exact.indexOf(false);
      assert.ok(exact.filter(Boolean).length >= 2, "the wreck ALGERIA and the flag Algeria");
      assert.ok(firstOther === -1 || exact.slice(firstOther).every((e: boolean) => !e), JSON.stringify(body.data.map((h: any) => h.name)));
    });

    it("documents its kinds: an unknown kind is refused naming every allowed one", async () => {
      const r = await get(t, "/api/v1/search?q=star&kind=canal", key);
      assert.equal(r.status, 400);
      assert.equal(r.body.error.param, "kind");
      assert.match(r.body.error.rule, /vessel, port, company, wreck, waterway, flag/);
    });
  });
}

describe("search: withheld names only the sources that withheld a hit", () => {
  let t: TestService;
  let key: string;
  before(async () => {
    t = await startTestService({ env: { SOURCES_FILE: sourcesWithoutAwois() } });
    ({ key } = await t.key("scale"));
  });
  after(() => t.close());

  it("wreck hits of a source not cleared are counted under that source alone; other kinds are served", async () => {
    const r = await get(t, "/api/v1/search?q=algeria&kind=wreck,flag", key);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data.map((h: any) => h.kind), ["flag"]);
    assert.equal(r.body.withheld.length, 1, JSON.stringify(r.body.withheld));
    assert.deepEqual({ ...r.body.withheld[0], rows: undefined }, { section: "wrecks", sources: ["noaa_awois"], rows: undefined, reason: "source_not_licensed_for_api" });
    assert.ok(r.body.withheld[0].rows >= 1);
    const clean = await get(t, "/api/v1/search?q=algeria&kind=flag,port,vessel", key);
    assert.deepEqual(clean.body.withheld, []);
  });
});
