import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runCli } from "./run-cli.ts";
import { OFAC_2024_05_03 } from "../helpers/sanctions.ts";
import { type PublicationServer, startPublicationServer } from "../helpers/sanctions-publication-server.ts";

describe("mds sanctions status", () => {
  const dir = mkdtempSync(join(tmpdir(), "mds-sanctions-status-"));
  const env = { DATA_DIR: join(dir, "data") };
  const notAList = join(dir, "UK-Sanctions-List.xml");
  let pub: PublicationServer;
  before(async () => {
    writeFileSync(notAList, "<html><body>Maintenance</body></html>");
    pub = await startPublicationServer();
  });
  after(async () => {
    await pub.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a fresh data dir: every list missing, never attempted", async () => {
    const r = await runCli(["sanctions", "status"], env);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split("\n");
    assert.equal(lines.length, 5);
    for (const line of lines) assert.match(line, /^[a-z-]+: MISSING; version none; as of -; last attempt never; last success never; 0 vessels; source none$/);
  });

  it("after a file import, a fetch from a URL and a refused file: version, as-of, attempts, vessels and source per list", async () => {
    assert.equal((await runCli(["import", "sanctions", "ofac", OFAC_2024_05_03, "--as-of", "2024-05-03"], env)).code, 0);
    const canadaUrl = pub.sources.canada![0]!;
    assert.equal((await runCli(["import", "sanctions", "canada", canadaUrl], env)).code, 0);
    assert.equal((await runCli(["import", "sanctions", "uk", notAList], env)).code, 1);

    const text = (await runCli(["sanctions", "status"], env)).stdout;
    const line = (list: string) => text.split("\n").find((l) => l.startsWith(`${list}: `))!;
    assert.match(line("ofac"), new RegExp(`^ofac: CURRENT; version 1; as of 2024-05-03; last attempt \\S+Z \\(imported\\); last success \\S+Z; 851 vessels; source ${OFAC_2024_05_03}$`));
    assert.match(line("canada"), new RegExp(`^canada: CURRENT; version 2; as of \\d{4}-\\d{2}-\\d{2}; last attempt \\S+ \\(imported\\); last success \\S+; 2 vessels; source ${canadaUrl}$`));
    assert.match(line("uk"), /^uk: MISSING; version none; as of -; last attempt \S+Z \(failed: .*UK-Sanctions-List\.xml is XML with root <html>.*\); last success never; 0 vessels; source none$/);

    const json = JSON.parse((await runCli(["sanctions", "status", "--json"], env)).stdout) as Record<string, unknown>[];
    const ofac = json.find((j) => j.list === "ofac")!;
    assert.deepEqual([ofac.versionId, ofac.asOf, ofac.vessels, ofac.lastOutcome, ofac.source], [1, "2024-05-03", 851, "imported", OFAC_2024_05_03]);
    const uk = json.find((j) => j.list === "uk")!;
    assert.deepEqual([uk.status, uk.lastOutcome, uk.lastSuccessAt], ["missing", "failed", null]);
    assert.match(String(uk.lastError), /root <html>/);
  });

  it("a stray argument is one clear line, exit 2", async () => {
    const r = await runCli(["sanctions", "status", "ofac"], env);
    assert.deepEqual([r.code, r.stderr.trim()], [2, "mds: sanctions status takes no argument, got ofac"]);
  });
});
