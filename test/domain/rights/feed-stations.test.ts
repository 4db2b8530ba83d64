import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decide } from "../../../src/domain/rights/decide.ts";
import { type Source, SourceRegistry } from "../../../src/domain/rights/source.ts";

const entry = (id: string, permissions: Source["permissions"]): Source => ({ id, name: id, attribution: `${id} attribution`, license: `${id} licence`, permissions });

describe("a public feed's station is governed by its feed's source entry", () => {
  const registry = new SourceRegistry([
    entry("station", { api: true, redistribution: true, commercial: true }),
    entry("aishub", { api: true, redistribution: false, commercial: false }),
  ]);
  registry.bindStations([
    { stationId: 7, sourceId: "aishub" },
    { stationId: 8, sourceId: "kystverket-open" },
  ]);

  it("a bound station resolves to the feed's entry; other stations stay under `station`", () => {
    assert.equal(registry.get("station:7")?.id, "aishub");
    assert.equal(registry.get("station:9")?.id, "station");
  });

  it("the feed's permissions decide: no redistribution, no commercial plans", () => {
    assert.equal(decide(registry, ["station:7"], { commercialUse: false }, "api").allowed, true);
    assert.deepEqual(decide(registry, ["station:7"], { commercialUse: false }, "redistribution").denials, [{ source: "station:7", why: "no_redistribution" }]);
    assert.deepEqual(decide(registry, ["station:7"], { commercialUse: true }, "api").denials, [{ source: "station:7", why: "no_commercial_use" }]);
  });

  it("a feed whose entry is missing from the sources file is denied, never taken as a station's", () => {
    assert.deepEqual(decide(registry, ["station:8"], { commercialUse: false }, "api").denials, [{ source: "station:8", why: "unknown_source" }]);
  });

  it("binding again replaces the list", () => {
    const r = new SourceRegistry([entry("station", { api: true, redistribution: true, commercial: true })]);
    r.bindStations([{ stationId: 1, sourceId: "x" }]);
    r.bindStations([]);
    assert.equal(r.get("station:1")?.id, "station");
  });
});
