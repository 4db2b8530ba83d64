import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mmsiLinkSource } from "../../../src/domain/vessels/mmsi-link.ts";

describe("the source an IMO<->MMSI link is judged by", () => {
  const cases: { name: string; sources: string[]; expected: string[] }[] = [
    { name: "no link: nothing to judge", sources: [], expected: [] },
    { name: "one dataset", sources: ["marad"], expected: ["marad"] },
    { name: "one station", sources: ["station:7"], expected: ["station:7"] },
    { name: "a dataset before stations, wherever it stands", sources: ["station:3", "station:9", "emsa_mrv"], expected: ["emsa_mrv"] },
    { name: "the first of several datasets", sources: ["station:3", "ofac", "marad"], expected: ["ofac"] },
    { name: "stations only: the first, in the order given", sources: ["station:9", "station:3"], expected: ["station:9"] },
    { name: "a source merely starting with `station` is not a station", sources: ["station:2", "stationary"], expected: ["stationary"] },
    { name: "the same source twice is named once", sources: ["station:4", "station:4"], expected: ["station:4"] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(mmsiLinkSource(c.sources), c.expected);
    });
  }

  it("does not change the list it is given", () => {
    const sources = ["station:1", "marad"];
    mmsiLinkSource(sources);
    assert.deepEqual(sources, ["station:1", "marad"]);
  });
});
