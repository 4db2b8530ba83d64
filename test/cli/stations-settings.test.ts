import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runCli } from "./run-cli.ts";

const dataDir = mkdtempSync(join(tmpdir(), "mds-cli-stations-"));
const mds = (args: string[]) => runCli(args, { DATA_DIR: dataDir, INGEST_PLAIN_PORTS: "6100-6101" });

describe("mds stations create / update: sharing and receiver settings", () => {
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("create --public with grants, --plain-port and --allow-from prints them with --json; update changes them", async () => {
    const account = (await mds(["accounts", "create", "--plan", "pro"])).stdout.trim();
    const r = await mds(["stations", "create", "--account", account, "--name", "mast", "--public", "--allow-redistribution", "--source-name", "Mast AIS", "--plain-port", "--allow-from", "127.0.0.1,10.1.0.0/16", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const st = JSON.parse(r.stdout);
    assert.equal(st.public, true);
    assert.deepEqual(st.source, { id: `station:${st.id}`, name: "Mast AIS", redistribution: true, commercial: false });
    assert.equal(st.plainPort, 6100);
    assert.deepEqual(st.allowFrom, ["127.0.0.1/32", "10.1.0.0/16"]);
    assert.equal(st.connect, null);

    const second = JSON.parse((await mds(["stations", "create", "--account", account, "--name", "second", "--plain-port", "--json"])).stdout);
    assert.equal(second.plainPort, 6101, "the next free port of the range");
    assert.equal(second.public, false, "private is the default");
    const full = await mds(["stations", "create", "--account", account, "--name", "third", "--plain-port"]);
    assert.equal(full.code, 2);
    assert.equal(full.stderr, "mds: --plain-port: every plain NMEA port from 6100 to 6101 is taken; widen INGEST_PLAIN_PORTS\n");
    assert.equal((await mds(["stations", "list", "--account", account, "--json"])).stdout.includes("third"), false, "no half-made station");

    const up = JSON.parse((await mds(["stations", "update", String(st.id), "--allow-commercial", "--deny-redistribution", "--allow-from", "any", "--connect", "192.0.2.5:5010", "--json"])).stdout);
    assert.deepEqual(up.source, { id: `station:${st.id}`, name: "Mast AIS", redistribution: false, commercial: true });
    assert.equal(up.allowFrom, null);
    assert.equal(up.connect, "192.0.2.5:5010");
    const priv = JSON.parse((await mds(["stations", "update", String(st.id), "--private", "--no-plain-port", "--json"])).stdout);
    assert.equal(priv.public, false);
    assert.equal(priv.source, null);
    assert.equal(priv.plainPort, null);
    const text = (await mds(["stations", "update", String(second.id), "--public"])).stdout;
    assert.match(text, new RegExp(`^${second.id} second: public\\npublic as station:${second.id} "second" \\(API use\\)\\nplain NMEA on UDP and TCP port 6101 from any address\\n$`));
  });

  it("bad settings: one clear line and exit 2, nothing changed", async () => {
    const account = (await mds(["accounts", "create", "--plan", "pro"])).stdout.trim();
    const [id] = (await mds(["stations", "create", "--account", account, "--name", "roof"])).stdout.trim().split(" ");
    const cases: [string[], RegExp][] = [
      [["stations", "create", "--account", account, "--name", "x", "--allow-from", "300.1.1.1/32"], /^mds: --allow-from "300\.1\.1\.1\/32": not an IPv4 or IPv6 address or CIDR range/],
      [["stations", "create", "--account", account, "--name", "x", "--allow-from", "10.0.0.1/8"], /^mds: --allow-from "10\.0\.0\.1\/8": host bits are set; the range is 10\.0\.0\.0\/8\n$/],
      [["stations", "create", "--account", account, "--name", "x", "--allow-from", ""], /^mds: --allow-from needs one or more addresses/],
      [["stations", "create", "--account", account, "--name", "x", "--connect", "nohostport"], /^mds: --connect needs host:port/],
      [["stations", "create", "--account", account, "--name", "x", "--connect", "host:70000"], /^mds: --connect "host:70000": the port must be from 1 to 65535\n$/],
      [["stations", "create", "--account", account, "--name", "x", "--allow-commercial"], /^mds: stations create: --allow-redistribution, --allow-commercial and --source-name apply to a public station; add --public\n$/],
      [["stations", "update", id!, "--public", "--private"], /^mds: stations update: --public and --private contradict each other\n$/],
      [["stations", "update", id!], /^mds: stations update: nothing to change/],
      [["stations", "update", "abc", "--public"], /^mds: stations update abc: a station id is a positive whole number\n$/],
      [["stations", "update", "999999", "--public"], /^mds: stations update 999999: no such station\n$/],
      [["stations", "update", "--public"], /^mds: stations update needs the station id/],
    ];
    for (const [args, message] of cases) {
      const r = await mds(args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.split("\n").length, 2, "one line");
    }
    const list = JSON.parse((await mds(["stations", "list", "--account", account, "--json"])).stdout);
    assert.deepEqual(list.map((s: { name: string; public: boolean }) => [s.name, s.public]), [["roof", false]]);
  });
});
