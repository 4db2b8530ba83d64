import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  excelSerialToIsoDate,
  isSanctionsListKey,
  makeDesignation,
  parseDayFirstDate,
  parseTonnage,
  SanctionsParseError,
  splitImoValue,
} from "../../../src/domain/sanctions/designation.ts";
import { flagToIso2 } from "../../../src/domain/sanctions/flags.ts";

describe("IMO values as lists publish them", () => {
  test("prefixes, spaces, several numbers, checksum", () => {
    assert.deepEqual(splitImoValue("IMO 9187629"), { imos: [9187629], invalid: [] });
    assert.deepEqual(splitImoValue("IMO9562233"), { imos: [9562233], invalid: [] });
    assert.deepEqual(splitImoValue("8628597"), { imos: [8628597], invalid: [] });
    assert.deepEqual(splitImoValue("IMO\u00a0 8730455"), { imos: [8730455], invalid: [] });
    assert.deepEqual(splitImoValue("IMO9562233 | 8628597"), { imos: [9562233, 8628597], invalid: [] });
  });
  test("typos are kept verbatim as invalid, text without digits is no IMO", () => {
    assert.deepEqual(splitImoValue("IMO 924298"), { imos: [], invalid: ["924298"] });
    assert.deepEqual(splitImoValue("9242987"), { imos: [], invalid: ["9242987"] });
    assert.deepEqual(splitImoValue("Does not exist"), { imos: [], invalid: [] });
    assert.deepEqual(splitImoValue("  "), { imos: [], invalid: [] });
  });
});

describe("makeDesignation", () => {
  test("fills every field, de-duplicates, separates valid and invalid IMOs, drops bad MMSIs", () => {
    const d = makeDesignation({
      list: "ofac",
      recordId: " 15036 ",
      name: " ARTAVIL ",
      aliases: ["ARTAVIL", "artavil ii", "ARTAVIL II", ""],
      programs: ["IRAN", "IRAN"],
      imoValues: ["IMO 9187629", "IMO 9187629", "IMO 918762"],
      mmsiValues: ["572469210", "12345", "000000000"],
      flag: "St. Kitts & Nevis",
      sourceUrl: "https://example.org/15036",
    });
    assert.equal(d.recordId, "15036");
    assert.equal(d.name, "ARTAVIL");
    assert.deepEqual(d.aliases, ["artavil ii"]);
    assert.deepEqual(d.programs, ["IRAN"]);
    assert.equal(d.program, "IRAN");
    assert.deepEqual(d.imos, [9187629]);
    assert.deepEqual(d.invalidImos, ["918762"]);
    assert.deepEqual(d.mmsis, [572469210]);
    assert.equal(d.flagIso2, "KN");
    assert.equal(d.status, "active");
    assert.equal(d.listedAt, null);
    assert.equal(d.listedAtField, null, "no field name without a date");
    assert.equal(d.listName, "OFAC Specially Designated Nationals and Blocked Persons List (SDN)");
  });

  test("list keys", () => {
    assert.ok(isSanctionsListKey("new-zealand"));
    assert.ok(!isSanctionsListKey("nz"));
  });

  test("parse errors name the list", () => {
    const e = new SanctionsParseError("canada", "sema-lmes.xml is empty");
    assert.equal(e.message, "canada sanctions list: sema-lmes.xml is empty");
    assert.equal(e.list, "canada");
  });
});

describe("value parsing", () => {
  test("dates as the lists write them", () => {
    assert.equal(parseDayFirstDate("03/10/2017"), "2017-10-03");
    assert.equal(parseDayFirstDate("25.6.2024"), "2024-06-25");
    assert.equal(parseDayFirstDate("2025-02-21"), "2025-02-21");
    assert.equal(parseDayFirstDate("29-Apr-2026"), "2026-04-29");
    assert.equal(parseDayFirstDate("24 July 2026"), "2026-07-24");
    assert.equal(parseDayFirstDate("31/02/2024"), null);
    assert.equal(parseDayFirstDate("#REF!"), null);
    assert.equal(parseDayFirstDate("24102025"), null);
  });
  test("Excel serial dates (NZ register)", () => {
    assert.equal(excelSerialToIsoDate(45827), "2025-06-19");
    assert.equal(excelSerialToIsoDate(45708), "2025-02-20");
    assert.equal(excelSerialToIsoDate(12), null);
  });
  test("tonnage with thousands separators", () => {
    assert.equal(parseTonnage("99,144"), 99144);
    assert.equal(parseTonnage("7078"), 7078);
    assert.equal(parseTonnage("-0-"), null);
  });
  test("flag names to ISO2, unknowns to null", () => {
    assert.equal(flagToIso2("Democratic People's Republic of Korea"), "KP");
    assert.equal(flagToIso2("Korea, North"), "KP");
    assert.equal(flagToIso2("St. Vincent and the Grenadines"), "VC");
    assert.equal(flagToIso2("Hong Kong"), "HK");
    assert.equal(flagToIso2("Cote d’Ivoire"), "CI");
    assert.equal(flagToIso2("Côte d'Ivoire"), "CI");
    assert.equal(flagToIso2("None Identified"), null);
    assert.equal(flagToIso2("Korea"), null, "ambiguous");
    assert.equal(flagToIso2(""), null);
  });
});
