import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, test } from "node:test";
import {
  BUNDLED_EMISSIONS_FILE,
  type EmissionRecord,
  loadBundledEmissions,
  parseEmissions,
} from "../../../src/adapters/importers/emissions.ts";
import { readSource } from "../../../src/adapters/importers/read-source.ts";

const DATASETS = fileURLToPath(new URL("../../../datasets/", import.meta.url));
const bytes = await readSource(`${DATASETS}${BUNDLED_EMISSIONS_FILE}`);
const bundled = await loadBundledEmissions(DATASETS);

function find(imo: number, year: number): EmissionRecord {
  const r = bundled.records.find((x) => x.imo === imo && x.year === year);
  assert.ok(r, `IMO ${imo} / ${year} is in the bundled file`);
  return r;
}

// Header and one real row of the source file, for building small variants.
const text = bytes.toString("utf8");
const lines = text.split(/\r?\n/);
const HEADER = lines[0]!;
const ASTORIA_2018 = lines.find((l) => l.startsWith("2018,5383304,"))!;

function csv(...rows: string[]): Buffer {
  return Buffer.from(`${[HEADER, ...rows].join("\r\n")}\r\n`);
}

describe("EU MRV emissions: bundled file", () => {
  test("keeps every ship-year: 61,799 rows, 19,730 ships, none rejected", () => {
    assert.equal(bundled.rowsRead, 61_799);
    assert.equal(bundled.records.length, 61_799);
    assert.deepEqual(bundled.rejected, {});
    assert.equal(new Set(bundled.records.map((r) => r.imo)).size, 19_730);
    const perYear: Record<number, number> = {};
    for (const r of bundled.records) perYear[r.year] = (perYear[r.year] ?? 0) + 1;
    assert.deepEqual(perYear, { 2018: 12_255, 2019: 12_399, 2020: 12_067, 2021: 12_290, 2022: 12_788 });
  });

  test("one record per (imo, year)", () => {
    const keys = new Set(bundled.records.map((r) => `${r.imo}:${r.year}`));
    assert.equal(keys.size, bundled.records.length);
  });

  test("2018 ASTORIA (5383304): every column as in the source row", () => {
    assert.deepEqual(find(5383304, 2018), {
      imo: 5383304,
      year: 2018,
      name: "ASTORIA",
      shipType: "Passenger ship",
      portOfRegistry: null,
      homePort: null,
      iceClass: null,
      technicalEfficiencyIndex: null,
      technicalEfficiencyGCo2PerTNm: null,
      docIssueDate: "2019-02-05",
      docExpiryDate: "2020-06-30",
      verifierName: "ICS Verification Services Single Member P.C.",
      verifierCountry: "Greece",
      monitoringMethods: ["A"],
      fuelT: 6307.75,
      co2T: 20080.25,
      co2BetweenMsPortsT: 16035.42,
      co2DepartingMsPortsT: 728.59,
      co2ToMsPortsT: 974.78,
      co2AtBerthMsPortsT: 2341.47,
      timeAtSeaH: 4170.2,
      fuelPerDistanceKgPerNm: 139.07,
      co2PerDistanceKgPerNm: 442.71,
      distanceThroughIceNm: null,
      timeAtSeaThroughIceH: null,
    });
  });

  test("2022 CMA CGM JACQUES SAADE (9839179)", () => {
    const r = find(9839179, 2022);
    assert.equal(r.name, "CMA CGM JACQUES SAADE");
    assert.equal(r.shipType, "Container ship");
    assert.equal(r.technicalEfficiencyIndex, "EEDI");
    assert.equal(r.technicalEfficiencyGCo2PerTNm, 5.92);
    assert.equal(r.co2T, 66762.95);
    assert.equal(r.fuelT, 22913.16);
    assert.equal(r.timeAtSeaH, 4042.03);
    assert.equal(r.co2PerDistanceKgPerNm, 1101.72);
    assert.equal(r.docIssueDate, "2023-06-19");
    assert.equal(r.docExpiryDate, "2024-06-30");
    assert.deepEqual(r.monitoringMethods, ["A"]);
  });

  test("2018 BERGSTRAUM (9108740): ice navigation figures and registry", () => {
    const r = find(9108740, 2018);
    assert.equal(r.portOfRegistry, "Bergen");
    assert.equal(r.iceClass, "IA");
    assert.equal(r.distanceThroughIceNm, 1008);
    assert.equal(r.timeAtSeaThroughIceH, 117.6);
    assert.deepEqual(r.monitoringMethods, ["C"]);
    assert.equal(r.technicalEfficiencyIndex, "EIV");
    assert.equal(r.technicalEfficiencyGCo2PerTNm, 15.22);
  });

  test('"Division by zero!" becomes null; reported zeros stay zero (2018 MSC DARDANELLES, 9247754)', () => {
    const r = find(9247754, 2018);
    assert.equal(r.fuelPerDistanceKgPerNm, null);
    assert.equal(r.co2PerDistanceKgPerNm, null);
    assert.equal(r.co2T, 0);
    assert.equal(r.fuelT, 0);
    // "EIV (2E+1 gCO₂/t·nm)": the sheet wrote the value in exponent notation.
    assert.equal(r.technicalEfficiencyGCo2PerTNm, 20);
  });

  test('"DoC not issued" becomes null dates (2018 K-RIVER, 9138355)', () => {
    const r = find(9138355, 2018);
    assert.equal(r.docIssueDate, null);
    assert.equal(r.docExpiryDate, null);
    assert.equal(r.homePort, "Madeira");
  });

  test("impossible time at sea is nulled and counted (2019 SW TROPEZ I, 9272931: 6.03401037E8 h)", () => {
    const r = find(9272931, 2019);
    assert.equal(r.timeAtSeaH, null);
    assert.equal(r.co2T, 9892.52);
    assert.deepEqual(bundled.nulled, { "annual_time_at_sea_h: more hours than the year has": 20 });
    for (const x of bundled.records) assert.ok(x.timeAtSeaH === null || x.timeAtSeaH <= 8784);
  });

  test("names are trimmed and inner runs of blanks collapsed (MSC  BRIANNA → MSC BRIANNA)", () => {
    assert.equal(find(9103685, 2018).name, "MSC BRIANNA");
  });

  test("2021 MOBY DADA (7911533): ice class kept as published", () => {
    const r = find(7911533, 2021);
    assert.equal(r.iceClass, "IA Supper");
    assert.equal(r.portOfRegistry, "Napoli");
    assert.equal(r.distanceThroughIceNm, null);
  });

  test("technical efficiency index counts match the source (EEDI 16,212, EIV 41,186)", () => {
    let eedi = 0;
    let eiv = 0;
    for (const r of bundled.records) {
      if (r.technicalEfficiencyIndex === "EEDI") eedi++;
      if (r.technicalEfficiencyIndex === "EIV") eiv++;
    }
    assert.equal(eedi, 16_212);
    assert.equal(eiv, 41_186);
  });
});

