import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { parseOfac, parseOfacRemarks, splitOfacPrograms } from "../../../../src/adapters/importers/sanctions/ofac.ts";
import { type Designation, SanctionsParseError } from "../../../../src/domain/sanctions/designation.ts";
import { buildZip, fixture, namedFixture } from "../../../helpers/sanctions-fixtures.ts";

const SDN_2024 = () => namedFixture("ofac", "sdn_csv_vessel_rows_2024-05-03.csv");
const ALT = () => namedFixture("ofac", "alt_csv_excerpt.csv");
const ADD = () => namedFixture("ofac", "add_csv_excerpt.csv");
const COMMENTS = () => namedFixture("ofac", "sdn_comments_csv_excerpt.csv");

function byId<T extends { recordId: string }>(list: T[], id: string): T {
  const found = list.find((d) => d.recordId === id);
  assert.ok(found, `record ${id} expected`);
  return found;
}

describe("OFAC SDN CSV", () => {
  let all: Designation[];
  before(async () => {
    all = await parseOfac([SDN_2024(), ALT(), ADD(), COMMENTS()]);
  });

  test("every vessel row of the 2024-05-03 sdn.csv becomes one designation", async () => {
    assert.equal(all.length, 851);
    assert.equal(new Set(all.map((d) => d.recordId)).size, 851);
    assert.equal(all.filter((d) => d.imos.length > 0).length, 846);
    assert.equal(all.filter((d) => d.mmsis.length > 0).length, 154);
    assert.ok(all.every((d) => d.list === "ofac" && d.listedAt === null), "the CSV carries no designation date");
  });

  test("ARTAVIL: identifiers from the remarks, fields from the columns, former names from alt.csv", async () => {
    const d = byId(all, "15036");
    assert.equal(d.name, "ARTAVIL");
    assert.deepEqual(d.imos, [9187629]);
    assert.deepEqual(d.mmsis, [572469210]);
    assert.deepEqual(d.programs, ["IRAN"]);
    assert.equal(d.callSign, "T2EU4");
    assert.equal(d.vesselType, "Crude/Oil Products Tanker");
    assert.equal(d.tonnage, 99144);
    assert.equal(d.grossTonnage, 56068);
    assert.equal(d.flag, "Iran");
    assert.equal(d.flagIso2, "IR");
    assert.deepEqual(d.formerFlags, ["Malta", "Tuvalu", "Tanzania"]);
    assert.deepEqual(d.formerNames, ["ALPHA", "ABADAN", "SHONA"]);
    assert.deepEqual(d.owners, ["NATIONAL IRANIAN TANKER COMPANY"]);
    assert.deepEqual(d.measures, [
      // Everything on the SDN list is blocked, under each programme it carries; IRAN names no executive order.
      { type: "asset_freeze", text: "Block (programme IRAN)", legalBasis: null },
      { type: "secondary_sanctions_risk", text: "Additional Sanctions Information - Subject to Secondary Sanctions", legalBasis: null },
    ]);
    assert.equal(d.sourceUrl, "https://sanctionssearch.ofac.treas.gov/Details.aspx?id=15036");
  });

  test("aka names from alt.csv are aliases, fka names are former names", async () => {
    const d = byId(all, "15038"); // alt.csv: fka AMOL, CASTOR, SILVER CLOUD; aka ARGO 1
    assert.ok(d.aliases.includes("ARGO 1"));
    assert.ok(!d.formerNames.includes("ARGO 1"));
    for (const fka of ["AMOL", "CASTOR", "SILVER CLOUD"]) assert.ok(d.formerNames.includes(fka), fka);
  });

  test("multi-programme tags are split; NS LEADER's 'Identification Number IMO' is read", async () => {
    const watchman = await parseOfac(namedFixture("ofac", "sdn_csv_vessel_rows_watchman_ofactest.csv").bytes);
    assert.deepEqual(byId(watchman, "50972").programs, ["SDGT", "IFSR"]);
    const ns = byId(watchman, "47371");
    assert.equal(ns.name, "NS LEADER");
    assert.deepEqual(ns.imos, [9339301]);
    assert.deepEqual(ns.mmsis, [636013272]);
    assert.deepEqual(ns.programs, ["RUSSIA-EO14024"]);
    assert.equal(ns.flagIso2, "GA");
    // The programme tag and the remark name their executive order; the remark its section too.
    assert.deepEqual(ns.measures, [
      { type: "asset_freeze", text: "Block (programme RUSSIA-EO14024)", legalBasis: { instrument: "Executive Order 14024", provision: null, url: null } },
      {
        type: "secondary_sanctions_risk",
        text: "Secondary sanctions risk: See Section 11 of Executive Order 14024",
        legalBasis: { instrument: "Executive Order 14024", provision: "Section 11", url: null },
      },
    ]);
  });

  test("non-IMO registration numbers stay external ids, never IMOs", async () => {
    const bonu = byId(all, "23424"); // "Vessel Registration Identification 15411 (Malta)"
    assert.deepEqual(bonu.imos, []);
    assert.deepEqual(bonu.invalidImos, []);
    assert.deepEqual(bonu.externalIds, [{ type: "Vessel Registration Identification", value: "15411 (Malta)" }]);
    const shellest = byId(all, "37479"); // "RS 150443 (Russia)"
    assert.deepEqual(shellest.imos, []);
    assert.deepEqual(shellest.mmsis, [273385420]);
  });

  test("remarks cut at 1000 characters continue in sdn_comments.csv, even mid-number", async () => {
    const line = SDN_2024()
      .bytes.toString("utf8")
      .split("\r\n")
      .find((l) => l.startsWith("15036,"))!;
    // Cut ARTAVIL's remarks inside "IMO 9187629" the way OFAC cuts at the column limit.
    const cut = line.indexOf("IMO 9187") + "IMO 9187".length;
    const head = `${line.slice(0, cut)}"`;
    const tail = line.slice(cut, -1);
    const comments = Buffer.from(`15036,"${tail}"\r\n`);
    const withSpill = byId(await parseOfac([{ name: "sdn.csv", bytes: Buffer.from(`${head}\r\n`) }, { name: "sdn_comments.csv", bytes: comments }]), "15036");
    assert.deepEqual(withSpill.imos, [9187629]);
    assert.deepEqual(withSpill.mmsis, [572469210]);
    assert.deepEqual(withSpill.formerNames, ["ALPHA"]);
    assert.ok(withSpill.remarks?.endsWith("Linked To: NATIONAL IRANIAN TANKER COMPANY."));
    const warnings: string[] = [];
    const withoutSpill = byId(await parseOfac({ "sdn.csv": Buffer.from(`${head}\r\n`) }, { onWarning: (w) => warnings.push(w) }), "15036");
    assert.deepEqual(withoutSpill.imos, [], "the cut IMO must not be guessed");
    assert.deepEqual(withoutSpill.invalidImos, ["9187"]);
    assert.ok(warnings.some((w) => w.includes("SDN_COMMENTS.CSV")));
  });

  test("a cut right after a space keeps the space", async () => {
    const line = SDN_2024()
      .bytes.toString("utf8")
      .split("\r\n")
      .find((l) => l.startsWith("15036,"))!;
    const cut = line.indexOf("IMO 9187629") + "IMO ".length;
    const parsed = await parseOfac({
      "sdn.csv": Buffer.from(`${line.slice(0, cut)}"\r\n`),
      "sdn_comments.csv": Buffer.from(`15036,"${line.slice(cut, -1)}"\r\n`),
    });
    assert.deepEqual(byId(parsed, "15036").imos, [9187629]);
    assert.match(byId(parsed, "15036").remarks ?? "", /Identification IMO 9187629; MMSI/);
  });

  test("the real comment rows (non-vessel ent_nums) are accepted and change no vessel", async () => {
    const without = await parseOfac([SDN_2024()]);
    assert.deepEqual(
      all.map((d) => [d.recordId, d.imos, d.mmsis]),
      without.map((d) => [d.recordId, d.imos, d.mmsis]),
    );
  });

  test("a remark no rule reads is reported once and stays in the remarks", async () => {
    const row = '52327,"TASCA","vessel","IRAN-EO13846",-0- ,"3E2647","Crude Oil Tanker",-0- ,-0- ,"Panama",-0- ,"Vessel Registration Identification IMO 9313149; Vessel Length 244 m; MMSI 352002494."\r\n';
    const warnings: string[] = [];
    const [d] = await parseOfac({ "SDN.CSV": Buffer.from(row) }, { onWarning: (w) => warnings.push(w) });
    assert.deepEqual([d!.imos, d!.mmsis], [[9313149], [352002494]]);
    assert.match(d!.remarks ?? "", /Vessel Length 244 m/);
    assert.ok(warnings.includes('ofac: SDN.CSV: vessel remark fields not read into designation fields, kept in the remarks: "Vessel Length" (1 record)'), warnings.join("\n"));
  });

  test("a company's IMO number is not a vessel IMO: non-vessel rows are skipped", async () => {
    // Synthetic entity row in the real layout (SDN_Type "-0-" for entities), carrying IMO-like company numbers.
    const entity = '99999,"EXAMPLE MARITIME CO LTD",-0- ,"IRAN",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"Identification Number IMO 9339301; Company Number IMO 5342883."\r\n';
    const vessel = `${SDN_2024()
      .bytes.toString("utf8")
      .split("\r\n")
      .find((l) => l.startsWith("47371,"))}\r\n`;
    const parsed = await parseOfac(Buffer.from(entity + vessel));
    assert.deepEqual(
      parsed.map((d) => [d.recordId, d.name, d.imos]),
      [["47371", "NS LEADER", [9339301]]],
    );
  });

  test("files are recognised by content whatever their names, also inside a zip", async () => {
    const zip = buildZip([
      { name: "SDN.CSV", data: SDN_2024().bytes },
      { name: "ALT.CSV", data: ALT().bytes },
    ]);
    const fromZip = await parseOfac({ "sdn_csv.zip": zip });
    assert.equal(fromZip.length, 851);
    assert.deepEqual(byId(fromZip, "15036").formerNames, ["ALPHA", "ABADAN", "SHONA"]);
    const swapped = await parseOfac(new Map([["a.bin", ALT().bytes], ["b.bin", SDN_2024().bytes]]));
    assert.equal(swapped.length, 851);
  });
});

