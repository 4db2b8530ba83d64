import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatId, ID_PREFIXES, idRule, type IdPrefix, parseId } from "../../src/domain/ids.ts";

describe("prefixed ids", () => {
  it("every kind reads back the number it was written with", () => {
    for (const prefix of Object.keys(ID_PREFIXES) as IdPrefix[]) {
      assert.equal(parseId(prefix, formatId(prefix, 12)), 12, prefix);
      assert.equal(parseId(prefix, formatId(prefix, 999_999_999_999_999)), 999_999_999_999_999, prefix);
    }
  });

  it("one kind's id is never taken for another's, and text that is not an id is refused", () => {
    assert.equal(parseId("wh", "dlv_12"), null);
    assert.equal(parseId("search", "zone_3"), null);
    for (const text of ["12", "wh_", "wh_0", "wh_012", "wh_1.5", "WH_12", " wh_12", "wh_12 ", "wh_1234567890123456"]) assert.equal(parseId("wh", text), null, text);
  });

  it("the rule a refused id parameter states names its kind with the right article", () => {
    assert.equal(idRule("wh"), "must be a webhook endpoint id such as wh_12");
    assert.equal(idRule("evt"), "must be an event id such as evt_12");
    assert.equal(idRule("search"), "must be a saved search id such as search_12");
  });
});
