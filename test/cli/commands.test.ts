import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runCli } from "./run-cli.ts";

const dataDir = mkdtempSync(join(tmpdir(), "mds-cli-"));
/** `mds` in process, on a store of its own (no data import: these commands need none). */
const mds = (args: string[], env: Record<string, string> = {}) => runCli(args, { DATA_DIR: dataDir, ...env });

describe("the mds command line, in process", () => {
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("keys create prints the key alone, or one JSON object with --json", async () => {
    const plain = await mds(["keys", "create", "--plan", "sandbox"]);
    assert.equal(plain.code, 0);
    assert.match(plain.stdout, /^mds_sk_[0-9A-Za-z]{32}\n$/);
    const json = JSON.parse((await mds(["keys", "create", "--plan", "pro", "--json"])).stdout);
    assert.match(json.key, /^mds_sk_/);
    assert.match(json.id, /^key_/);
    assert.match(json.account, /^acc_/);
    assert.equal(json.plan, "pro");
  });

  it("accounts create, then a key and a station on that account; keys list and revoke", async () => {
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
    assert.equal((await mds(["keys", "revoke", key.id])).stdout, `revoked ${key.id}\n`);
    assert.match((await mds(["keys", "list", "--account", account.id])).stdout, new RegExp(`^${key.id} .* revoked`));
    const stations = JSON.parse((await mds(["stations", "list", "--account", account.id, "--json"])).stdout);
    assert.deepEqual(stations.map((s: { id: number }) => s.id), [station.id]);
    const rotated = JSON.parse((await mds(["stations", "rotate-secret", "--station", String(station.id), "--json"])).stdout);
    assert.equal(rotated.id, station.id);
    assert.match(rotated.secret, /^mds_st_/);
    assert.notEqual(rotated.secret, station.secret);
  });

  it("ingest reads NMEA from stdin as the station's and prints one JSON summary", async () => {
    const account = (await mds(["accounts", "create", "--plan", "pro"])).stdout.trim();
    const [id] = (await mds(["stations", "create", "--account", account, "--name", "mast"])).stdout.trim().split(" ");
    const r = await runCli(["ingest", "--station", id!], { DATA_DIR: dataDir }, "not nmea\n");
    assert.equal(r.code, 0);
    assert.deepEqual({ ...JSON.parse(r.stdout), station: 0 }, { station: 0, lines: 1, messages: 0, positions: 0, invalidPositions: 0, statics: 0, rejected: 1, reasons: { no_sentence: 1 } });
  });

  it("--help and no command print the usage on stdout", async () => {
    for (const argv of [[], ["--help"], ["keys", "create", "-h"]]) {
      const r = await mds(argv);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /^usage: mds <command>/);
      assert.match(r.stdout, /keys create --plan <tier>/);
    }
  });

  it("a refused value of a known option exits 2 with one line naming it", async () => {
    const cases: [string[], RegExp][] = [
      [["keys", "create", "--plan", "gold"], /^mds: --plan gold: unknown plan; use one of sandbox/],
      [["keys", "create"], /^mds: --plan is required/],
      [["keys", "create", "--plan", "pro", "--account", "acc_nope"], /^mds: --account acc_nope: no such account$/],
      [["stations", "create", "--account", "acc_nope"], /^mds: stations create needs --name <name>$/],
      [["ingest", "/dev/null"], /^mds: ingest needs --station <id>$/],
      [["stations", "rotate-secret"], /^mds: stations rotate-secret needs --station <id>$/],
      [["stations", "rotate-secret", "--station", "1e3"], /^mds: --station 1e3: must be a station id/],
      [["stations", "rotate-secret", "--station", "99999"], /^mds: --station 99999: no such station$/],
    ];
    for (const [argv, pattern] of cases) {
      const r = await mds(argv);
      assert.equal(r.code, 2, argv.join(" "));
      assert.match(r.stderr.trimEnd(), pattern);
      assert.equal(r.stderr.trimEnd().split("\n").length, 1);
    }
  });

  it("bad input of every kind exits 1 with one line (in process; test/cli/bad-input.test.ts spawns each)", async () => {
    const sources = join(dataDir, "bad-sources.json");
    writeFileSync(sources, "{ not json");
    const cases: [string[], Record<string, string>, RegExp][] = [
      [["frobnicate"], {}, /^mds: unknown command: frobnicate; commands: /],
      [["keys", "frob"], {}, /^mds: unknown command: keys frob; /],
      [["webhooks", "frob", "--account", "acc_x"], {}, /^mds: unknown command: webhooks frob; see mds --help for the webhooks commands$/],
      [["migrate", "--demo"], {}, /^mds: --demo: unknown option for "mds migrate"; it takes --json, --help$/],
      [["import", "ports", "/nonexistent/ports.csv"], {}, /^mds: import ports: \/nonexistent\/ports\.csv: no such file or directory$/],
      [["ingest", "--station", "1", "/nonexistent/log.nmea"], {}, /^mds: ingest: \/nonexistent\/log\.nmea: no such file or directory$/],
      [["import", "nothing"], {}, /^mds: import nothing: unknown dataset; known: ports, flags/],
      [["import"], {}, /^mds: import needs a dataset: ports, flags/],
      [["import", "all", "file.csv"], {}, /^mds: import all takes no file/],
      [["migrate"], { PORT: "abc" }, /^mds: PORT: must be a whole number from 0 to 65535, got "abc"$/],
      [["migrate"], { PORT: "70000", LOG_LEVEL: "loud" }, /^mds: PORT: must be a whole number from 0 to 65535, got "70000"; LOG_LEVEL: must be one of fatal, .*, got "loud"$/],
      [["migrate"], { SANCTIONS_REFRESH: "soon" }, /^mds: SANCTIONS_REFRESH: must be off, or an interval of at least one minute/],
      [["migrate"], { SOURCES_FILE: "/nonexistent/sources.json" }, /^mds: SOURCES_FILE: "\/nonexistent\/sources\.json" does not exist/],
      [["migrate"], { SOURCES_FILE: sources }, /^mds: SOURCES_FILE: ".*bad-sources\.json" is not JSON: /],
    ];
    for (const [argv, env, pattern] of cases) {
      const r = await mds(argv, env);
      assert.equal(r.code, 1, `${argv.join(" ")} ${JSON.stringify(env)}: ${r.stderr}`);
      assert.match(r.stderr.trimEnd(), pattern);
      assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
    }
  });

  it("a fault's stack is shown only with LOG_LEVEL=debug", async () => {
    const quiet = await mds(["migrate"], { DATA_DIR: "/dev/null/cannot-be-a-dir" });
    assert.equal(quiet.code, 1);
    assert.equal(quiet.stderr.trimEnd().split("\n").length, 1, quiet.stderr);
    const debug = await mds(["migrate"], { DATA_DIR: "/dev/null/cannot-be-a-dir", LOG_LEVEL: "debug" });
    assert.equal(debug.code, 1);
    assert.match(debug.stderr, /\n\s+at /);
  });
});
