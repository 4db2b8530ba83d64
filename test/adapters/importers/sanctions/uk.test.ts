import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { parseUk } from "../../../../src/adapters/importers/sanctions/uk.ts";
import { type Designation, SanctionsParseError } from "../../../../src/domain/sanctions/designation.ts";
import { fixture, namedFixture, reassembleUkCsv, ukCsvHeader } from "../../../helpers/sanctions-fixtures.ts";

function byId<T extends { recordId: string }>(list: T[], id: string): T {
  const found = list.find((d) => d.recordId === id);
  assert.ok(found, `record ${id} expected`);
  return found;
}

describe("UK Sanctions List XML", () => {
  let parsed: Designation[];
  before(async () => {
    parsed = await parseUk(namedFixture("uk", "uk_sanctions_list_xml_ship_fragments.xml").bytes);
  });

  test("both real ship designations", async () => {
    assert.deepEqual(
      parsed.map((d) => d.recordId),
      ["DPR0075", "RUS3686"],
    );
  });

  test("DPR0075 Petrel 8 with every ship detail", async () => {
    const d = byId(parsed, "DPR0075");
    assert.equal(d.list, "uk");
    assert.equal(d.name, "Petrel 8");
    assert.deepEqual(d.aliases, ["Jal Vahini"]);
    assert.deepEqual(d.imos, [9562233]);
    assert.equal(d.program, "The Democratic People's Republic of Korea (Sanctions) (EU Exit) Regulations 2019");
    assert.equal(d.flag, "Comoros");
    assert.equal(d.flagIso2, "KM");
    assert.deepEqual(d.formerFlags, ["India"]);
    assert.equal(d.vesselType, "Bulk Carrier");
    assert.equal(d.tonnage, 7078);
    assert.equal(d.yearBuilt, 2011);
    assert.deepEqual(d.owners, ["Global United Shipping India"]);
    // "Sanctions Imposed", with the regime's regulations as its legal basis.
    assert.deepEqual(d.measures, [
      { type: "port_access_ban", text: "Prohibition of port entry", legalBasis: { instrument: "The Democratic People's Republic of Korea (Sanctions) (EU Exit) Regulations 2019", provision: null, url: null } },
    ]);
    assert.equal(d.listedAt, "2017-10-03");
    assert.equal(d.listedAtField, "Date Designated");
    assert.equal(d.updatedAt, "2021-12-18");
    assert.match(d.remarks ?? "", /Designation source: UN/);
  });

  test("a ship named by its IMO gets the quoted name as an alias", async () => {
    const d = byId(parsed, "RUS3686");
    assert.equal(d.name, 'IMO 9274082 ("TM HAI HA 568")');
    assert.deepEqual(d.aliases, ["TM HAI HA 568"]);
    assert.deepEqual(d.imos, [9274082]);
  });

  test("several IMO numbers on one ship are all kept", async () => {
    const xml = `<Designations><Designation><UniqueID>RUS9999</UniqueID><IndividualEntityShip>Ship</IndividualEntityShip>
      <Names><Name><Name6>TEST SHIP</Name6><NameType>Primary Name</NameType></Name></Names>
      <ShipDetails><Ship><IMONumbers><IMONumber>IMO9562233</IMONumber><IMONumber>8628597</IMONumber><IMONumber>IMO1234568</IMONumber></IMONumbers></Ship></ShipDetails>
      </Designation></Designations>`;
    const [d] = await parseUk(Buffer.from(xml));
    assert.deepEqual(d!.imos, [9562233, 8628597]);
    assert.deepEqual(d!.invalidImos, ["1234568"]);
  });

  test("fields the reader does not map are reported once and kept in the remarks", async () => {
    const xml = `<Designations><Designation><UniqueID>RUS9998</UniqueID><IndividualEntityShip>Ship</IndividualEntityShip>
      <Names><Name><Name6>TEST SHIP</Name6><NameType>Primary Name</NameType></Name></Names>
      <ShipBeneficialOwners><ShipBeneficialOwner>Example Holdings</ShipBeneficialOwner></ShipBeneficialOwners>
      <ShipDetails><Ship><IMONumbers><IMONumber>IMO9562233</IMONumber></IMONumbers><CallSigns><CallSign>ABCD</CallSign></CallSigns></Ship></ShipDetails>
      </Designation></Designations>`;
    const warnings: string[] = [];
    const [d] = await parseUk({ "UK-Sanctions-List.xml": Buffer.from(xml) }, { onWarning: (w) => warnings.push(w) });
    assert.equal(d!.remarks, "ShipBeneficialOwners: Example Holdings. CallSigns: ABCD");
    assert.deepEqual(warnings, [
      "uk: UK-Sanctions-List.xml: Ship designation fields not read into designation fields, kept in the remarks: ShipBeneficialOwners (1 record), CallSigns (1 record)",
    ]);
  });

  test("individuals and entities are skipped; an empty list is valid and empty", async () => {
    const xml = `<Designations><DateGenerated>20/08/2026</DateGenerated><Designation><UniqueID>RUS0001</UniqueID>
      <IndividualEntityShip>Entity</IndividualEntityShip><Names><Name><Name6>SHIPPING CO</Name6><NameType>Primary name</NameType></Name></Names>
      <OtherInformation>IMO 5342883</OtherInformation></Designation></Designations>`;
    assert.deepEqual(await parseUk(Buffer.from(xml)), []);
    assert.deepEqual(await parseUk(Buffer.from("<Designations><DateGenerated>20/08/2026</DateGenerated></Designations>")), []);
  });
});

