import assert from "node:assert/strict";
import { test } from "node:test";
import { LAST_USE_RESOLUTION_MS, lastUseDue } from "../../src/domain/last-use.ts";

test("a credential's last use is written when never written, or a full minute after the last write", () => {
  const t = 1_000_000;
  assert.equal(lastUseDue(null, t), true);
  assert.equal(lastUseDue(undefined, t), true);
  assert.equal(lastUseDue(t - LAST_USE_RESOLUTION_MS + 1, t), false);
  assert.equal(lastUseDue(t - LAST_USE_RESOLUTION_MS, t), true);
});
