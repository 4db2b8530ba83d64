import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { celexToAct, parseEu, splitAnnexName } from "../../../../src/adapters/importers/sanctions/eu.ts";
import { SanctionsParseError } from "../../../../src/domain/sanctions/designation.ts";
import { fixture, namedFixture } from "../../../helpers/sanctions-fixtures.ts";

const CONSOLIDATED = () => namedFixture("eu", "annex_xlii_vessels_consolidated_02014R0833-20260717.csv");
const AMENDMENT = () => namedFixture("eu", "annex_xlii_vessels_amendment_32026R1848.csv");
const DPRK = () => namedFixture("eu", "dprk_vessels_consolidated_32017R1509.csv");
const FSF = () => namedFixture("eu", "fsf_xml_1_1_structure_excerpt_2018.xml");

function byId<T extends { recordId: string }>(list: T[], id: string): T {
  const found = list.find((d) => d.recordId === id);
  assert.ok(found, `record ${id} expected`);
  return found;
}

describe("EU Annex XLII (Regulation 833/2014)", () => {
  const consolidated = parseEu([CONSOLIDATED()]);

  test("all 633 entries of the 17 Jul 2026 consolidation, keyed by annex entry number", () => {
    assert.equal(consolidated.length, 633);
    assert.ok(consolidated.every((d) => d.imos.length === 1));
    assert.equal(byId(consolidated, "32014R0833/XLII/1").name, "Angara");
    // Deleted entries leave gaps in the numbering (14, 15, 51 ... per the notes).
    assert.ok(!consolidated.some((d) => d.recordId === "32014R0833/XLII/14"));
  });

  test("entry 1 Angara: IMO, programme, grounds, date of application", () => {
    const d = byId(consolidated, "32014R0833/XLII/1");
    assert.deepEqual(d.imos, [9179842]);
    assert.equal(d.program, "Regulation (EU) No 833/2014 Annex XLII");
    assert.deepEqual(d.programs, ["Regulation (EU) No 833/2014 Annex XLII", "EU-RUS"]);
    assert.equal(d.listedAt, "2024-06-25");
    assert.equal(d.listedAtField, "Date of application");
    assert.match(d.reason ?? "", /^Article 3s\(2\), point \(a\)/);
    // The annex's measure, and as legal basis the framework act and annex the entry is in.
    assert.deepEqual(d.measures, [
      {
        type: "transport_ban",
        text: "Transportation restrictions",
        legalBasis: { instrument: "Regulation (EU) No 833/2014", provision: "Annex XLII", url: "https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=CELEX:32014R0833" },
      },
    ]);
    assert.equal(d.sourceUrl, "https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=CELEX:32014R0833");
  });

  test("previous names become former names (Apar: Feng Shou; Andromeda Star)", () => {
    const d = byId(consolidated, "32014R0833/XLII/7");
    assert.equal(d.name, "Apar");
    assert.deepEqual(d.formerNames, ["Feng Shou", "Andromeda Star"]);
    assert.deepEqual(d.imos, [9402471]);
  });

  test("MIKHAIL ULYANOV is listed twice under two entries: both are kept", () => {
    const ulyanov = consolidated.filter((d) => d.imos.includes(9333670));
    assert.equal(ulyanov.length, 2);
    assert.deepEqual(ulyanov.map((d) => d.listedAt).sort(), ["2025-12-19", "2026-04-24"]);
  });

  test("consolidation + amending regulation 2026/1848: 42 added, the amended entry 629 replaced", () => {
    const amendment = parseEu([AMENDMENT()]);
    assert.equal(amendment.length, 42);
    const merged = parseEu([CONSOLIDATED(), AMENDMENT()]);
    assert.equal(merged.length, 674);
    const e629 = byId(merged, "32014R0833/XLII/629");
    assert.equal(e629.name, "STORMBRINGER");
    assert.deepEqual(e629.formerNames, ["KRITI VIGOR"]);
    assert.equal(e629.sourceUrl, "https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=CELEX:32026R1848");
    const kosygin = byId(merged, "32014R0833/XLII/652");
    assert.equal(kosygin.name, "ALEKSEY KOSYGIN");
    assert.deepEqual(kosygin.imos, [9904546]);
    assert.equal(kosygin.listedAt, "2026-07-24");
  });
});

