import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runCli } from "./run-cli.ts";

describe("mds feeds add / list / remove", () => {
  let dataDir: string;
  let env: Record<string, string>;
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), "mds-feeds-cli-"));
    env = { DATA_DIR: dataDir };
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("adds each kind with its official address by default, stores keys sealed and never prints them", async () => {
    const a = await runCli(["feeds", "add", "norway", "--kind", "kystverket", "--json"], env);
    assert.equal(a.code, 0, a.stderr);
    const norway = JSON.parse(a.stdout);
    assert.equal(norway.url, "tcp://153.44.253.27:5631");
    assert.equal(norway.source, "kystverket-open");
    assert.equal((await runCli(["feeds", "add", "finland", "--kind", "digitraffic"], env)).code, 0);
    const s = await runCli(["feeds", "add", "stream", "--kind", "aisstream", "--key", "secret-api-key-123", "--json"], env);
    assert.equal(s.code, 0, s.stderr);
    assert.equal(JSON.parse(s.stdout).url, "wss://stream.aisstream.io/v0/stream");
    assert.ok(!s.stdout.includes("secret-api-key-123"));
    const list = await runCli(["feeds", "list", "--json"], env);
    const feeds = JSON.parse(list.stdout) as { name: string; hasKey: boolean; status: unknown }[];
    assert.deepEqual(feeds.map((f) => f.name), ["finland", "norway", "stream"]);
    assert.equal(feeds.find((f) => f.name === "stream")!.hasKey, true);
    assert.ok(!list.stdout.includes("secret-api-key-123"));
    // The key is not in the database file in clear.
    for (const f of readdirSync(dataDir).filter((n) => n.startsWith("mds.sqlite"))) assert.ok(!readFileSync(join(dataDir, f)).includes("secret-api-key-123"), f);
  });

  it("remove stops a feed, and its name can be used again", async () => {
    assert.equal((await runCli(["feeds", "remove", "finland"], env)).stdout, "removed finland\n");
    const again = await runCli(["feeds", "add", "finland", "--kind", "digitraffic", "--url", "ws://127.0.0.1:9001/mqtt"], env);
    assert.equal(again.code, 0, again.stderr);
    const r = await runCli(["feeds", "remove", "nowhere"], env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^mds: no feed named "nowhere"/);
  });

  it("garbage: one clear line and exit 2, nothing added", async () => {
    const cases: [string[], RegExp][] = [
      [["feeds", "add"], /^mds: feeds add needs a name/],
      [["feeds", "add", "x"], /^mds: feeds add needs --kind <kystverket\|digitraffic\|aisstream\|aishub>$/],
      [["feeds", "add", "x", "--kind", "marinetraffic"], /^mds: --kind "marinetraffic": must be one of/],
      [["feeds", "add", "Bad Name", "--kind", "kystverket"], /^mds: feed name "Bad Name": 1 to 40 of/],
      [["feeds", "add", "x", "--kind", "kystverket", "--url", "http://example.com"], /^mds: --url "http:\/\/example.com" must start with tcp:\/\//],
      [["feeds", "add", "x", "--kind", "kystverket", "--url", "tcp://example.com"], /needs a port/],
      [["feeds", "add", "x", "--kind", "kystverket", "--url", "not a url"], /is not a URL/],
      [["feeds", "add", "x", "--kind", "digitraffic", "--url", "wss://u:p@example.com/mqtt"], /must not carry a user or password/],
      [["feeds", "add", "x", "--kind", "kystverket", "--key", "k"], /^mds: --key: a kystverket feed takes no key$/],
      [["feeds", "add", "x", "--kind", "aisstream"], /^mds: --key: a aisstream feed needs the aisstream.io API key$/],
      [["feeds", "add", "x", "--kind", "aishub", "--key", "has space"], /printable ASCII/],
      [["feeds", "add", "norway", "--kind", "kystverket"], /^mds: a feed named norway exists already/],
      [["feeds", "add", "a", "b", "--kind", "kystverket"], /takes one name/],
    ];
    for (const [argv, pattern] of cases) {
      const r = await runCli(argv, env);
      assert.equal(r.code, 2, `${argv.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr.trim(), pattern, argv.join(" "));
      assert.equal(r.stderr.trim().split("\n").length, 1, argv.join(" "));
    }
    const unknown = await runCli(["feeds", "add", "x", "--kind", "kystverket", "--port", "1"], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /--port: unknown option for "mds feeds add"/);
    const list = JSON.parse((await runCli(["feeds", "list", "--json"], env)).stdout) as { name: string }[];
    assert.deepEqual(list.map((f) => f.name).sort(), ["finland", "norway", "stream"]);
  });
});
