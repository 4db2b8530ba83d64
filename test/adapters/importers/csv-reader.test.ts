import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import { readCsv } from "../../../src/adapters/importers/csv-reader.ts";
import { parseCsvText } from "../../../src/adapters/importers/csv-text.ts";
import { BUNDLED_PORT_FILES } from "../../../src/adapters/importers/ports/bundled-ports.ts";
import { readSource, utf8 } from "../../../src/adapters/importers/read-source.ts";

const DATASETS = fileURLToPath(new URL("../../../datasets/", import.meta.url));
const label = "Test list CSV";
const columns = ["id", "name"] as const;
const read = (text: string | Buffer, extra: Partial<Parameters<typeof readCsv>[1]> = {}) =>
  readCsv(typeof text === "string" ? Buffer.from(text) : text, { label, columns, ...extra });

describe("readCsv: the expected file is read into rows and column indexes", () => {
  test("columns are found wherever they stand, after trimming, with a BOM and CRLF", () => {
    const table = read("\uFEFFextra, name ,id\r\nx,Alpha,1\r\ny,Beta,2\r\n");
    assert.deepEqual(table.column, { id: 2, name: 1 });
    assert.deepEqual(table.header, ["extra", "name", "id"]);
    assert.deepEqual(table.rows, [
      ["x", "Alpha", "1"],
      ["y", "Beta", "2"],
    ]);
  });

  test("ignoreCase matches a header whose capitalisation changed", () => {
    assert.deepEqual(read("ID,Name\n1,A\n", { ignoreCase: true }).column, { id: 0, name: 1 });
    assert.throws(() => read("ID,Name\n1,A\n"), /missing column\(s\) id, name/);
  });

  test("a headerless file is read with the header it implies", () => {
    const impliedHeader = (first: string[]) => (/^\d+$/.test(first[0] ?? "") ? columns : null);
    const table = read("1,A\n2,B\n", { impliedHeader });
    assert.deepEqual(table.rows, [
      ["1", "A"],
      ["2", "B"],
    ]);
    assert.deepEqual(read("id,name\n1,A\n", { impliedHeader }).rows, [["1", "A"]]);
  });

  test("text that is not UTF-8 is read as Latin-1 when asked", () => {
    const latin1 = Buffer.from("id,name\n1,Sète\n", "latin1");
    assert.deepEqual(read(latin1, { latin1Fallback: true }).rows, [["1", "Sète"]]);
    assert.deepEqual(read(latin1, { latin1Fallback: true, fast: true }).rows, [["1", "Sète"]]);
  });
});

describe("readCsv refuses what cannot be the expected file, naming the file and the problem", () => {
  const cases: Array<[string, Buffer, RegExp]> = [
    ["empty file", Buffer.alloc(0), /^Test list CSV: the file is empty$/],
    ["blank lines only", Buffer.from("\n\r\n  \n"), /^Test list CSV: the file is empty$/],
    ["gzip bytes", gzipSync("id,name\n1,A\n"), /^Test list CSV: the file is still gzip-compressed/],
    ["binary bytes", Buffer.from([0x69, 0x64, 0x2c, 0x00, 0xff, 0x0a]), /^Test list CSV: binary data \(NUL bytes\), not CSV text$/],
    ["undecodable header", Buffer.from([0x69, 0x64, 0x2c, 0xff, 0xfe, 0x0a, 0x31, 0x2c, 0x32]), /^Test list CSV: not UTF-8 CSV text/],
    ["another table", Buffer.from("mmsi,flag\n244000000,NL\n"), /^Test list CSV: unexpected header, missing column\(s\) id, name; got "mmsi", "flag"; is this the right file\?$/],
    ["header only", Buffer.from("id,name\n"), /^Test list CSV: no data rows after the header$/],
    ["a row cut short (truncated download)", Buffer.from("id,name\n1,A\n2"), /^Test list CSV: malformed CSV: .*line 3/],
    ["an unterminated quote (truncated download)", Buffer.from('id,name\n1,"Alp'), /^Test list CSV: malformed CSV: /],
  ];
  for (const [name, bytes, error] of cases) {
    test(name, () => {
      assert.throws(() => readCsv(bytes, { label, columns }), (err: Error) => {
        assert.match(err.message, error);
        return true;
      });
    });
  }

  test("many missing columns are counted rather than all listed", () => {
    const wanted = ["a", "b", "c", "d", "e", "f", "g", "h"] as const;
    assert.throws(() => readCsv(Buffer.from("x\n1\n"), { label, columns: wanted }), /missing column\(s\) a, b, c, d, e, f and 2 more;/);
  });

  test("not bytes at all is a TypeError", () => {
    assert.throws(() => readCsv("id,name" as unknown as Buffer, { label, columns }), TypeError);
  });
});

describe("parseCsvText (the fast reader of large files)", () => {
  test("gives csv-parse's rows on the bundled 2024 and WPI files", async () => {
    for (const file of [BUNDLED_PORT_FILES.unlocode2024, BUNDLED_PORT_FILES.wpi]) {
      const text = utf8(await readSource(DATASETS + file));
      const expected = parse(text, { relax_column_count: true, skip_empty_lines: true });
      assert.deepEqual(parseCsvText(text), expected, file);
    }
  });

  test("quotes, doubled quotes, line breaks inside quotes, empty trailing fields", () => {
    assert.deepEqual(parseCsvText('a,"b,""c""",\r\n"x\ny",z\n\n'), [
      ["a", 'b,"c"', ""],
      ["x\ny", "z"],
    ]);
    assert.throws(() => parseCsvText('a,"b'), /unterminated/);
    assert.throws(() => parseCsvText('a,b"c\n'), /quote inside an unquoted field on line 1/);
    assert.throws(() => parseCsvText('a\n"b"c\n'), /after a closing quote on line 2/);
  });
});
