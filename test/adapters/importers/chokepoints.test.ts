import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  type ChokepointRecord,
  chokepointKind,
  loadBundledChokepoints,
  parseChokepoints,
} from "../../../src/adapters/importers/chokepoints.ts";

const DATASETS = fileURLToPath(new URL("../../../datasets/", import.meta.url));
const chokepoints = await loadBundledChokepoints(DATASETS);

function byId(id: string): ChokepointRecord {
  const c = chokepoints.find((x) => x.id === id);
  assert.ok(c, `${id} is in the bundled file`);
  return c;
}

const HEADER = "X,Y,portid,portname,country,ISO3,fullname,lat,lon,pageid,ObjectId";
const SUEZ = "3610857.21053859,3580049.2290279,chokepoint1,Suez Canal,,,Suez Canal,30.59334599,32.43688221,c57c79bf612b4372b08a9c6ea9c97ef0,1";

describe("IMF PortWatch chokepoints: bundled file", () => {
  test("28 chokepoints, chokepoint1 … chokepoint28 in order, unique slugs", () => {
    assert.equal(chokepoints.length, 28);
    assert.deepEqual(
      chokepoints.map((c) => c.id),
      Array.from({ length: 28 }, (_, i) => `chokepoint${i + 1}`),
    );
    assert.equal(new Set(chokepoints.map((c) => c.slug)).size, 28);
  });

  test("chokepoint1 Suez Canal, as in the source row", () => {
    assert.deepEqual(byId("chokepoint1"), {
      id: "chokepoint1",
      slug: "suez-canal",
      name: "Suez Canal",
      fullName: "Suez Canal",
      lat: 30.59334599,
      lon: 32.43688221,
      kind: "canal",
    });
  });

  test("other rows spot-checked", () => {
    const hormuz = byId("chokepoint6");
    assert.equal(hormuz.name, "Strait of Hormuz");
    assert.equal(hormuz.slug, "strait-of-hormuz");
    assert.equal(hormuz.kind, "strait");
    assert.equal(hormuz.lat, 26.29685349);
    assert.equal(hormuz.lon, 56.85984844);
    assert.equal(byId("chokepoint7").kind, "cape");
    assert.equal(byId("chokepoint4").slug, "bab-el-mandeb-strait");
    assert.equal(byId("chokepoint26").lon, -165.549828611457);
    assert.equal(byId("chokepoint28").name, "Kerch Strait");
  });

  test("kinds: 2 canals, 22 straits, 1 channel, 2 passages, 1 cape", () => {
    const kinds: Record<string, number> = {};
    for (const c of chokepoints) kinds[c.kind] = (kinds[c.kind] ?? 0) + 1;
    assert.deepEqual(kinds, { canal: 2, strait: 22, channel: 1, passage: 2, cape: 1 });
    assert.equal(byId("chokepoint22").kind, "channel");
    assert.equal(byId("chokepoint23").kind, "passage");
  });

  test("kind from a name without a generic term is other", () => {
    assert.equal(chokepointKind("Dardanelles"), "strait");
    assert.equal(chokepointKind("Kiel Canal"), "canal");
    assert.equal(chokepointKind("Skagerrak"), "other");
  });
});

describe("IMF PortWatch chokepoints: bad input throws, naming the dataset and the problem", () => {
  test("empty input", () => {
    assert.throws(() => parseChokepoints(Buffer.alloc(0)), /IMF PortWatch chokepoints CSV: the file is empty/);
  });

  test("random bytes", () => {
    const noise = Buffer.alloc(1024);
    let seed = 4242;
    for (let i = 0; i < noise.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      noise[i] = seed >>> 16;
    }
    assert.throws(
      () => parseChokepoints(noise),
      /^Error: IMF PortWatch chokepoints CSV: (binary data|not UTF-8|unexpected header|unreadable header)/,
    );
  });

  test("a CSV with another header (the PortWatch ports file)", () => {
    assert.throws(
      () => parseChokepoints(Buffer.from("portid,portname,country,ISO3\nport1,Aberdeen,United Kingdom,GBR\n")),
      /IMF PortWatch chokepoints CSV: unexpected header, missing column\(s\) fullname, lat, lon/,
    );
  });

  test("header only", () => {
    assert.throws(() => parseChokepoints(Buffer.from(`${HEADER}\n`)), /IMF PortWatch chokepoints CSV: no data rows after the header/);
  });

  test("a row with a bad id or position", () => {
    assert.throws(
      () => parseChokepoints(Buffer.from(`${HEADER}\n${SUEZ.replace("chokepoint1", "port1")}\n`)),
      /data row 1 \(portid "port1"\): portid is not of the form chokepointN/,
    );
    assert.throws(
      () => parseChokepoints(Buffer.from(`${HEADER}\n${SUEZ.replace("30.59334599", "130.5")}\n`)),
      /IMF PortWatch chokepoints CSV: data row 1 \(portid "chokepoint1"\): no valid position/,
    );
    assert.throws(() => parseChokepoints(Buffer.from(`${HEADER}\n${SUEZ}\n${SUEZ}\n`)), /portid occurs twice/);
  });
});
