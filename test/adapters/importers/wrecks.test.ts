import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { slugify } from "../../../src/domain/pages/page-paths.ts";
import { loadBundledWrecks, parseWrecks, type WreckRecord } from "../../../src/adapters/importers/wrecks.ts";

const DATASETS = fileURLToPath(new URL("../../../datasets/", import.meta.url));
const wrecks = await loadBundledWrecks(DATASETS);
const byId = new Map(wrecks.map((w) => [w.id, w]));

function wreck(id: number): WreckRecord {
  const w = byId.get(id);
  assert.ok(w, `RECRD ${id} is in the bundled file`);
  return w;
}

const HEADER = "RECRD,VESSLTERMS,FEATURE_TYPE,LATDEC,LONDEC,GP_QUALITY,WATER_DEPTH,SOUNDING_TYPE,YEARSUNK,HISTORY";
function csv(...rows: string[]): Buffer {
  return Buffer.from(`\uFEFF${[HEADER, ...rows].join("\n")}\n`);
}

describe("NOAA AWOIS wrecks: bundled file", () => {
  test("6,222 records with unique ids and unique slugs", () => {
    assert.equal(wrecks.length, 6222);
    assert.equal(byId.size, 6222);
    assert.equal(new Set(wrecks.map((w) => w.slug)).size, 6222);
    for (const w of wrecks) assert.match(w.slug, /^[a-z0-9]+(-[a-z0-9]+)*-\d+$/);
  });

  test("counts by field match the source", () => {
    const count = (pred: (w: WreckRecord) => boolean) => wrecks.filter(pred).length;
    // 2,414 rows are neither UNKNOWN nor WRECK; 44 more are placeholders (OBSTRUCTION 29, BARGE 6, WRECKS 3, UNK* typos 4, DERELICT, FISH HAVEN).
    assert.equal(count((w) => w.name !== null), 2370);
    assert.equal(count((w) => w.yearSunk !== null), 197);
    assert.equal(count((w) => w.featureType === null), 301);
    assert.equal(count((w) => w.featureType === "Wreck - Visible"), 974);
    assert.equal(count((w) => w.positionQuality === "medium"), 565);
    assert.equal(count((w) => w.positionQuality === null), 64);
    assert.equal(count((w) => w.depth?.wireDragClearance === true), 17);
    assert.equal(count((w) => w.depth !== null && w.depth.unit === null), 36);
    assert.equal(count((w) => w.depthM !== null), 1738);
    for (const w of wrecks) {
      assert.ok(w.lat >= 17.6 && w.lat <= 71, `lat of ${w.id}`);
      assert.ok(w.lon >= -180 && w.lon <= 180, `lon of ${w.id}`);
    }
  });

  test("RECRD 14296 ALGERIA, as in the source row", () => {
    const w = wreck(14296);
    assert.equal(w.slug, "algeria-14296");
    assert.equal(w.name, "ALGERIA");
    assert.equal(w.featureType, "Wreck - Submerged, dangerous to surface navigation");
    assert.equal(w.lat, 41.520448);
    assert.equal(w.lon, -81.716076);
    assert.equal(w.positionQuality, "high");
    assert.deepEqual(w.depth, { value: 32, unit: "feet", wireDragClearance: false });
    assert.equal(w.depthM, 9.75);
    assert.equal(w.yearSunk, null);
    assert.match(w.history!, /^H11689\/2007-- S-W920-NRT4-07; A large submerged wreck debris was seen on SSS\./);
  });

  test("placeholder names become null and the slug falls back to wreck-<id>", () => {
    assert.equal(wreck(14620).name, null); // UNKNOWN
    assert.equal(wreck(14620).slug, "wreck-14620");
    assert.equal(wreck(54144).name, null); // UNKOWN (sic)
    assert.equal(wreck(15190).name, null); // OBSTRUCTION
    assert.equal(wreck(15081).name, null); // WRECK
  });

  test("slugs are lowercase ASCII with hyphens (B.F. MACOMBER, 1149)", () => {
    assert.equal(wreck(1149).slug, "b-f-macomber-1149");
    assert.equal(slugify("Sainte-Thérèse & Co."), "sainte-therese-and-co");
  });

  test("depth units come from SOUNDING_TYPE and convert to metres", () => {
    // Fathoms: 25 fm (history: "Least Depth 24.5fm, 44.9m").
    assert.deepEqual(wreck(15083).depth, { value: 25, unit: "fathoms", wireDragClearance: false });
    assert.equal(wreck(15083).depthM, 45.72);
    assert.equal(wreck(15083).positionQuality, "medium");
    // Metres, as published.
    assert.equal(wreck(15190).depthM, 29.36);
    assert.equal(wreck(488).depthM, 510.11);
    // Wire-drag clearance in feet: the wreck lies at least this deep.
    assert.deepEqual(wreck(1057).depth, { value: 54, unit: "feet", wireDragClearance: true });
    assert.equal(wreck(1057).depthM, 16.46);
    // A drying wreck: negative depth (the boiler "EXPOSED 2.2 METERS").
    assert.equal(wreck(7601).depthM, -2.2);
    assert.equal(wreck(7601).featureType, "Wreck - Visible");
  });

  test("a depth without a unit is kept but not converted (SALEM, 1265)", () => {
    assert.deepEqual(wreck(1265).depth, { value: 50, unit: null, wireDragClearance: false });
    assert.equal(wreck(1265).depthM, null);
  });

  test('WATER_DEPTH "0" means no depth recorded', () => {
    assert.equal(wreck(6837).depth, null); // 0, no unit
    assert.equal(wreck(9719).depth, null); // 0 feet, history says "IN 30 FEET"
    assert.equal(wreck(9719).depthM, null);
  });

  test("year sunk, blank feature type and blank position quality", () => {
    assert.equal(wreck(15081).yearSunk, 1996);
    assert.equal(wreck(1927).positionQuality, "poor");
    assert.equal(wreck(1927).featureType, "Not Charted");
    assert.equal(wreck(2947).featureType, null);
    assert.equal(wreck(2947).positionQuality, null);
  });

  test('history: "ì" soft line breaks are joined, padding collapsed, real line breaks kept', () => {
    const h = wreck(6837).history!;
    assert.ok(!wrecks.some((w) => w.history?.includes("ì")));
    assert.match(h, /^HISTORY\nUNKNOWN SOURCE-- DANGEROUS SUBMERGED WRECK, PD, CHARTED IN LAT 42-53-48N, LONG 78-54-32W, IS DESCRIBED/);
    assert.match(wreck(2947).history!, /APPROX\. POS\.\nLAT\. 42-00-00N/);
  });
});