describe("UK Sanctions List CSV", () => {
  // The 29-Apr-2026 ships, re-assembled into the official CSV layout (see helpers.ts and PROVENANCE.md).
  let parsed: Designation[];
  before(async () => {
    parsed = await parseUk({ "UK-Sanctions-List.csv": Buffer.from(reassembleUkCsv()) });
  });

  test("all 632 ships, one designation per Unique ID", async () => {
    assert.equal(parsed.length, 632);
    assert.equal(parsed.filter((d) => d.recordId.startsWith("RUS")).length, 595);
    assert.equal(parsed.filter((d) => d.recordId.startsWith("DPR")).length, 37);
    assert.equal(parsed.filter((d) => d.imos.length === 1).length, 631);
  });

  test("IMO written as IMO9562233 and as bare digits; aliases gathered from the name rows", async () => {
    const petrel = byId(parsed, "DPR0075");
    assert.deepEqual(petrel.imos, [9562233]);
    assert.deepEqual(petrel.aliases, ["Jal Vahini", "Jal_Vahini", "Tian Tai 36"]);
    assert.equal(petrel.listedAt, "2017-10-03");
    const haoFan = byId(parsed, "DPR0076");
    assert.equal(haoFan.name, "Hao Fan 6");
    assert.deepEqual(haoFan.imos, [8628597]);
  });

  test("a Russia-regime ship with its date", async () => {
    const d = byId(parsed, "RUS2176");
    assert.equal(d.name, "KOROLEV PROSPECT");
    assert.deepEqual(d.imos, [9826902]);
    assert.equal(d.program, "The Russia (Sanctions) (EU Exit) Regulations 2019");
    assert.equal(d.listedAt, "2024-07-31");
  });

  test("a ship published without IMO (DPR0120 Min Ning De You 078) is still a designation", async () => {
    const d = byId(parsed, "DPR0120");
    assert.deepEqual(d.imos, []);
    assert.equal(d.name, "Min Ning De You 078");
  });

  test("XML and CSV of one publication together: one record per id", async () => {
    const both = await parseUk([
      { name: "UK-Sanctions-List.csv", bytes: Buffer.from(reassembleUkCsv()) },
      namedFixture("uk", "uk_sanctions_list_xml_ship_fragments.xml"),
    ]);
    assert.equal(both.length, 633);
    assert.equal(byId(both, "DPR0075").flag, "Comoros", "the XML record wins");
  });

  test("a header-only CSV is valid and empty", async () => {
    assert.deepEqual(await parseUk(Buffer.from(`Report Date: 29-Apr-2026\r\n${ukCsvHeader().join(",")}\r\n`)), []);
  });
});

describe("UK bad input", () => {
  const rejects = (bytes: Buffer, pattern: RegExp) =>
    assert.rejects(
      () => parseUk(bytes),
      (e: unknown) => e instanceof SanctionsParseError && e.list === "uk" && pattern.test(e.message),
    );
  test("empty file", async () => rejects(Buffer.alloc(0), /empty/));
  test("garbage", async () => rejects(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x1a, 0x0a]), /not CSV, XML/));
  test("truncated XML", async () => {
    const xml = fixture("uk", "uk_sanctions_list_xml_ship_fragments.xml").toString("utf8");
    await rejects(Buffer.from(xml.slice(0, xml.indexOf("</ShipDetails>"))), /not well-formed XML/);
  });
  test("a CSV that is not the UK list", async () => rejects(fixture("eu", "annex_xlii_vessels_amendment_32026R1848.csv"), /no "Unique ID" header/));
  test("the UK derived table is not the official CSV either", async () => rejects(fixture("uk", "uk_sanctions_list_ships_derived_2026-04-29.csv"), /no "Unique ID" header/));
  test("another list's XML", async () => rejects(fixture("canada", "sema-lmes_pre-2026-08-25_tags_excerpt.xml"), /root <data-set>/));
});

describe("UK encodings", () => {
  test("a UTF-16 export of the CSV reads like the UTF-8 one", async () => {
    const text = reassembleUkCsv().replace(/^\uFEFF/, "");
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    assert.equal((await parseUk(utf16)).length, 632);
  });
});
