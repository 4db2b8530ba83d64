import assert from "node:assert/strict";
import { it } from "node:test";
import { canonicalJson, NotCanonicalizable } from "../../../src/domain/screenings/canonical-json.ts";
import { retentionCutoff } from "../../../src/domain/screenings/retention.ts";

it("numbers are written as RFC 8785 appendix B writes them", () => {
  const cases: [number, string][] = [
    [0, "0"],
    [-0, "0"],
    [1e21, "1e+21"],
    [1e30, "1e+30"],
    [4.5, "4.5"],
    [2e-3, "0.002"],
    [0.000000000000000000000000001, "1e-27"],
    // As RFC 8785 gives it, text a parser rounds to the nearest double.
    [Number("333333333.33333329"), "333333333.3333333"],
    [-5e-324, "-5e-324"],
    [9007199254740992, "9007199254740992"],
    [295147905179352830000, "295147905179352830000"],
  ];
  for (const [n, text] of cases) assert.equal(canonicalJson(n), text, String(n));
});

it("members are sorted by UTF-16 code units, as RFC 8785 3.2.3's example sorts them", () => {
  const value = { "\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One", "\ud83d\ude00": "Emoji: Grinning Face", "\u0080": "Control", "\u00f6": "Latin Small Letter O With Diaeresis" };
  const order = Object.keys(JSON.parse(canonicalJson(value)) as object);
  // JSON.parse puts "1" (an array index) first whatever the text says; the text's order is checked on the keys themselves.
  const textOrder = [...canonicalJson(value).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
  assert.deepEqual(textOrder, ["\r", "1", "\u0080", "\u00f6", "\u20ac", "\ud83d\ude00", "\ufb33"]);
  assert.equal(order.length, 7);
});

it("RFC 8785 3.2.2's example is written byte for byte, nested and without whitespace", () => {
  const value = { numbers: [Number("333333333.33333329"), 1e30, 4.5, 2e-3, 0.000000000000000000000000001], string: "\u20ac$\u000f\nA'B\"\\\\\"/", literals: [null, true, false] };
  assert.equal(canonicalJson(value), '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
  assert.equal(canonicalJson({ b: [{ d: 1, c: 2 }], a: {} }), '{"a":{},"b":[{"c":2,"d":1}]}');
});

it("an object member that is undefined is left out, as in the JSON sent", () => {
  const value = { b: undefined, a: { c: undefined, d: [null] } };
  assert.equal(canonicalJson(value), '{"a":{"d":[null]}}');
  assert.equal(canonicalJson(value), canonicalJson(JSON.parse(JSON.stringify(value))));
});

it("refuses what JSON cannot carry exactly, naming where it is", () => {
  for (const [bad, where] of [
    [{ a: Number.NaN }, ".a"],
    [{ a: [1, Number.POSITIVE_INFINITY] }, ".a[1]"],
    [{ a: [1, undefined] }, ".a[1]"],
    [{ a: "\ud800x" }, ".a"],
    [{ a: new Date(0) }, ".a"],
    [{ a: () => 1 }, ".a"],
    [{ a: 1n }, ".a"],
  ] as [unknown, string][]) {
    assert.throws(() => canonicalJson(bad), (e) => e instanceof NotCanonicalizable && e.message.startsWith(`${where} cannot be canonicalized`), String(where));
  }
});

it("a retention in years is calendar years, in days whole days", () => {
  const now = Date.parse("2028-03-01T00:00:00Z");
  assert.equal(new Date(retentionCutoff(now, { count: 5, unit: "years" })).toISOString(), "2023-03-01T00:00:00.000Z");
  assert.equal(new Date(retentionCutoff(now, { count: 90, unit: "days" })).toISOString(), "2027-12-02T00:00:00.000Z");
});