describe("EU DPRK vessel annexes (Regulation 2017/1509)", () => {
  const dprk = parseEu([DPRK()]);

  test("75 vessel entries; unnumbered Annex XIII.B entries are keyed by IMO", () => {
    assert.equal(dprk.length, 75);
    assert.equal(new Set(dprk.map((d) => d.recordId)).size, 75);
    const chol = byId(dprk, "32017R1509/XIII.B/imo-8606173");
    assert.equal(chol.name, "Chol Ryong");
    assert.deepEqual(chol.aliases, ["Ryong Gun Bong"]);
    assert.equal(chol.listedAt, "2016-03-02");
    assert.equal(chol.program, "Regulation (EU) 2017/1509 Annex XIII.B");
  });

  test("MMSI where the annex gives one (PETREL 8)", () => {
    const petrel = byId(dprk, "32017R1509/XIV.B/1");
    assert.equal(petrel.name, "PETREL 8");
    assert.deepEqual(petrel.imos, [9562233]);
    assert.deepEqual(petrel.mmsis, [620233000]);
    assert.equal(petrel.listedAt, "2017-10-03");
  });

  test('"Does not exist" in the IMO column is no IMO at all', () => {
    const d = byId(dprk, "32017R1509/XIV.B/33");
    assert.equal(d.name, "MIN NING DE YOU 078");
    assert.deepEqual(d.imos, []);
    assert.deepEqual(d.invalidImos, []);
  });
});

describe("EU consolidated financial sanctions list (FSF XML)", () => {
  test("the real 2018 excerpt holds a person and an enterprise: no vessel", () => {
    assert.deepEqual(parseEu([FSF()]), []);
  });

  // The excerpt has no vessel; these entities follow its schema. Unica's name, IMO and date are those of
  // the DPRK annex XV.F row; the EU reference number is the one OpenSanctions maps to a vessel.
  const vesselXml = `<?xml version="1.0" encoding="UTF-8"?>
<export xmlns="http://eu.europa.ec/fpi/fsd/export" generationDate="2026-09-27T10:00:00.000+02:00" globalFileId="1">
  <sanctionEntity designationDetails="" unitedNationId="" euReferenceNumber="EU.9442.82" logicalId="9442" designationDate="2022-12-12">
    <regulation regulationType="amendment" organisationType="council" publicationDate="2022-12-12" entryIntoForceDate="2022-12-12" numberTitle="2022/2423 (OJ L318)" programme="PRK" logicalId="1">
      <publicationUrl>https://eur-lex.europa.eu/legal-content/EN/TXT/PDF/?uri=CELEX:32022R2423</publicationUrl>
    </regulation>
    <subjectType code="enterprise" classificationCode="E"/>
    <nameAlias wholeName="Unica" strong="true" logicalId="1"/>
    <identification identificationTypeCode="imo" identificationTypeDescription="IMO number" number="8514306" logicalId="1"/>
    <remark>The oil tanker and delivery vessel Unica actively participates in ship-to-ship transfers.</remark>
  </sanctionEntity>
  <sanctionEntity designationDetails="" unitedNationId="" euReferenceNumber="EU.9000.1" logicalId="9000" designationDate="2022-12-12">
    <regulation programme="PRK" numberTitle="2022/2423 (OJ L318)"/>
    <subjectType code="enterprise" classificationCode="E"/>
    <nameAlias wholeName="Example Ocean Shipping Co Ltd" strong="true"/>
    <identification identificationTypeCode="imo" number="5342883"/>
    <remark>Owner and manager of the vessel Example Star.</remark>
  </sanctionEntity>
</export>`;

  test("a ship typed as an enterprise is recognised; a shipping company with a company IMO is not", () => {
    const parsed = parseEu({ "xmlFullSanctionsList_1_1.xml": Buffer.from(vesselXml) });
    assert.equal(parsed.length, 1);
    const d = parsed[0]!;
    assert.equal(d.recordId, "FSF/EU.9442.82");
    assert.equal(d.name, "Unica");
    assert.deepEqual(d.imos, [8514306]);
    assert.equal(d.listedAt, "2022-12-12");
    assert.equal(d.listedAtField, "designationDate");
    assert.deepEqual(d.programs, ["PRK", "2022/2423 (OJ L318)"]);
    assert.match(d.sourceUrl, /CELEX:32022R2423/);
    // The FSF is the asset-freeze list; its legal basis is the act the entry names, as named.
    assert.deepEqual(d.measures, [{ type: "asset_freeze", text: "Asset freeze", legalBasis: { instrument: "2022/2423 (OJ L318)", provision: null, url: null } }]);
  });

  test("all EU files together", () => {
    const all = parseEu([CONSOLIDATED(), AMENDMENT(), DPRK(), FSF(), { name: "fsf-vessels.xml", bytes: Buffer.from(vesselXml) }]);
    assert.equal(all.length, 674 + 75 + 1);
  });
});