describe("OFAC XML", () => {
  test("legacy SDN.XML fragment: EBANO with its IMO", async () => {
    const [d, ...rest] = await parseOfac(namedFixture("ofac", "sdn_xml_legacy_vessel_fragment.xml").bytes);
    assert.equal(rest.length, 0);
    assert.equal(d!.recordId, "4243");
    assert.equal(d!.name, "EBANO");
    assert.deepEqual(d!.imos, [7406784]);
  });

  test("advanced XML on its own: vessels with programme, flag ISO2, owner, date; company IMO ignored", async () => {
    const parsed = await parseOfac(namedFixture("ofac", "sdn_advanced_structure_from_csv_rows.xml").bytes);
    assert.deepEqual(parsed.map((d) => d.recordId).sort(), ["31920", "47371"]);
    const ns = byId(parsed, "47371");
    assert.equal(ns.name, "NS LEADER");
    assert.deepEqual(ns.imos, [9339301]);
    assert.deepEqual(ns.mmsis, [636013272]);
    assert.deepEqual(ns.programs, ["RUSSIA-EO14024"]);
    assert.equal(ns.flag, "Gabon");
    assert.equal(ns.flagIso2, "GA");
    assert.equal(ns.callSign, "A8LU7");
    assert.equal(ns.vesselType, "Crude Oil Tanker");
    assert.deepEqual(ns.owners, ["NS LEADER SHIPPING INCORPORATED"]);
    assert.equal(ns.listedAt, "2024-02-08");
    assert.match(ns.listedAtField ?? "", /EntryEvent/);
    assert.equal(byId(parsed, "31920").listedAt, "2021-08-20");
    assert.ok(!parsed.some((d) => d.imos.includes(5342883) || d.invalidImos.includes("5342883")));
  });

  test("CSV plus advanced XML: the CSV is the base and the XML adds designation dates", async () => {
    const parsed = await parseOfac([SDN_2024(), ALT(), COMMENTS(), namedFixture("ofac", "sdn_advanced_structure_from_csv_rows.xml")]);
    assert.equal(parsed.length, 851);
    assert.equal(byId(parsed, "47371").listedAt, "2024-02-08");
    assert.equal(byId(parsed, "31920").listedAt, "2021-08-20");
    assert.equal(byId(parsed, "31920").owners[0], "SAMARA HEAT AND ENERGY PROPERTY FUND");
    assert.equal(byId(parsed, "15036").listedAt, null);
  });

  test("enhanced XML: vessel, former names, tonnage, datePublished; the company entity is skipped", async () => {
    const parsed = await parseOfac(namedFixture("ofac", "sdn_enhanced_structure_from_csv_rows.xml").bytes);
    assert.equal(parsed.length, 1);
    const d = parsed[0]!;
    assert.equal(d.recordId, "15036");
    assert.equal(d.name, "ARTAVIL");
    assert.deepEqual(d.imos, [9187629]);
    assert.deepEqual(d.mmsis, [572469210]);
    assert.deepEqual(d.formerNames, ["ALPHA", "SHONA"]);
    assert.deepEqual(d.formerFlags, ["Malta"]);
    assert.equal(d.tonnage, 99144);
    assert.equal(d.flagIso2, "IR");
    assert.deepEqual(d.owners, ["NATIONAL IRANIAN TANKER COMPANY"]);
    assert.equal(d.listedAt, "2012-07-12");
  });
});

