import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseCanada } from "../../../../src/adapters/importers/sanctions/canada.ts";
import { SanctionsParseError } from "../../../../src/domain/sanctions/designation.ts";
import { fixture, namedFixture } from "../../../helpers/sanctions-fixtures.ts";

const OLD = () => namedFixture("canada", "sema-lmes_pre-2026-08-25_tags_excerpt.xml");
const BILINGUAL = () => namedFixture("canada", "sema-lmes_post-2026-08-25_bilingual_tags_excerpt.xml");

function byId<T extends { recordId: string }>(list: T[], id: string): T {
  const found = list.find((d) => d.recordId === id);
  assert.ok(found, `record ${id} expected`);
  return found;
}

describe("Canada sema-lmes.xml", () => {
  test("element names used until 24 Aug 2026: 2 ships out of 7 records", async () => {
    const parsed = await parseCanada(OLD().bytes);
    assert.deepEqual(
      parsed.map((d) => [d.recordId, d.name, d.imos]),
      [
        ["Russia / Russie|1.1|1", "Balitiyskiy III", [7612448]],
        ["Russia / Russie|1.1|257", "Alliance", [9413561]],
      ],
    );
    const alliance = byId(parsed, "Russia / Russie|1.1|257");
    assert.equal(alliance.vesselType, "Oil Tanker");
    assert.equal(alliance.yearBuilt, 2009);
    assert.equal(alliance.listedAt, "2025-02-21");
    assert.equal(alliance.program, "Russia / Russie, Schedule 1.1");
    assert.deepEqual(alliance.programs, ["Russia / Russie"]);
    assert.equal(alliance.flag, null, "Country is the regime, never the flag");
  });

  test("bilingual element names from 25 Aug 2026: same fields, same record ids", async () => {
    const parsed = await parseCanada(BILINGUAL().bytes);
    assert.equal(parsed.length, 2);
    const balitiyskiy = byId(parsed, "Russia / Russie|1.1|1");
    assert.equal(balitiyskiy.name, "Balitiyskiy III");
    assert.deepEqual(balitiyskiy.imos, [7612448]);
    assert.equal(balitiyskiy.vesselType, "General Cargo/Multi Purpose");
    assert.equal(balitiyskiy.listedAt, "2025-02-21");
    const maria = byId(parsed, "Russia / Russie|1.1|2");
    assert.equal(maria.name, "M/V Maria", "trailing space trimmed");
    assert.deepEqual(maria.imos, [8517839]);
    assert.equal(maria.yearBuilt, 1986);
    assert.equal(maria.listedAt, "2025-06-13");
    // The same ship under both element generations diffs as unchanged apart from what the excerpts differ in.
    const old = byId(await parseCanada(OLD().bytes), "Russia / Russie|1.1|1");
    assert.deepEqual({ ...balitiyskiy, yearBuilt: null }, { ...old, yearBuilt: null });
  });

  test("elements of a ship record the reader does not know are reported once and kept in the remarks", async () => {
    const xml = `<data-set>
      <record><Country>Russia / Russie</Country><EntityOrShip>Angara</EntityOrShip><ShipIMONumber>9179842</ShipIMONumber><FlagState>Comoros</FlagState><Schedule>1.1</Schedule><Item>300</Item></record>
    </data-set>`;
    const warnings: string[] = [];
    const [d] = await parseCanada({ "sema-lmes.xml": Buffer.from(xml) }, { onWarning: (w) => warnings.push(w) });
    assert.equal(d!.remarks, "FlagState: Comoros");
    assert.deepEqual(warnings, ["canada: sema-lmes.xml: ship record fields not read into designation fields, kept in the remarks: FlagState (1 record)"]);
  });

  test("the oldest names (Entity, DateOfBirth) and stray text in the IMO element of a person", async () => {
    const xml = `<data-set>
      <record><Country>Iran / Iran</Country><LastName>TEST</LastName><GivenName>Person</GivenName><ShipIMONumber>نام</ShipIMONumber><Schedule>1, Part 1</Schedule><Item>9</Item><DateOfListing>2022-10-17</DateOfListing></record>
      <record><Country>Russia / Russie</Country><Entity>Angara</Entity><ShipIMONumber>9179842</ShipIMONumber><Schedule>1.1</Schedule><Item>300</Item><DateOfListing>45708</DateOfListing></record>
      <record><Country>Russia / Russie</Country><Entity>Blank Imo Entity</Entity><ShipIMONumber> </ShipIMONumber><Schedule>1, Part 2</Schedule><Item>5</Item></record>
    </data-set>`;
    const parsed = await parseCanada(Buffer.from(xml));
    assert.equal(parsed.length, 1);
    assert.equal(parsed[0]!.name, "Angara");
    assert.equal(parsed[0]!.listedAt, "2025-02-20", "an Excel serial listing date is converted");
  });

  test("a list with no ship is valid and empty", async () => {
    assert.deepEqual(await parseCanada(Buffer.from("<data-set><record><Country>X</Country><LastName>A</LastName></record></data-set>")), []);
    assert.deepEqual(await parseCanada(Buffer.from('<?xml version="1.0"?><data-set/>')), []);
  });
});

describe("Canada bad input", () => {
  const rejects = (bytes: Buffer, pattern: RegExp) =>
    assert.rejects(
      () => parseCanada(bytes),
      (e: unknown) => e instanceof SanctionsParseError && e.list === "canada" && pattern.test(e.message),
    );
  test("empty", async () => rejects(Buffer.alloc(0), /empty/));
  test("garbage", async () => rejects(Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff]), /not CSV, XML/));
  test("CSV (the retired edition)", async () => rejects(Buffer.from("Country,EntityOrShip,ShipIMONumber\r\nRussia,X,7612448\r\n"), /CSV edition was retired/));
  test("truncated XML", async () => {
    const xml = OLD().bytes.toString("utf8");
    await rejects(Buffer.from(xml.slice(0, xml.lastIndexOf("</record>"))), /not well-formed XML/);
  });
  test("another list's XML", async () => rejects(fixture("uk", "uk_sanctions_list_xml_ship_fragments.xml"), /root <Designations>/));
});
