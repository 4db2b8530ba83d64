import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deleted, notFound } from "../../src/operations/account.common.ts";

describe("account operations' shared answers", () => {
  it("a missing object's 404 names its kind and its id as the client wrote it", () => {
    const e = notFound("search", 7);
    assert.equal(e.code, "not_found");
    assert.equal(e.message, "No saved search search_7 in this account.");
    assert.equal(notFound("wh", 12).message, "No webhook endpoint wh_12 in this account.");
  });

  it("a delete answers the prefixed id", () => {
    assert.deepEqual(deleted("zone", 3), { id: "zone_3", deleted: true });
  });
});
