import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseNewZealand } from "../../../../src/adapters/importers/sanctions/new-zealand.ts";
import { unzip } from "../../../../src/adapters/importers/sanctions/zip.ts";
import { SanctionsParseError } from "../../../../src/domain/sanctions/designation.ts";
import { buildNzWorkbook, buildXlsx, buildZip, fixture, NZ_SHIPS_HEADER, NZ_SHIPS_ROWS } from "../../../helpers/sanctions-fixtures.ts";

function byId<T extends { recordId: string }>(list: T[], id: string): T {
  const found = list.find((d) => d.recordId === id);
  assert.ok(found, `record ${id} expected`);
  return found;
}

describe("New Zealand Russia Sanctions Register, Ships sheet", () => {
  test("the committed fixture workbook is exactly what the helper writes", () => {
    assert.deepEqual(fixture("nz", "russia-sanctions-register-ships-test.xlsx"), buildNzWorkbook());
  });

  test("every row of the Ships sheet; the other sheets are ignored", async () => {
    const parsed = await parseNewZealand(fixture("nz", "russia-sanctions-register-ships-test.xlsx"));
    assert.deepEqual(
      parsed.map((d) => [d.recordId, d.name, d.imos, d.listedAt]),
      [
        ["NZ-TEST-S0001", "Andaman Skies", [9288693], "2025-06-19"],
        ["NZ-TEST-S0002", "Udaya", [9288746], "2025-06-19"],
        ["NZ-TEST-S0003", "Moti", [9281011], "2025-06-19"],
        ["NZ-TEST-S0004", "Angara", [9179842], "2025-02-20"],
      ],
    );
    const udaya = byId(parsed, "NZ-TEST-S0002");
    assert.equal(udaya.list, "new-zealand");
    assert.deepEqual(udaya.aliases, ["Udaya 1", "Udaya I"]);
    const regulations = { instrument: "Russia Sanctions Regulations 2022 (New Zealand)", provision: null, url: null };
    assert.deepEqual(udaya.measures, [
      { type: "transport_ban", text: "Ship Ban", legalBasis: regulations },
      { type: "services_ban", text: "Service Prohibition", legalBasis: regulations },
    ]);
    assert.equal(udaya.program, "Russia Sanctions Regulations 2022 (New Zealand)");
    assert.equal(udaya.listedAtField, "Date of Sanction");
  });

  test("only the Ships sheet is read, its strings inline, shared or in rich-text runs alike", async () => {
    // The sheet and the string table are read on their own from the archive; other sheets stay packed.
    const parts = unzip(buildNzWorkbook()).map((e) => {
      let data = e.bytes.toString("utf8");
      if (e.name === "xl/worksheets/sheet2.xml") data = data.replace(/<c r="D2" t="s"><v>\d+<\/v><\/c>/, '<c r="D2" t="inlineStr"><is><t>Andaman Skies</t></is></c>');
      if (e.name === "xl/sharedStrings.xml") data = data.replace('<si><t xml:space="preserve">Udaya</t></si>', "<si><r><t>Uda</t></r><r><rPr><b/></rPr><t>ya</t></r></si>");
      return { name: e.name, data: Buffer.from(data) };
    });
    const parsed = await parseNewZealand(buildZip(parts));
    assert.deepEqual(
      parsed.map((d) => d.name),
      ["Andaman Skies", "Udaya", "Moti", "Angara"],
    );
  });

  test("deletion columns: a deleted ship stays in the file and is marked deleted with date and reason", async () => {
    const parsed = await parseNewZealand(buildNzWorkbook());
    const moti = byId(parsed, "NZ-TEST-S0003");
    assert.equal(moti.status, "deleted");
    assert.equal(moti.deletedAt, "2026-03-02");
    assert.equal(moti.deletionReason, "Test: vessel scrapped");
    assert.equal(byId(parsed, "NZ-TEST-S0001").status, "active");
    assert.equal(byId(parsed, "NZ-TEST-S0001").deletedAt, null);
  });

  test("a renamed sheet ('SHIPS') and a header below a title row are tolerated", async () => {
    const workbook = buildXlsx([{ name: "SHIPS", rows: [["Ships subject to sanctions"], ...NZ_SHIPS_ROWS.slice(0, 2)] }]);
    const parsed = await parseNewZealand(workbook);
    assert.deepEqual(
      parsed.map((d) => d.recordId),
      ["NZ-TEST-S0001"],
    );
  });

  test("a Ships sheet with only its header is valid and empty", async () => {
    assert.deepEqual(await parseNewZealand(buildNzWorkbook([NZ_SHIPS_HEADER])), []);
  });
});

describe("New Zealand bad input", () => {
  const rejects = async (bytes: Buffer, pattern: RegExp) =>
    assert.rejects(parseNewZealand(bytes), (e: unknown) => e instanceof SanctionsParseError && e.list === "new-zealand" && pattern.test(e.message));

  test("empty", () => rejects(Buffer.alloc(0), /empty/));
  test("garbage", () => rejects(Buffer.from([0x00, 0x01, 0x02, 0x03, 0xfe]), /not CSV, XML/));
  test("a CSV instead of the workbook", () => rejects(fixture("eu", "annex_xlii_vessels_amendment_32026R1848.csv"), /CSV; expected the Russia Sanctions Register/));
  test("a workbook without a Ships sheet", () => rejects(buildXlsx([{ name: "Russia Sanctions Register", rows: [["Type"]] }]), /no "Ships" sheet \(sheets: Russia Sanctions Register\)/));
  test("a Ships sheet without the expected header", () => rejects(buildXlsx([{ name: "Ships", rows: [["Vessel", "IMO"], ["X", 9288693]]}]), /no "Unique Identifier" header/));
  test("a truncated workbook", () => rejects(buildNzWorkbook().subarray(0, 900), /could not be read as an xlsx workbook/));
  test("a zip that is not a workbook", () => rejects(buildZip([{ name: "readme.txt", data: Buffer.from("hello") }]), /input\/readme\.txt is not CSV, XML or an xlsx workbook/));
});