describe("EU MRV emissions: rows the parser rejects or repairs", () => {
  test("IMO numbers failing the check digit, malformed or missing are rejected and counted", () => {
    const result = parseEmissions(
      csv(
        ASTORIA_2018,
        ASTORIA_2018.replace(",5383304,", ",5383305,"),
        ASTORIA_2018.replace(",5383304,", ",9074728,"),
        ASTORIA_2018.replace(",5383304,", ",IMO12,"),
        ASTORIA_2018.replace(",5383304,", ",,"),
      ),
    );
    assert.equal(result.records.length, 1);
    assert.equal(result.records[0]!.imo, 5383304);
    assert.equal(result.rowsRead, 5);
    assert.deepEqual(result.rejected, { imo_check_digit: 2, imo_malformed: 1, imo_missing: 1 });
  });

  test("sentinel strings become null; unknown text in a number column becomes null and is counted", () => {
    const cells = ASTORIA_2018.split(",");
    const header = HEADER.split(",");
    const set = (column: string, value: string) => {
      cells[header.indexOf(column)] = value;
    };
    set("total_co2_t", "Not Applicable");
    set("total_fuel_consumption_t", "n/a");
    set("annual_time_at_sea_h", "#DIV/0!");
    set("co2_at_berth_ms_ports_t", "lots");
    set("avg_co2_per_distance_kg_per_nm", "Division by zero!");
    const result = parseEmissions(csv(cells.join(",")));
    const r = result.records[0]!;
    assert.equal(r.co2T, null);
    assert.equal(r.fuelT, null);
    assert.equal(r.timeAtSeaH, null);
    assert.equal(r.co2AtBerthMsPortsT, null);
    assert.equal(r.co2PerDistanceKgPerNm, null);
    assert.equal(r.co2BetweenMsPortsT, 16035.42);
    assert.deepEqual(result.nulled, { "co2_at_berth_ms_ports_t: not a number": 1 });
  });

  test("a repeated (imo, year) keeps the report with the later DoC and counts the other", () => {
    const revised = ASTORIA_2018.replace("05/02/2019", "01/03/2019").replace(",20080.25,", ",20100.00,");
    for (const order of [
      [ASTORIA_2018, revised],
      [revised, ASTORIA_2018],
    ]) {
      const result = parseEmissions(csv(...order));
      assert.equal(result.records.length, 1);
      assert.equal(result.records[0]!.co2T, 20100);
      assert.equal(result.records[0]!.docIssueDate, "2019-03-01");
      assert.deepEqual(result.rejected, { duplicate_imo_year: 1 });
    }
  });

  test("a row with an unusable reporting year is rejected and counted", () => {
    const result = parseEmissions(csv(ASTORIA_2018, ASTORIA_2018.replace(/^2018,/, "20x8,")));
    assert.equal(result.records.length, 1);
    assert.deepEqual(result.rejected, { year_invalid: 1 });
  });
});

describe("EU MRV emissions: garbage input throws, naming the dataset and the problem", () => {
  test("empty input", () => {
    assert.throws(() => parseEmissions(Buffer.alloc(0)), /EU MRV emissions CSV: the file is empty/);
  });

  test("random bytes", () => {
    // A fixed pseudo-random sequence, so the test is the same on every run.
    const noise = Buffer.alloc(4096);
    let seed = 12345;
    for (let i = 0; i < noise.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      noise[i] = seed >>> 16;
    }
    assert.throws(() => parseEmissions(noise), /^Error: EU MRV emissions CSV: (binary data|not UTF-8|unexpected header|unreadable header)/);
  });

  test("a CSV with another header", () => {
    assert.throws(
      () => parseEmissions(Buffer.from("IMO Number,Name,Ship type\n9074729,X,Bulk carrier\n")),
      /EU MRV emissions CSV: unexpected header, missing column\(s\) reporting_year, imo, name/,
    );
  });

  test("a header with no rows", () => {
    assert.throws(() => parseEmissions(Buffer.from(`${HEADER}\r\n`)), /EU MRV emissions CSV: no data rows after the header/);
  });

  test("still gzip-compressed", () => {
    assert.throws(() => parseEmissions(gzipSync(csv(ASTORIA_2018))), /EU MRV emissions CSV: the file is still gzip-compressed/);
  });

  test("a row with the wrong number of fields", () => {
    assert.throws(() => parseEmissions(csv(ASTORIA_2018, "2018,5383304,ASTORIA")), /EU MRV emissions CSV: malformed CSV: .*line 3/);
  });
});
