import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { promisify } from "node:util";
import { PROJECT_ROOT } from "../src/main.ts";

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), "mds-cli-"));

/** Runs `mds` as a user would, on a store of its own (no data import: these commands need none). */
async function mds(args: string[], env: Record<string, string> = {}) {
  const { DATABASE_URL: _a, REDIS_URL: _b, ...rest } = process.env;
  return run(process.execPath, [join(PROJECT_ROOT, "bin/mds.ts"), ...args], { env: { ...rest, DATA_DIR: dataDir, LOG_LEVEL: "silent", ...env } });
}

describe("the mds command line", () => {
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("keys create prints the key alone, or one JSON object with --json", async () => {
    const plain = await mds(["keys", "create", "--plan", "sandbox"]);
    assert.match(plain.stdout, /^mds_sk_[0-9A-Za-z]{32}\n$/);
    const json = JSON.parse((await mds(["keys", "create", "--plan", "pro", "--json"])).stdout);
    assert.match(json.key, /^mds_sk_/);
    assert.match(json.id, /^key_/);
    assert.match(json.account, /^acc_/);
    assert.equal(json.plan, "pro");
  });

  it("accounts create, then a key and a station on that account", async () => {
    const account = JSON.parse((await mds(["accounts", "create", "--name", "harbour master", "--plan", "team", "--json"])).stdout);
    assert.equal(account.webPlan, "team");
    const key = JSON.parse((await mds(["keys", "create", "--plan", "growth", "--account", account.id, "--json"])).stdout);
    assert.equal(key.account, account.id);
    const station = JSON.parse((await mds(["stations", "create", "--account", account.id, "--name", "roof", "--json"])).stdout);
    assert.ok(Number.isInteger(station.id));
    assert.match(station.secret, /^mds_st_/);
    assert.equal(station.account, account.id);
    const listed = JSON.parse((await mds(["keys", "list", "--account", account.id, "--json"])).stdout);
    assert.deepEqual(listed.map((k: { id: string }) => k.id), [key.id]);
  });

  it("bad usage and bad configuration exit 2 with a readable message", async () => {
    await assert.rejects(mds(["keys", "create", "--plan", "gold"]), (e: { code: number; stderr: string }) => e.code === 2 && /unknown plan; use one of sandbox/.test(e.stderr));
    await assert.rejects(mds(["keys", "create", "--plan", "pro", "--account", "acc_nope"]), (e: { code: number; stderr: string }) => e.code === 2 && /no such account/.test(e.stderr));
    await assert.rejects(mds(["migrate"], { PORT: "http" }), (e: { code: number; stderr: string }) => e.code === 2 && /PORT: /.test(e.stderr));
    await assert.rejects(mds(["frobnicate"]), (e: { code: number; stderr: string }) => e.code === 2 && /unknown command/.test(e.stderr));
  });
});
