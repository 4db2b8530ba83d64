import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { flagPagePath, nameSlug, portPagePath, searchPagePath, slugify, vesselPagePath, wreckPagePath } from "../../../src/domain/pages/page-paths.ts";

describe("page addresses", () => {
  it("a vessel with an IMO: the IMO then its name as a slug; without a name that may be shown, the bare IMO", () => {
    assert.equal(vesselPagePath({ kind: "imo", imo: 9321483 }, "Ever Given"), "/vessel/9321483-ever-given");
    assert.equal(vesselPagePath({ kind: "imo", imo: 9321483 }, "SØRLANDET & CO."), "/vessel/9321483-sorlandet-and-co");
    assert.equal(vesselPagePath({ kind: "imo", imo: 9321483 }, null), "/vessel/9321483");
    // A name of nothing but signs has no slug.
    assert.equal(vesselPagePath({ kind: "imo", imo: 9321483 }, "***"), "/vessel/9321483");
  });

  it("a craft without an IMO: mmsi- and its nine digits, whatever its name", () => {
    assert.equal(vesselPagePath({ kind: "mmsi", mmsi: 2_440_123 }, "Anything"), "/vessel/mmsi-002440123");
  });

  it("names are cut at 60 characters without a trailing hyphen, as the wreck import stores them", () => {
    const long = nameSlug(`${"a".repeat(59)} b and more`);
    assert.equal(long, "a".repeat(59));
    assert.equal(nameSlug(""), "");
    assert.equal(slugify("  Île-de-France!! "), "ile-de-france");
  });

  it("ports and flags in upper case; wrecks id first; search with its query escaped", () => {
    assert.equal(portPagePath("nlrtm"), "/port/NLRTM");
    assert.equal(flagPagePath("pa"), "/flag/PA");
    assert.equal(wreckPagePath(14296, "algeria"), "/wreck/14296-algeria");
    assert.equal(wreckPagePath(7, ""), "/wreck/7-wreck");
    assert.equal(searchPagePath("a&b c"), "/search?q=a%26b%20c");
    assert.equal(searchPagePath(), "/search");
  });
});