describe("OFAC bad input", () => {
  const rejects = (input: Parameters<typeof parseOfac>[0], pattern: RegExp) =>
    assert.rejects(
      () => parseOfac(input),
      (e: unknown) => e instanceof SanctionsParseError && e.list === "ofac" && pattern.test(e.message),
    );

  test("a 0-byte sdn.csv (a failed download) is an error, not an empty list", async () => rejects({ "sdn.csv": Buffer.alloc(0) }, /sdn\.csv is empty/));
  test("garbage bytes", async () => rejects(Buffer.from([0x00, 0xff, 0x13, 0x37, 0x00, 0x42, 0x99]), /not CSV, XML/));
  test("a CSV with the wrong number of columns", async () => rejects(Buffer.from("a,b,c\r\n1,2,3\r\n"), /3 columns/));
  test("a CSV cut in the middle of a record", async () => {
    const text = SDN_2024().bytes.toString("utf8");
    await rejects(Buffer.from(text.slice(0, text.indexOf("\r\n", 5000) + 40)), /record \d+ has \d+ columns|not valid CSV/);
  });
  test("truncated XML", async () => {
    const xml = fixture("ofac", "sdn_advanced_structure_from_csv_rows.xml").toString("utf8");
    await rejects(Buffer.from(xml.slice(0, Math.floor(xml.length / 2))), /not well-formed XML/);
  });
  test("another list's XML", async () => rejects(fixture("uk", "uk_sanctions_list_xml_ship_fragments.xml"), /root <Designations>/));
  test("companion files without sdn.csv", async () => rejects([ALT(), COMMENTS()], /no SDN list file/));
  test("a damaged zip", async () => rejects({ "sdn.zip": buildZip([{ name: "SDN.CSV", data: SDN_2024().bytes }]).subarray(0, 2000) }, /zip archive that cannot be read/));
});

describe("OFAC helpers", () => {
  test("programme tags", async () => {
    assert.deepEqual(splitOfacPrograms("IRAN] [NPWMD] [IFSR"), ["IRAN", "NPWMD", "IFSR"]);
    assert.deepEqual(splitOfacPrograms("CAATSA - RUSSIA] [PEESA-EO14039"), ["CAATSA - RUSSIA", "PEESA-EO14039"]);
    assert.deepEqual(splitOfacPrograms(null), []);
  });

  test("remarks: a 6-digit IMO typo is kept as an invalid value, a bare 7-digit registration is tried as IMO", async () => {
    const typo = parseOfacRemarks("Vessel Registration Identification IMO 924298; Linked To: X.");
    assert.deepEqual(typo.imoValues, ["IMO 924298"]);
    const bare = parseOfacRemarks("Vessel Registration Identification 8606173.");
    assert.deepEqual(bare.imoValues, ["8606173"]);
    const country = parseOfacRemarks("Vessel Registration Identification IMO 9256860 (Russia); Vessel Year of Build 1999.");
    assert.deepEqual(country.imoValues, ["IMO 9256860"]);
    assert.equal(country.yearBuilt, 1999);
  });
});
