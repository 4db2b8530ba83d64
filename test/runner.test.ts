/**
 * `npm test`'s runner (test/run.ts) on files of known outcome: what it counts, which files it
 * names as failed, and its exit code, with every file in one worker and with several.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";

const ROOT = join(import.meta.dirname, "..");
const fixture = (name: string) => `test/fixtures/runner/${name}.fixture.ts`;

function runner(files: string[], workers: number | string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, "test/run.ts"), ...files], { cwd: ROOT, env: { ...process.env, MDS_TEST_WORKERS: String(workers), INIT_CWD: ROOT } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, out: stdout, err: stderr });
    });
  });
}

const line = (out: string, name: string) => Number(new RegExp(`^ℹ ${name} (\\d+)$`, "m").exec(out)?.[1]);

describe("npm test's runner", () => {
  for (const workers of [1, 3]) {
    it(`passing files exit 0 with their counts (${workers} worker${workers > 1 ? "s" : ""})`, async () => {
      const r = await runner([fixture("passes")], workers);
      assert.equal(r.code, 0, r.out);
      assert.deepEqual([line(r.out, "tests"), line(r.out, "pass"), line(r.out, "skipped"), line(r.out, "fail")], [3, 2, 1, 0]);
      assert.doesNotMatch(r.out, /files with failures/);
    });

    it(`a file whose only suite is skipped passes, as node:test has it (${workers} worker${workers > 1 ? "s" : ""})`, async () => {
      const r = await runner([fixture("skipped-suite")], workers);
      assert.equal(r.code, 0, r.out);
      assert.match(r.out, /nothing to run it with/);
      assert.deepEqual([line(r.out, "tests"), line(r.out, "fail")], [0, 0]);
    });

    it(`a failing test fails the run, naming its file and no other (${workers} worker${workers > 1 ? "s" : ""})`, async () => {
      const r = await runner([fixture("passes"), fixture("fails")], workers);
      assert.equal(r.code, 1);
      assert.match(r.out, /✖ fails/);
      assert.deepEqual([line(r.out, "pass"), line(r.out, "fail")], [3, 1]);
      const failed = r.out.slice(r.out.indexOf("files with failures"));
      assert.match(failed, /fails\.fixture\.ts/);
      assert.doesNotMatch(failed, /passes\.fixture\.ts/);
    });

    // The file that ends its worker fails alone: a fresh worker takes the files still waiting.
    it(`a file that ends its worker's process fails the run, naming it; the other files still run (${workers} worker${workers > 1 ? "s" : ""})`, async () => {
      const r = await runner([fixture("exits"), fixture("passes"), fixture("fails")], workers);
      assert.equal(r.code, 1);
      assert.match(r.out, /a worker ended \(exit 7\) before its file finished, test\/fixtures\/runner\/exits\.fixture\.ts/);
      assert.deepEqual([line(r.out, "pass"), line(r.out, "fail")], [3, 2], "the other files' tests, and the exit counted as a failure");
      const failed = r.out.slice(r.out.indexOf("files with failures"));
      assert.match(failed, /exits\.fixture\.ts/);
      assert.match(failed, /fails\.fixture\.ts/);
      assert.doesNotMatch(failed, /passes\.fixture\.ts/);
    });
  }

  // A worker count that is not one would otherwise start no worker and pass having run nothing.
  for (const workers of ["0", "abc", "2.5"]) {
    it(`MDS_TEST_WORKERS=${workers} is refused in one line, and nothing passes`, async () => {
      const r = await runner([fixture("passes")], workers);
      assert.equal(r.code, 2);
      assert.equal(r.err.trim().split("\n").length, 1);
      assert.match(r.err, new RegExp(`MDS_TEST_WORKERS must be a whole number of 1 or more, not "${workers.replace(".", "\\.")}"`));
      assert.doesNotMatch(r.out, /ℹ pass/);
    });
  }
});