describe("EU helpers", () => {
  test("CELEX numbers to act names, both numbering styles", () => {
    assert.equal(celexToAct("32014R0833"), "Regulation (EU) No 833/2014");
    assert.equal(celexToAct("32017R1509"), "Regulation (EU) 2017/1509");
  });
  test("annex names with parentheses", () => {
    assert.deepEqual(splitAnnexName("Kavya (formerly Hana)"), { name: "Kavya", aliases: [], formerNames: ["Hana"] });
    assert.deepEqual(splitAnnexName("Chong Bong (Greenlight) (Blue Nouvelle)"), { name: "Chong Bong", aliases: ["Greenlight", "Blue Nouvelle"], formerNames: [] });
    // The consolidated text has one name whose parenthesis is never closed (this example name is made up).
    assert.deepEqual(splitAnnexName("Sea Owl I (ex Ocean Owl"), { name: "Sea Owl I", aliases: [], formerNames: ["Ocean Owl"] });
  });
});

describe("EU bad input", () => {
  const rejects = (input: Parameters<typeof parseEu>[0], pattern: RegExp) =>
    assert.throws(
      () => parseEu(input),
      (e: unknown) => e instanceof SanctionsParseError && e.list === "eu" && pattern.test(e.message),
    );
  test("empty file", () => rejects({ "annex.csv": Buffer.alloc(0) }, /annex\.csv is empty/));
  test("garbage", () => rejects(Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0x01]), /not CSV, XML/));
  test("a CSV that is not an annex table", () => rejects(fixture("ofac", "add_csv_excerpt.csv"), /not an EU annex table/));
  test("a CSV cut mid-row", () => {
    const text = CONSOLIDATED().bytes.toString("utf8");
    rejects(Buffer.from(text.slice(0, text.indexOf("\n", 20000) + 30)), /columns|not valid CSV/);
  });
  test("truncated FSF XML", () => {
    const xml = FSF().bytes.toString("utf8");
    rejects(Buffer.from(xml.slice(0, 3000)), /not well-formed XML/);
  });
  test("an xlsx workbook", () => rejects(Buffer.from("PK\u0003\u0004xl/workbook.xml"), /XLSX/));
  test("a header-only annex table is valid and empty", () => {
    const header = `${CONSOLIDATED().bytes.toString("utf8").split("\n")[0]}\n`;
    assert.deepEqual(parseEu(Buffer.from(header)), []);
  });
});
