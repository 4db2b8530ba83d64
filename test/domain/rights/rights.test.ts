import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decide } from "../../../src/domain/rights/decide.ts";
import { type Source, SourceRegistry } from "../../../src/domain/rights/source.ts";
import { filterByRights, sourced } from "../../../src/domain/rights/sourced.ts";

const src = (id: string, api: boolean, redistribution: boolean, commercial: boolean, web?: boolean): Source => ({
  id,
  name: id,
  attribution: `(c) ${id}`,
  license: `${id} licence`,
  permissions: { api, redistribution, commercial, ...(web === undefined ? {} : { web }) },
});

const registry = new SourceRegistry([
  src("open", true, true, true),
  src("closed", false, false, false),
  src("noncommercial", true, true, false),
  src("apionly", true, false, true),
  src("station", true, true, true),
  src("apinotweb", true, true, true, false),
  src("webnotapi", false, false, true, true),
]);

describe("decide(): unanimity over the sources of a fact", () => {
  const table: { name: string; sources: string[]; commercial: boolean; use: "api" | "web" | "redistribution"; allowed: boolean; why?: string[] }[] = [
    { name: "one open source", sources: ["open"], commercial: false, use: "api", allowed: true },
    { name: "no source: the service's own fact", sources: [], commercial: true, use: "api", allowed: true },
    { name: "a closed source blocks", sources: ["closed"], commercial: false, use: "api", allowed: false, why: ["no_api_use"] },
    { name: "one closed source among open ones blocks", sources: ["open", "closed"], commercial: false, use: "api", allowed: false, why: ["no_api_use"] },
    { name: "an unknown source denies", sources: ["open", "mystery"], commercial: false, use: "api", allowed: false, why: ["unknown_source"] },
    { name: "non-commercial source on a free plan", sources: ["noncommercial"], commercial: false, use: "api", allowed: true },
    { name: "non-commercial source on a commercial plan", sources: ["noncommercial"], commercial: true, use: "api", allowed: false, why: ["no_commercial_use"] },
    { name: "API-only source cannot be redistributed", sources: ["apionly"], commercial: false, use: "redistribution", allowed: false, why: ["no_redistribution"] },
    { name: "API-only source can be served", sources: ["apionly"], commercial: true, use: "api", allowed: true },
    { name: "station sources resolve to the station entry", sources: ["station:17"], commercial: true, use: "api", allowed: true },
    { name: "a source without `web` takes its API permission on pages: open", sources: ["open"], commercial: false, use: "web", allowed: true },
    { name: "a source without `web` takes its API permission on pages: closed", sources: ["closed"], commercial: false, use: "web", allowed: false, why: ["no_web_use"] },
    { name: "a source denying `web` is kept off pages though the API may serve it", sources: ["apinotweb"], commercial: false, use: "web", allowed: false, why: ["no_web_use"] },
    { name: "the API still serves a source that denies only `web`", sources: ["apinotweb"], commercial: false, use: "api", allowed: true },
    { name: "a source allowing `web` but not the API shows on pages only", sources: ["webnotapi"], commercial: false, use: "web", allowed: true },
    { name: "...and stays out of API answers", sources: ["webnotapi"], commercial: false, use: "api", allowed: false, why: ["no_api_use"] },
    { name: "pages keep the commercial rule", sources: ["noncommercial"], commercial: true, use: "web", allowed: false, why: ["no_commercial_use"] },
  ];
  for (const row of table) {
    it(row.name, () => {
      const d = decide(registry, row.sources, { commercialUse: row.commercial }, row.use);
      assert.equal(d.allowed, row.allowed);
      if (row.why) assert.deepEqual(d.denials.map((x) => x.why), row.why);
    });
  }
});

describe("filterByRights()", () => {
  it("drops withheld rows' parts, counts rows per source, and lists only used sources", () => {
    const tree = {
      data: [
        { id: 1, coordinates: sourced("coordinates", ["open"], { lat: 1, lon: 2 }, { countRows: true }) },
        { id: 2, coordinates: sourced("coordinates", ["closed"], { lat: 3, lon: 4 }, { countRows: true }) },
        { id: 3, coordinates: sourced("coordinates", ["closed"], { lat: 5, lon: 6 }, { countRows: true }) },
      ],
    };
    const r = filterByRights(tree, registry, { commercialUse: false });
    assert.deepEqual(r.value.data, [{ id: 1, coordinates: { lat: 1, lon: 2 } }, { id: 2 }, { id: 3 }]);
    assert.deepEqual(r.withheld, [{ section: "coordinates", sources: ["closed"], rows: 2, reason: "source_not_licensed_for_api" }]);
    assert.deepEqual(r.used, ["open"]);
  });

  it("keeps a withheld page section as null when asked, and filters nested parts", () => {
    const r = filterByRights(
      { a: sourced("a", ["closed"], 1, { whenWithheld: "null" }), b: sourced("b", ["open"], { c: sourced("c", ["noncommercial"], 2) }) },
      registry,
      { commercialUse: true },
    );
    assert.deepEqual(r.value, { a: null, b: {} });
    assert.deepEqual(
      r.withheld.map((w) => [w.section, w.sources]),
      [
        ["a", ["closed"]],
        ["c", ["noncommercial"]],
      ],
    );
  });

  it("drops withheld array elements entirely", () => {
    const r = filterByRights([sourced("points", ["open"], 1, { countRows: true }), sourced("points", ["closed"], 2, { countRows: true })], registry, { commercialUse: false });
    assert.deepEqual(r.value, [1]);
    assert.equal(r.withheld[0]?.rows, 1);
  });
});

describe("leaf parts", () => {
  it("a leaf's value is passed through as it is, an ordinary part is walked", () => {
    const inner = sourced("inner", ["closed"], 1);
    const r = filterByRights({ a: sourced("a", ["open"], { x: inner }, { leaf: true }), b: sourced("b", ["open"], { x: inner }) }, registry, { commercialUse: false });
    assert.equal((r.value.a as unknown as { x: unknown }).x, inner, "a leaf is not walked");
    assert.deepEqual(r.value.b, {});
  });
});
