import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { gzipSync } from "node:zlib";
import {
  detectSanctionsFormat,
  importSanctionsList,
  OFFICIAL_SANCTIONS_SOURCES,
  parseSanctionsList,
} from "../../../../src/adapters/importers/sanctions/index.ts";
import { SANCTIONS_LISTS, type SanctionsListKey, SanctionsParseError } from "../../../../src/domain/sanctions/designation.ts";
import { buildNzWorkbook, fixture, fixturePath } from "../../../helpers/sanctions-fixtures.ts";

describe("format detection by content", () => {
  test("CSV, XML, xlsx, zip, empty, binary", () => {
    assert.equal(detectSanctionsFormat(fixture("ofac", "sdn_csv_vessel_rows_2024-05-03.csv")), "csv");
    assert.equal(detectSanctionsFormat(fixture("uk", "uk_sanctions_list_xml_ship_fragments.xml")), "xml");
    assert.equal(detectSanctionsFormat(Buffer.from("\uFEFF<?xml version='1.0'?><a/>")), "xml");
    assert.equal(detectSanctionsFormat(Buffer.from("\uFEFFReport Date: 29-Apr-2026\r\nLast Updated,Unique ID\r\n")), "csv");
    assert.equal(detectSanctionsFormat(buildNzWorkbook()), "xlsx");
    assert.equal(detectSanctionsFormat(Buffer.alloc(0)), "empty");
    assert.equal(detectSanctionsFormat(Buffer.from(" \r\n\u001a")), "empty");
    assert.equal(detectSanctionsFormat(Buffer.from("%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj")), "unknown");
    assert.equal(detectSanctionsFormat(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])), "unknown");
  });
});

describe("parseSanctionsList dispatches by list", () => {
  const samples: Record<SanctionsListKey, () => Buffer> = {
    ofac: () => fixture("ofac", "sdn_csv_vessel_rows_2024-05-03.csv"),
    uk: () => fixture("uk", "uk_sanctions_list_xml_ship_fragments.xml"),
    eu: () => fixture("eu", "annex_xlii_vessels_consolidated_02014R0833-20260717.csv"),
    canada: () => fixture("canada", "sema-lmes_post-2026-08-25_bilingual_tags_excerpt.xml"),
    "new-zealand": () => fixture("nz", "russia-sanctions-register-ships-test.xlsx"),
  };
  const expected: Record<SanctionsListKey, number> = { ofac: 851, uk: 2, eu: 633, canada: 2, "new-zealand": 4 };

  for (const list of SANCTIONS_LISTS) {
    test(`${list}: the sample parses and every designation is tagged with the list`, async () => {
      const parsed = await parseSanctionsList(list, samples[list]());
      assert.equal(parsed.length, expected[list]);
      assert.ok(parsed.every((d) => d.list === list && d.recordId !== "" && d.sourceUrl.startsWith("https://")));
    });

    test(`${list}: garbage, empty and truncated input are clear errors naming the list`, async () => {
      const isListError = (pattern: RegExp) => (e: unknown) => e instanceof SanctionsParseError && e.list === list && e.message.startsWith(`${list} sanctions list:`) && pattern.test(e.message);
      await assert.rejects(parseSanctionsList(list, Buffer.alloc(0)), isListError(/empty/));
      await assert.rejects(parseSanctionsList(list, Buffer.from([0x00, 0x9f, 0x92, 0x96, 0x00, 0x00, 0x07])), isListError(/not CSV, XML or an xlsx workbook/));
      await assert.rejects(parseSanctionsList(list, Buffer.from("<?xml version='1.0'?><Designations><Designation><UniqueID>X")), isListError(/not well-formed XML|expected/));
      await assert.rejects(parseSanctionsList(list, []), isListError(/no file supplied/));
    });
  }

  test("an unknown list", async () => {
    await assert.rejects(importSanctionsList("un", fixturePath("ofac")), /unknown sanctions list "un"/);
  });

  test("each list has its official sources, except the EU which publishes no machine-readable vessel list", () => {
    assert.ok(OFFICIAL_SANCTIONS_SOURCES.ofac.some((u) => u.endsWith("/SDN.CSV")));
    assert.deepEqual(OFFICIAL_SANCTIONS_SOURCES.eu, []);
  });
});

describe("importSanctionsList reads files, directories and URLs", () => {
  let dir = "";
  let server: ReturnType<typeof createServer>;
  let base = "";

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "mds-sanctions-"));
    // Official file names in a directory, plus a note file that must be ignored.
    copyFileSync(fixturePath("ofac", "sdn_csv_vessel_rows_2024-05-03.csv"), join(dir, "sdn.csv"));
    copyFileSync(fixturePath("ofac", "alt_csv_excerpt.csv"), join(dir, "alt.csv"));
    writeFileSync(join(dir, "sdn_comments.csv.gz"), gzipSync(fixture("ofac", "sdn_comments_csv_excerpt.csv")));
    writeFileSync(join(dir, "README.md"), "not a list file");
    server = createServer((req, res) => {
      if (req.url === "/exports/SDN.CSV") {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.end(fixture("ofac", "sdn_csv_vessel_rows_2024-05-03.csv"));
      } else if (req.url === "/exports/ALT.CSV") {
        res.end(fixture("ofac", "alt_csv_excerpt.csv"));
      } else {
        res.writeHead(500);
        res.end("Internal Server Error");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a directory of OFAC files (one gzipped)", async () => {
    const parsed = await importSanctionsList("ofac", dir);
    assert.equal(parsed.length, 851);
    assert.deepEqual(parsed.find((d) => d.recordId === "15036")!.formerNames, ["ALPHA", "ABADAN", "SHONA"]);
  });

  test("single files, several at once", async () => {
    const parsed = await importSanctionsList("eu", [
      fixturePath("eu", "annex_xlii_vessels_consolidated_02014R0833-20260717.csv"),
      fixturePath("eu", "annex_xlii_vessels_amendment_32026R1848.csv"),
    ]);
    assert.equal(parsed.length, 674);
    assert.equal((await importSanctionsList("new-zealand", fixturePath("nz", "russia-sanctions-register-ships-test.xlsx"))).length, 4);
  });

  test("URLs of the official files", async () => {
    const parsed = await importSanctionsList("ofac", [`${base}/exports/SDN.CSV`, `${base}/exports/ALT.CSV`]);
    assert.equal(parsed.length, 851);
  });

  test("a failing download is an error, never an empty list", async () => {
    await assert.rejects(importSanctionsList("ofac", `${base}/exports/SDN_COMMENTS.CSV`), /HTTP 500/);
  });

  test("a missing path", async () => {
    await assert.rejects(importSanctionsList("uk", join(dir, "nope.xml")), /cannot be read: no such file or directory/);
  });
});
