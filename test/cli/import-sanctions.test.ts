import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { runSanctionsImportCommand, type SanctionsImportCommand, SanctionsUsageError } from "../../src/adapters/importers/sanctions-import.ts";
import { SanctionsRefresher } from "../../src/adapters/importers/sanctions-refresh.ts";
import { ConfigError, parseConfig } from "../../src/config.ts";
import { PROJECT_ROOT } from "../../src/main.ts";
import { startTestService, type TestService } from "../helpers/service.ts";
import { CANADA_POST, EU_AMENDMENT, EU_CONSOLIDATED, NZ_XLSX, OFAC_2024_05_03, reassembleUkCsv, tableCounts } from "../helpers/sanctions.ts";

const run = promisify(execFile);

describe("mds import sanctions", () => {
  const dir = mkdtempSync(join(tmpdir(), "mds-sanctions-cli-"));
  const ukCsv = join(dir, "UK-Sanctions-List.csv");
  const empty = join(dir, "sdn.csv");
  // Every list from local files: no test reaches the official URLs.
  const configured = `ofac=${OFAC_2024_05_03};uk=${ukCsv};eu=${EU_CONSOLIDATED},${EU_AMENDMENT};canada=${CANADA_POST};new-zealand=${NZ_XLSX}`;
  before(() => {
    writeFileSync(ukCsv, reassembleUkCsv());
    writeFileSync(empty, "");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function mds(args: string[], env: Record<string, string> = {}) {
    const { DATABASE_URL: _a, REDIS_URL: _b, ...rest } = process.env;
    return run(process.execPath, [join(PROJECT_ROOT, "bin/mds.ts"), ...args], { env: { ...rest, DATA_DIR: join(dir, "data"), LOG_LEVEL: "silent", ...env } });
  }
  const fails = (code: number, pattern: RegExp) => (e: { code: number; stderr: string }) => e.code === code && pattern.test(e.stderr);

  it("imports one list from a file, with its version date", async () => {
    const r = await mds(["import", "sanctions", "ofac", OFAC_2024_05_03, "--as-of", "2024-05-03"]);
    assert.match(r.stderr, /^ofac: version 1 as of 2024-05-03 \(first version\): 851 records, 851 active; 851 listed/m);
  });

  it("--all reads every list from its configured sources", async () => {
    const r = await mds(["import", "sanctions", "--all"], { SANCTIONS_SOURCES: configured });
    // The same OFAC file as the first import: no new version, only a confirmation.
    assert.match(r.stderr, /^ofac: same publication as version 1, nothing changed; confirmed as of \d{4}-\d{2}-\d{2} \(851 active\)/m);
    assert.match(r.stderr, /^uk: version 2 .*632 active/m);
    assert.match(r.stderr, /^eu: version 3 .*674 active/m);
    assert.match(r.stderr, /^canada: .*2 active/m);
    assert.match(r.stderr, /^new-zealand: .*3 active/m);
  });

  it("a zero-byte file is refused: exit 1, nothing changed", async () => {
    await assert.rejects(mds(["import", "sanctions", "ofac", empty]), fails(1, /ofac: not imported, nothing changed: .*empty/));
  });

  it("bad usage exits 2", async () => {
    await assert.rejects(mds(["import", "sanctions", "un", OFAC_2024_05_03]), fails(2, /unknown list/));
  });

  // The other usage rules, in-process: each spawned command costs a second or two.
  const usage: [string, SanctionsImportCommand, RegExp][] = [
    ["no list", { args: [], all: false }, /needs a list/],
    ["--all with a list", { args: ["ofac"], all: true }, /takes no list/],
    ["--all with --as-of", { args: [], all: true, asOf: "2026-01-01" }, /cannot be used with --all/],
    ["a share above 1", { args: ["ofac", OFAC_2024_05_03], all: false, maxDelistedShare: "2" }, /from 0 to 1/],
    ["the EU without files", { args: ["eu"], all: false }, /no official machine-readable file/],
  ];
  for (const [name, cmd, pattern] of usage) {
    it(`usage: ${name}`, async () => {
      const deps = { sanctions: {} as never, clock: { now: () => 0 } };
      await assert.rejects(runSanctionsImportCommand(deps, cmd, () => {}), (e) => e instanceof SanctionsUsageError && pattern.test(e.message));
    });
  }

  it("SANCTIONS_SOURCES, SANCTIONS_REFRESH and SANCTIONS_FETCH_TIMEOUT_SECONDS are checked at start", () => {
    const c = parseConfig({ SANCTIONS_SOURCES: "eu=https://example.org/a.csv?x=1,/srv/b.csv; uk=/srv/uk.xml", SANCTIONS_REFRESH: "6" }, PROJECT_ROOT);
    assert.deepEqual(c.sanctionsSources, { eu: ["https://example.org/a.csv?x=1", "/srv/b.csv"], uk: ["/srv/uk.xml"] });
    assert.equal(c.sanctionsRefreshMs, 6 * 3_600_000);
    // Daily unless told otherwise; off only when asked.
    assert.equal(parseConfig({}, PROJECT_ROOT).sanctionsRefreshMs, 86_400_000);
    assert.equal(parseConfig({ SANCTIONS_REFRESH: "off" }, PROJECT_ROOT).sanctionsRefreshMs, null);
    assert.equal(parseConfig({ SANCTIONS_REFRESH: "30m" }, PROJECT_ROOT).sanctionsRefreshMs, 1_800_000);
    assert.equal(parseConfig({ SANCTIONS_REFRESH: "1d" }, PROJECT_ROOT).sanctionsRefreshMs, 86_400_000);
    assert.equal(parseConfig({}, PROJECT_ROOT).sanctionsFetchTimeoutMs, 300_000);
    for (const env of [
      { SANCTIONS_SOURCES: "un=/x" },
      { SANCTIONS_SOURCES: "ofac" },
      { SANCTIONS_REFRESH: "0" },
      { SANCTIONS_REFRESH: "30s" },
      { SANCTIONS_REFRESH: "daily" },
      { SANCTIONS_FETCH_TIMEOUT_SECONDS: "0" },
    ]) {
      assert.throws(() => parseConfig(env, PROJECT_ROOT), (e) => e instanceof ConfigError && new RegExp(`^${Object.keys(env)[0]}: `).test(e.problems[0]!));
    }
  });
});

describe("the sanctions refresh", () => {
  let t: TestService;
  before(async () => {
    t = await startTestService({ withData: false });
  });
  after(() => t.close());

  it("imports every configured list at start, logs a failing one, and stops cleanly", async () => {
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(`info ${m}`), error: (m: string) => lines.push(`error ${m}`) };
    const refresher = new SanctionsRefresher(t.service.services, {
      intervalMs: 3_600_000,
      log,
      sources: { ofac: [OFAC_2024_05_03], canada: [CANADA_POST], uk: [join(tmpdir(), "mds-no-such-file.xml")], eu: [], "new-zealand": [NZ_XLSX] },
    });
    const outcomes = await refresher.start();
    await refresher.stop();
    assert.deepEqual(
      outcomes.map((o) => [o.list, o.status]),
      [
        ["ofac", "imported"],
        ["uk", "failed"],
        ["eu", "skipped"],
        ["canada", "imported"],
        ["new-zealand", "imported"],
      ],
    );
    assert.ok(lines.some((l) => /^error sanctions refresh: uk not imported, the stored version stays: .*no such file/.test(l)));
    assert.ok(lines.some((l) => /^info sanctions refresh: ofac: version 1/.test(l)));
    assert.equal((await tableCounts(t)).active, 851 + 2 + 3);
  });

  it("refuses an interval below one minute", () => {
    assert.throws(() => new SanctionsRefresher(t.service.services, { intervalMs: 59_000, log: { info() {}, error() {} } }), /at least one minute/);
  });
});
