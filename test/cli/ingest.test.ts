import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { formatStation } from "../../src/cli/station-tools.ts";
import { parseConfig } from "../../src/config.ts";
import { createService, PROJECT_ROOT } from "../../src/main.ts";
import { positionLine, staticLines } from "../helpers/ingest.ts";

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), "mds-ingest-cli-"));

function env(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _a, REDIS_URL: _b, ...rest } = process.env;
  return { ...rest, DATA_DIR: dataDir, LOG_LEVEL: "silent" };
}

async function mds(args: string[]) {
  return run(process.execPath, [join(PROJECT_ROOT, "bin/mds.ts"), ...args], { env: env() });
}

/** `mds` with text on stdin. */
function mdsStdin(args: string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, "bin/mds.ts"), ...args], { env: env() });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
    child.stdin.end(input);
  });
}

describe("mds ingest and mds stations list", () => {
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("ingests a file, a gzipped file and stdin as a station's, and lists the station with its counters", async () => {
    // Account and station made in process on the same store (the CLI's own create commands are tested in test/cli/commands.test.ts).
    const setup = await createService(parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }, PROJECT_ROOT));
    const account = await setup.services.accounts.createAccount({ name: "harbour", webPlan: "pro", apiPlan: null });
    const { station } = await setup.services.stations.createStation(account.id, "quay");
    await setup.close();
    const lines = [
      "# a comment line from a logger",
      ...Array.from({ length: 30 }, (_, i) => positionLine({ mmsi: 500_000_000 + i, lat: 60, lon: 25 }, Date.parse("2026-01-01T00:00:00Z") + i * 1_000)),
      ...staticLines({ mmsi: 500_000_000, shipname: "QUAY SHIP" }),
      "!AIVDM,1,1,,A,13u?etPv2;0n:dDPwUM1U1Cb069D,0*00",
    ];
    const file = join(dataDir, "log.nmea");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const summary = JSON.parse((await mds(["ingest", "--station", String(station.id), file])).stdout);
    assert.deepEqual(
      { lines: summary.lines, messages: summary.messages, positions: summary.positions, statics: summary.statics, rejected: summary.rejected },
      { lines: 34, messages: 31, positions: 30, statics: 1, rejected: 2 },
    );
    assert.deepEqual(summary.reasons, { no_sentence: 1, bad_checksum: 1 });

    // The same fixes again (gzip, then stdin): counted as lines, stored once (same mmsi, time and station).
    const gz = join(dataDir, "log.nmea.gz");
    writeFileSync(gz, gzipSync(`${lines.join("\n")}\n`));
    assert.equal(JSON.parse((await mds(["ingest", "--station", String(station.id), gz])).stdout).positions, 30);
    assert.equal(JSON.parse(await mdsStdin(["ingest", "--station", String(station.id)], lines.slice(0, 5).join("\n"))).positions, 4);

    const listed = JSON.parse((await mds(["stations", "list", "--account", account.id, "--json"])).stdout);
    assert.equal(listed.length, 1);
    assert.equal(listed[0].id, station.id);
    assert.equal(listed[0].lines, 34 * 2 + 5);
    assert.equal(listed[0].positions, 64);
    assert.equal(listed[0].badChecksums, 2);
    const text = formatStation(listed[0]);
    assert.match(text, /quay\s+last heard 20\d\d-/);
    assert.match(text, /bad checksums 2/);
  });

  it("an unknown station or a missing --station is a usage error (exit 2)", async () => {
    await assert.rejects(mds(["ingest", "--station", "999", "/dev/null"]), (e: { code: number; stderr: string }) => e.code === 2 && /no such station/.test(e.stderr));
    await assert.rejects(mds(["ingest", "/dev/null"]), (e: { code: number; stderr: string }) => e.code === 2 && /--station/.test(e.stderr));
    await assert.rejects(mds(["simulate", "--station", "3"]), (e: { code: number; stderr: string }) => e.code === 2 && /together/.test(e.stderr));
  });
});
