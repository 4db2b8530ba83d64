import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatVesselId, isValidImo, parseImo, parseIso2, parseMmsi, parseUnlocode, parseVesselId } from "../../src/domain/identifiers.ts";

describe("IMO numbers", () => {
  const cases: [string | number, boolean][] = [
    ["9074729", true], // the worked example of the IMO scheme
    [9074729, true],
    ["9074728", false], // wrong check digit
    ["907472", false], // six digits
    ["90747290", false], // eight digits
    ["0074729", false], // no leading zero
    ["9562233", true],
    ["IMO9562233", false], // isValidImo takes digits only; parseImo strips the prefix
    ["", false],
    ["abcdefg", false],
  ];
  for (const [input, valid] of cases) it(`${JSON.stringify(input)} is ${valid ? "valid" : "invalid"}`, () => assert.equal(isValidImo(input), valid));

  it("parseImo accepts the IMO prefix as lists write it", () => {
    assert.equal(parseImo("IMO9562233"), 9562233);
    assert.equal(parseImo("IMO 9562233"), 9562233);
    assert.equal(parseImo("imo:9562233"), 9562233);
    assert.equal(parseImo("IMO9562234"), null);
    assert.equal(parseImo(null), null);
  });
});

describe("MMSI", () => {
  it("is exactly nine digits", () => {
    assert.equal(parseMmsi("244123456"), 244123456);
    assert.equal(parseMmsi("002442000"), 2442000); // coast stations start with 00
    assert.equal(parseMmsi("24412345"), null);
    assert.equal(parseMmsi("2441234567"), null);
    assert.equal(parseMmsi("000000000"), null);
    assert.equal(parseMmsi("24412345x"), null);
  });
});

describe("vessel ids", () => {
  it("takes a checksum-valid IMO or mmsi- plus nine digits", () => {
    assert.deepEqual(parseVesselId("9074729"), { kind: "imo", imo: 9074729 });
    assert.deepEqual(parseVesselId("mmsi-244123456"), { kind: "mmsi", mmsi: 244123456 });
    assert.deepEqual(parseVesselId("MMSI-244123456"), { kind: "mmsi", mmsi: 244123456 });
    for (const bad of ["9074728", "mmsi-24412345", "mmsi244123456", "244123456", "IMO9074729", "", "mmsi-"]) assert.equal(parseVesselId(bad), null, bad);
  });
  it("formats back with zero padding", () => {
    assert.equal(formatVesselId({ kind: "mmsi", mmsi: 2442000 }), "mmsi-002442000");
    assert.equal(formatVesselId({ kind: "imo", imo: 9074729 }), "9074729");
  });
});

describe("UN/LOCODE and ISO 3166-1 alpha-2", () => {
  it("UN/LOCODE is case-insensitive, five characters, digits 2-9 only", () => {
    assert.equal(parseUnlocode("nlrtm"), "NLRTM");
    assert.equal(parseUnlocode("US ANP"), "USANP"); // the World Port Index writes a space
    assert.equal(parseUnlocode("DE2HH"), "DE2HH");
    for (const bad of ["NLRT", "NLRTMX", "NL1TM", "N1RTM", "", "NL-TM"]) assert.equal(parseUnlocode(bad), null, bad);
  });
  it("alpha-2 is two letters", () => {
    assert.equal(parseIso2("nl"), "NL");
    for (const bad of ["N", "NLD", "1L", ""]) assert.equal(parseIso2(bad), null, bad);
  });
});