describe("NOAA AWOIS wrecks: rows the parser refuses", () => {
  const ok = '14296,ALGERIA,"Wreck - Visible",41.520448,-81.716076,High,32,Feet and tenths,,text';

  test("a small valid file parses", () => {
    const [w] = parseWrecks(csv(ok));
    assert.equal(w!.slug, "algeria-14296");
    assert.equal(w!.history, "text");
  });

  test("repeated RECRD", () => {
    assert.throws(() => parseWrecks(csv(ok, ok)), /NOAA AWOIS wrecks CSV: data row 2 \(RECRD "14296"\): RECRD 14296 occurs twice/);
  });

  test("missing position", () => {
    assert.throws(
      () => parseWrecks(csv(ok.replace("41.520448", ""))),
      /NOAA AWOIS wrecks CSV: data row 1 \(RECRD "14296"\): no valid position/,
    );
  });

  test("unknown sounding unit", () => {
    assert.throws(() => parseWrecks(csv(ok.replace("Feet and tenths", "Cubits"))), /unknown SOUNDING_TYPE "Cubits"/);
  });
});

describe("NOAA AWOIS wrecks: garbage input throws, naming the dataset and the problem", () => {
  test("empty input", () => {
    assert.throws(() => parseWrecks(Buffer.alloc(0)), /NOAA AWOIS wrecks CSV: the file is empty/);
  });

  test("random bytes", () => {
    const noise = Buffer.alloc(2048);
    let seed = 987;
    for (let i = 0; i < noise.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      noise[i] = seed >>> 16;
    }
    assert.throws(() => parseWrecks(noise), /^Error: NOAA AWOIS wrecks CSV: (binary data|not UTF-8|unexpected header|unreadable header)/);
  });

  test("a CSV with another header", () => {
    assert.throws(
      () => parseWrecks(Buffer.from("OBJECTID,NAME,LAT,LON\n1,X,1,2\n")),
      /NOAA AWOIS wrecks CSV: unexpected header, missing column\(s\) RECRD, VESSLTERMS, FEATURE_TYPE, LATDEC, LONDEC/,
    );
  });

  test("header only", () => {
    assert.throws(() => parseWrecks(csv()), /NOAA AWOIS wrecks CSV: no data rows after the header/);
  });

  test("still gzip-compressed", () => {
    assert.throws(() => parseWrecks(gzipSync(csv("1,X,,1,2,,,,,"))), /NOAA AWOIS wrecks CSV: the file is still gzip-compressed/);
  });
});
