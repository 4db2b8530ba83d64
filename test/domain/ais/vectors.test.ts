// Every shared AIS vector, through the stream decoder (one fresh decoder per record).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  compare,
  decodeLines,
  type Json,
  KNOWN_MISMATCHES,
  RECORD_FILES,
  readJsonl,
  runRecord,
  runTricky,
} from "./vectors.ts";

describe("AIS vectors (one message per record)", () => {
  for (const file of RECORD_FILES) {
    test(file, () => {
      const recs = readJsonl(file);
      assert.ok(recs.length > 0, `${file} is empty`);
      const failures: string[] = [];
      let passed = 0;
      let skipped = 0;
      recs.forEach((rec, i) => {
        const res = runRecord(file, i, rec);
        if (KNOWN_MISMATCHES.has(res.id)) {
          skipped++;
          // A listed mismatch that starts passing must be taken off the list.
          assert.equal(res.ok, false, `${res.id} is listed as a known mismatch but now passes`);
          return;
        }
        if (res.ok) passed++;
        else failures.push(`${res.id}: ${res.diffs.join("; ")}`);
      });
      assert.deepEqual(failures, [], `${failures.length} of ${recs.length} vectors failed`);
      assert.equal(passed + skipped, recs.length);
    });
  }
});

describe("AIS vectors knowingly not matched (explicit list)", () => {
  for (const [id, reason] of KNOWN_MISMATCHES) test(id, { skip: reason }, () => {});
});

describe("AIS tricky stream cases", () => {
  for (const rec of readJsonl("tricky_cases.jsonl")) {
    test(String(rec["id"]), () => {
      const res = runTricky(rec);
      assert.deepEqual(res.diffs, [], `${res.id}: ${rec["description"] as string}`);
      assert.ok(res.ok);
    });
  }
});

test("libais tag block stream: group split by an unrelated sentence gives 4 messages in order", () => {
  const recs = readJsonl("libais_tagblock.jsonl");
  const stream = recs[0]!["stream_input_order"] as string[];
  const msgs = decodeLines(stream);
  assert.equal(msgs.length, recs.length);
  recs.forEach((rec, i) => {
    assert.deepEqual(compare("libais_tagblock.jsonl", rec["expected"] as Json, msgs[i]!), [], `message ${i}`);
  });
});

test("the known-mismatch list only names existing vector ids", () => {
  const ids = new Set<string>();
  for (const file of RECORD_FILES) {
    const n = readJsonl(file).length;
    for (let i = 1; i <= n; i++) ids.add(`${file}:${i}`);
  }
  for (const id of KNOWN_MISMATCHES.keys()) assert.ok(ids.has(id), id);
});
