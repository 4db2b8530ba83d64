import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type RefreshLog, SanctionsRefresher } from "../../../src/adapters/importers/sanctions-refresh.ts";
import { withJobLock } from "../../../src/adapters/storage/job-lock.ts";
import { parseConfig } from "../../../src/config.ts";
import { createService, PROJECT_ROOT, type Service } from "../../../src/main.ts";
import { startTestService, type TestService } from "../../helpers/service.ts";
import { ManualTimers, type PublicationServer, startPublicationServer } from "../../helpers/sanctions-publication-server.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const quiet: RefreshLog = { info() {}, error() {} };

/**
 * Two worker processes of one deployment, each with its own refresher, as `serve` starts
 * them: two services on one PostgreSQL database, their refreshers sharing the job lock.
 */
describe("sanctions fetched once per deployment, not once per worker (PostgreSQL)", { skip: !process.env.DATABASE_URL && "DATABASE_URL not set" }, () => {
  let first: TestService;
  let second: Service;
  let secondDir: string;
  let pub: PublicationServer;
  const timers = [new ManualTimers(), new ManualTimers()];
  let refreshers: SanctionsRefresher[];

  before(async () => {
    first = await startTestService({ engine: "postgres", withData: false });
    secondDir = mkdtempSync(join(tmpdir(), "mds-test-"));
    // The same database, its own process state; the clock is the first service's, so both agree on "now".
    second = await createService(parseConfig({ LOG_LEVEL: "silent", DATA_DIR: secondDir, DATABASE_URL: first.service.config.databaseUrl }, PROJECT_ROOT), { clock: first.clock });
    pub = await startPublicationServer();
    refreshers = [first.service, second].map(
      (s, i) =>
        new SanctionsRefresher(s.services, {
          intervalMs: DAY,
          retryMs: HOUR,
          sources: pub.sources,
          log: quiet,
          timers: timers[i],
          exclusive: async (job, run) => (await withJobLock(s.store, job, true, run))!,
        }),
    );
  });
  after(async () => {
    for (const r of refreshers) await r.stop();
    await pub.close();
    await second.close();
    rmSync(secondDir, { recursive: true, force: true });
    await first.close();
  });

  const requestsOf = (path: string) => pub.requests.filter((r) => r === path).length;

  it("two workers starting together: each list is downloaded once, by one of them; the other says who did", async () => {
    const [a, b] = await Promise.all(refreshers.map((r) => r.start()));
    for (const path of ["/ofac/SDN.CSV", "/uk/UK-Sanctions-List.xml", "/canada/sema-lmes.xml", "/nz/Russia-Sanctions-Register.xlsx"]) {
      assert.equal(requestsOf(path), 1, `${path} downloaded once`);
    }
    for (const list of ["ofac", "uk", "canada", "new-zealand"]) {
      const both = [...a!, ...b!].filter((o) => o.list === list);
      assert.deepEqual(both.map((o) => o.status).sort(), ["imported", "skipped"], `${list}: one imports, the other skips`);
      const skipped = both.find((o) => o.status === "skipped");
      assert.match(skipped?.status === "skipped" ? skipped.reason : "", /fetched by another process of this deployment at .* \(imported\)/);
    }
    const states = await second.services.sanctions.listStates();
    assert.equal(states.find((s) => s.list === "ofac")?.active, 851, "the list is there for every process");
    // Both plan their next round a day away.
    assert.deepEqual(
      timers.map((t) => t.pending.map((p) => p.ms)),
      [[DAY], [DAY]],
    );
  });

  it("a failed download is tried by one worker, and both retry after the shorter delay", async () => {
    pub.failing.add("/uk/UK-Sanctions-List.xml");
    const before = requestsOf("/uk/UK-Sanctions-List.xml");
    first.clock.t += DAY;
    for (const t of timers) t.fire();
    const [a, b] = await Promise.all(refreshers.map((r) => r.running!));
    assert.equal(requestsOf("/uk/UK-Sanctions-List.xml") - before, 1, "the failing list is asked for once");
    const uk = [...a!, ...b!].filter((o) => o.list === "uk").map((o) => o.status);
    assert.deepEqual(uk.sort(), ["failed", "skipped"]);
    assert.deepEqual(
      timers.map((t) => t.pending.map((p) => p.ms)),
      [[HOUR], [HOUR]],
    );
  });
});
