import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { diskFile, parseXml } from "../../../../src/adapters/importers/sanctions/common.ts";
import { parseOfac } from "../../../../src/adapters/importers/sanctions/ofac.ts";
import { fromAdvancedXmlTree, readAdvancedXml } from "../../../../src/adapters/importers/sanctions/ofac/advanced-xml.ts";
import { fromEnhancedXmlTree, readEnhancedXml } from "../../../../src/adapters/importers/sanctions/ofac/enhanced-xml.ts";
import { streamXmlElements } from "../../../../src/adapters/importers/sanctions/xml-stream.ts";
import { SanctionsParseError } from "../../../../src/domain/sanctions/designation.ts";
import { fixture, fixturePath, namedFixture } from "../../../helpers/sanctions-fixtures.ts";

const ADVANCED = "sdn_advanced_structure_from_csv_rows.xml";
const ENHANCED = "sdn_enhanced_structure_from_csv_rows.xml";

describe("OFAC XML read as a stream", () => {
  const dir = mkdtempSync(join(tmpdir(), "mds-xml-stream-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  // Chunks of 7 bytes cut elements, attributes and multi-byte characters in the middle.
  for (const chunkSize of [7, 1 << 20]) {
    test(`advanced: the stream gives what the whole-tree parse gives (chunks of ${chunkSize} bytes)`, async () => {
      const file = namedFixture("ofac", ADVANCED);
      const tree = fromAdvancedXmlTree(parseXml("ofac", file).node);
      const stream = await readAdvancedXml(file, chunkSize);
      assert.deepEqual(stream.designations(), tree.designations());
      assert.deepEqual(stream.listingDates(), tree.listingDates());
      assert.equal(stream.designations().length, 2);
    });

    test(`enhanced: the stream gives what the whole-tree parse gives (chunks of ${chunkSize} bytes)`, async () => {
      const file = namedFixture("ofac", ENHANCED);
      const tree = fromEnhancedXmlTree(parseXml("ofac", file).node);
      const stream = await readEnhancedXml(file, chunkSize);
      assert.deepEqual(stream.designations(), tree.designations());
      assert.deepEqual(stream.listingDates(), tree.listingDates());
      assert.equal(stream.designations()[0]!.name, "ARTAVIL");
    });
  }

  test("a file on disk is streamed from disk, with the same result as its bytes", async () => {
    const onDisk = await parseOfac([diskFile(ADVANCED, fixturePath("ofac", ADVANCED))]);
    assert.deepEqual(onDisk, await parseOfac(fixture("ofac", ADVANCED)));
  });

  test("a vessel feature the reader does not know is reported once and kept in the remarks", async () => {
    const xml = fixture("ofac", ADVANCED)
      .toString("utf8")
      .replace('<FeatureType ID="504">Secondary sanctions risk</FeatureType>', '<FeatureType ID="504">Secondary sanctions risk</FeatureType><FeatureType ID="777">Vessel Length</FeatureType>')
      .replace(
        '<Profile ID="47371" PartySubTypeID="1">',
        '<Profile ID="47371" PartySubTypeID="1"><Feature ID="9001" FeatureTypeID="777"><FeatureVersion ID="9001"><VersionDetail DetailTypeID="1432">244 m</VersionDetail></FeatureVersion></Feature>',
      );
    const warnings: string[] = [];
    const parsed = await parseOfac({ "SDN_ADVANCED.XML": Buffer.from(xml) }, { onWarning: (w) => warnings.push(w) });
    assert.equal(parsed.find((d) => d.recordId === "47371")!.remarks, "Vessel Length: 244 m");
    assert.deepEqual(warnings, ['ofac: SDN_ADVANCED.XML: SDN_ADVANCED vessel fields not read into designation fields, kept in the remarks: Feature "Vessel Length" (1 record)']);
  });

  const garbage: [string, string | Buffer, RegExp][] = [
    ["cut in the middle", fixture("ofac", ADVANCED).subarray(0, 3000), /not well-formed XML/],
    ["cut after the last record, before the root closes", fixture("ofac", ADVANCED).toString("utf8").replace(/<\/Sanctions>\s*$/, ""), /not well-formed XML/],
    ["mismatched tags", '<Sanctions><DistinctParties><DistinctParty ID="1"></DistinctParties></Sanctions>', /not well-formed XML/],
    ["an undeclared entity", "<Sanctions><DateOfIssue>&bogus;</DateOfIssue></Sanctions>", /not well-formed XML/],
    ["text after the root", "<Sanctions></Sanctions>trailing", /not well-formed XML/],
  ];
  for (const [name, content, pattern] of garbage) {
    test(`garbage is refused: ${name}`, async () => {
      const path = join(dir, "SDN_ADVANCED.XML");
      writeFileSync(path, content);
      await assert.rejects(
        () => streamXmlElements("ofac", diskFile("SDN_ADVANCED.XML", path), {}),
        (e) => e instanceof SanctionsParseError && pattern.test(e.message),
      );
      await assert.rejects(() => parseOfac([diskFile("SDN_ADVANCED.XML", path)]), SanctionsParseError);
    });
  }
});
