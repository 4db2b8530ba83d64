import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseConfig } from "../../src/config.ts";
import { openServices, PROJECT_ROOT } from "../../src/main.ts";
import { type CliRun, spawnCli } from "./run-cli.ts";

/** One line on stderr, starting `mds: `, matching what was wrong and why; exit 1; nothing on stdout. */
function assertOneLine(r: CliRun, pattern: RegExp): void {
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, `one line on stderr, got:\n${r.stderr}`);
  assert.match(lines[0]!, /^mds: /);
  assert.match(lines[0]!, pattern);
  assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
}

// The cases spawn `mds` and wait for it: they run at once, four at a time, each in a data
// folder of its own (so no two processes ever open one store).
describe("each kind of bad input: one line naming what and why, exit 1 (spawned)", { concurrency: 4 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "mds-cli-bad-"));
  let cases = 0;
  /** A fresh data folder under dataDir, for one case. */
  const own = () => {
    const dir = join(dataDir, String(++cases));
    mkdirSync(dir);
    return dir;
  };
  let holder: Server;
  let busyPort = 0;
  before(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    busyPort = (holder.address() as { port: number }).port;
  });
  after(() => {
    holder.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("an unknown command names it and lists the commands", async () => {
    const env = { DATA_DIR: own() };
    assertOneLine(await spawnCli(["frobnicate"], env), /unknown command: frobnicate; commands: serve, migrate, import, .*keys/);
  });

  it("an unknown option names it and the command's options", async () => {
    const env = { DATA_DIR: own() };
    assertOneLine(await spawnCli(["keys", "create", "--plan", "pro", "--colour", "red"], env), /--colour: unknown option for "mds keys create"; it takes --plan, --account, --name/);
  });

  it("a missing import file names the path", async () => {
    const env = { DATA_DIR: own() };
    assertOneLine(await spawnCli(["import", "ports", join(dataDir, "absent.csv")], env), /import ports: .*absent\.csv: no such file or directory/);
  });

  it("a bad environment variable names the variable, the rule and the value", async () => {
    const env = { DATA_DIR: own() };
    assertOneLine(await spawnCli(["migrate"], { ...env, PORT: "abc" }), /^mds: PORT: must be a whole number from 0 to 65535, got "abc"$/);
  });

  it("a missing SOURCES_FILE names the variable and the path", async () => {
    const env = { DATA_DIR: own() };
    assertOneLine(await spawnCli(["migrate"], { ...env, SOURCES_FILE: join(dataDir, "no-sources.json") }), /SOURCES_FILE: ".*no-sources\.json" does not exist/);
  });

  it("an unknown dataset names the known ones", async () => {
    const env = { DATA_DIR: own() };
    assertOneLine(await spawnCli(["import", "nothing"], env), /import nothing: unknown dataset; known: ports, flags, emissions, wrecks, marad, all, sanctions or \(with --source\) companies, inspections/);
  });

  it("a busy port fails before any import, naming the setting and the address", async () => {
    const fresh = mkdtempSync(join(tmpdir(), "mds-cli-busy-"));
    try {
      const r = await spawnCli(["serve"], { DATA_DIR: fresh, PORT: String(busyPort), INGEST_TCP_PORT: "off", INGEST_UDP_PORT: "off" });
      assertOneLine(r, new RegExp(`PORT: 127\\.0\\.0\\.1:${busyPort} is already in use; set PORT to a free port`));
      // The ports are bound before the import: no dataset was imported into the fresh store.
      const core = await openServices(parseConfig({ DATA_DIR: fresh, LOG_LEVEL: "silent" }, PROJECT_ROOT));
      try {
        assert.equal(await core.datasets.get("ports"), null);
      } finally {
        await core.close();
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it("a busy station port names INGEST_TCP_PORT", async () => {
    const r = await spawnCli(["serve"], { DATA_DIR: own(), PORT: "0", INGEST_TCP_PORT: String(busyPort), INGEST_UDP_PORT: "off" });
    assertOneLine(r, new RegExp(`INGEST_TCP_PORT: 127\\.0\\.0\\.1:${busyPort} is already in use`));
  });

  it("derive port-calls with a time that is not one, or a window backwards, names the option", async () => {
    const env = { DATA_DIR: own() };
    assertOneLine(await spawnCli(["derive", "port-calls", "--from", "last tuesday"], env), /--from: "last tuesday" is not an ISO 8601 timestamp/);
    assertOneLine(await spawnCli(["derive", "port-calls", "--from", "2026-11-20", "--to", "2026-11-19"], env), /--from must be before --to/);
    assertOneLine(await spawnCli(["derive", "port-calls", "--since", "2026-11-20"], env), /--since: unknown option for "mds derive port-calls"/);
    assertOneLine(await spawnCli(["derive", "everything"], env), /unknown command: derive everything/);
  });

  it("DERIVED_FACTS other than on or off is refused naming the variable", async () => {
    const env = { DATA_DIR: own() };
    assertOneLine(await spawnCli(["migrate"], { ...env, DERIVED_FACTS: "maybe" }), /DERIVED_FACTS: must be on or off/);
  });
});
