import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  BUNDLED_MARAD_FLEET_FILE,
  type FleetRecord,
  loadBundledMaradFleet,
  parseMaradFleet,
} from "../../../src/adapters/importers/marad-fleet.ts";

const DATASETS = fileURLToPath(new URL("../../../datasets/", import.meta.url));
const fleet = await loadBundledMaradFleet(DATASETS);
const source = readFileSync(`${DATASETS}${BUNDLED_MARAD_FLEET_FILE}`, "utf8");
const HEADER = source.split("\n", 1)[0]!;
const MATSON_ROW = '9719056,DANIEL K. INOUYE,Containership,"48,409","51,400",2018,Matson Navigation Co Inc,N,Y,N,Y,Y';

function vessel(imo: number): FleetRecord {
  const v = fleet.records.find((r) => r.imo === imo);
  assert.ok(v, `IMO ${imo} is in the bundled file`);
  return v;
}

function csv(...rows: string[]): Buffer {
  return Buffer.from(`${[HEADER, ...rows].join("\n")}\n`);
}

describe("MARAD US-flag fleet: bundled file", () => {
  test("178 vessels, none rejected, 48 operators", () => {
    assert.equal(fleet.rowsRead, 178);
    assert.equal(fleet.records.length, 178);
    assert.deepEqual(fleet.rejected, {});
    assert.equal(new Set(fleet.records.map((r) => r.imo)).size, 178);
    assert.equal(new Set(fleet.records.map((r) => r.operator)).size, 48);
  });

  test("programme flag counts match the source", () => {
    const count = (f: keyof FleetRecord) => fleet.records.filter((r) => r[f] === true).length;
    assert.equal(count("msp"), 60);
    assert.equal(count("visa"), 101);
    assert.equal(count("vta"), 4);
    assert.equal(count("jonesActEligible"), 93);
    assert.equal(count("militarilyUseful"), 154);
  });

  test("ALASKAN EXPLORER (9244661), the first row, as in the source", () => {
    assert.deepEqual(vessel(9244661), {
      imo: 9244661,
      name: "ALASKAN EXPLORER",
      shipType: "Tanker",
      grossTons: 110693,
      deadweightTons: 193049,
      yearBuilt: 2005,
      operator: "Alaska Tanker Co LLC",
      msp: false,
      visa: false,
      vta: false,
      jonesActEligible: true,
      militarilyUseful: false,
    });
  });

  test("DANIEL K. INOUYE (9719056) and MAERSK ATLANTA (9348649)", () => {
    const inouye = vessel(9719056);
    assert.equal(inouye.operator, "Matson Navigation Co Inc");
    assert.equal(inouye.grossTons, 48409);
    assert.equal(inouye.deadweightTons, 51400);
    assert.equal(inouye.yearBuilt, 2018);
    assert.deepEqual(
      [inouye.msp, inouye.visa, inouye.vta, inouye.jonesActEligible, inouye.militarilyUseful],
      [false, true, false, true, true],
    );
    const atlanta = vessel(9348649);
    assert.equal(atlanta.operator, "Maersk A/S");
    assert.equal(atlanta.shipType, "Containership");
    assert.equal(atlanta.msp, true);
    assert.equal(atlanta.jonesActEligible, false);
  });

  test("tonnage with and without thousands separators", () => {
    // SEABULK PRIDE: 30415,46069 (no separators); SLNC SEVERN: "33,729",57888.
    assert.equal(vessel(9118630).grossTons, 30415);
    assert.equal(vessel(9118630).deadweightTons, 46069);
    assert.equal(vessel(9629988).grossTons, 33729);
    assert.equal(vessel(9629988).deadweightTons, 57888);
  });

  test("OVERSEAS MYKONOS (9435894): MSP and VTA", () => {
    const v = vessel(9435894);
    assert.equal(v.msp, true);
    assert.equal(v.vta, true);
    assert.equal(v.visa, false);
  });
});

describe("MARAD US-flag fleet: rows the parser rejects", () => {
  test("a BOM is accepted", () => {
    const result = parseMaradFleet(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), csv(MATSON_ROW)]));
    assert.equal(result.records.length, 1);
    assert.equal(result.records[0]!.imo, 9719056);
  });

  test("invalid IMO numbers, bad flags, bad tonnage and repeats are rejected and counted", () => {
    const result = parseMaradFleet(
      csv(
        MATSON_ROW,
        MATSON_ROW.replace("9719056", "9719057"),
        MATSON_ROW.replace("9719056", "97190"),
        MATSON_ROW.replace("9719056,", ","),
        MATSON_ROW.replace(",N,Y,N,Y,Y", ",N,Y,?,Y,Y").replace("9719056", "9244661"),
        MATSON_ROW.replace('"48,409"', "n/a").replace("9719056", "9244659"),
        MATSON_ROW,
      ),
    );
    assert.equal(result.rowsRead, 7);
    assert.deepEqual(
      result.records.map((r) => r.imo),
      [9719056],
    );
    assert.deepEqual(result.rejected, {
      imo_check_digit: 1,
      imo_malformed: 1,
      imo_missing: 1,
      flag_not_y_or_n: 1,
      tonnage_not_a_number: 1,
      duplicate_imo: 1,
    });
  });

  test("blank tonnage and build year are null", () => {
    const result = parseMaradFleet(csv(MATSON_ROW.replace('"48,409","51,400",2018', ",,")));
    assert.equal(result.records[0]!.grossTons, null);
    assert.equal(result.records[0]!.deadweightTons, null);
    assert.equal(result.records[0]!.yearBuilt, null);
  });
});

describe("MARAD US-flag fleet: garbage input throws, naming the dataset and the problem", () => {
  test("empty input", () => {
    assert.throws(() => parseMaradFleet(Buffer.alloc(0)), /MARAD US-flag fleet CSV: the file is empty/);
  });

  test("random bytes", () => {
    const noise = Buffer.alloc(1024);
    let seed = 777;
    for (let i = 0; i < noise.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      noise[i] = seed >>> 16;
    }
    assert.throws(() => parseMaradFleet(noise), /^Error: MARAD US-flag fleet CSV: (binary data|not UTF-8|unexpected header|unreadable header)/);
  });

  test("a CSV with another header", () => {
    assert.throws(
      () => parseMaradFleet(Buffer.from("MMSI,IMO,VesselName\n366902570,IMO9307839,TAMPA\n")),
      /MARAD US-flag fleet CSV: unexpected header, missing column\(s\) IMO NUMBER, Vessel Name, Ship Type/,
    );
  });

  test("header only", () => {
    assert.throws(() => parseMaradFleet(csv()), /MARAD US-flag fleet CSV: no data rows after the header/);
  });
});
