import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { parseConfig } from "../../src/config.ts";
import { openServices, PROJECT_ROOT } from "../../src/main.ts";
import { startServe } from "../helpers/serve-process.ts";
import { positionLines, sendStationLines } from "../helpers/station-sender.ts";
import { spawnCli } from "./run-cli.ts";

describe("serve --role: what each process runs, its health and readiness, and how it stops", () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const d = mkdtempSync(join(tmpdir(), "mds-roles-"));
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("an unknown role is one line naming the roles, exit 2, and nothing started", async () => {
    const r = await spawnCli(["serve", "--role", "apis"], { DATA_DIR: dataDir(), PORT: "0" });
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, /^mds: --role "apis": unknown role; use one of api, ingest, worker, all/);
    assert.equal(r.stdout, "");
    const empty = await spawnCli(["serve", "--role", ""], { DATA_DIR: dataDir(), PORT: "0" });
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /unknown role/);
    const demo = await spawnCli(["serve", "--role", "api", "--demo"], { DATA_DIR: dataDir(), PORT: "0" });
    assert.equal(demo.code, 2);
    assert.match(demo.stderr, /--demo runs the whole service in one process/);
  });

  it("an ingest process listens for stations and answers health and readiness, not the API; SIGTERM ends it with exit 0", async () => {
    const dir = dataDir();
    const p = await startServe(["--role", "ingest"], { DATA_DIR: dir });
    try {
      assert.match(p.stdout.join("\n"), /role ingest: station-listeners/);
      assert.equal((await fetch(`${p.base}/healthz`)).status, 200);
      const ready = await fetch(`${p.base}/readyz`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { ready: true, checks: { storage: "ok" } });
      // No API in this process.
      assert.equal((await fetch(`${p.base}/api/v1/ports?country=NL`)).status, 404);
      assert.ok(p.tcpPort);
    } finally {
      p.child.kill("SIGTERM");
    }
    const end = await p.exited;
    assert.equal(end.code, 0, p.stderr.join(""));
  });

  it("readiness fails (503, naming Redis) while Redis is unreachable; liveness still answers", async () => {
    const p = await startServe(["--role", "ingest"], { DATA_DIR: dataDir(), REDIS_URL: "redis://127.0.0.1:1" });
    try {
      assert.equal((await fetch(`${p.base}/healthz`)).status, 200);
      const ready = await fetch(`${p.base}/readyz`);
      assert.equal(ready.status, 503);
      const body = (await ready.json()) as { ready: boolean; checks: Record<string, string> };
      assert.equal(body.ready, false);
      assert.equal(body.checks.storage, "ok");
      assert.notEqual(body.checks.redis, "ok");
    } finally {
      p.child.kill("SIGTERM");
      await p.exited;
    }
  });

  it("every line a station had acknowledged before SIGTERM is in the store after the process stops", async () => {
    const dir = dataDir();
    const setup = await openServices(parseConfig({ DATA_DIR: dir, LOG_LEVEL: "silent" }, PROJECT_ROOT));
    const account = await setup.services.accounts.createAccount({ name: "st", webPlan: "pro", apiPlan: null });
    const { secret } = await setup.services.stations.createStation(account.id, "roof");
    await setup.close();
    const p = await startServe(["--role", "ingest"], { DATA_DIR: dir });
    const mmsis = Array.from({ length: 200 }, (_, i) => 244_000_000 + i);
    const acked = await sendStationLines(p.tcpPort!, secret, positionLines(mmsis, Date.now()));
    p.child.kill("SIGTERM");
    assert.equal((await p.exited).code, 0, p.stderr.join(""));
    assert.equal(acked, mmsis.length, "the station's half-close is answered with the ACK of every line");
    const reopened = await openServices(parseConfig({ DATA_DIR: dir, LOG_LEVEL: "silent" }, PROJECT_ROOT));
    try {
      const rows = await reopened.store.db.selectFrom("positions").select("mmsi").distinct().execute();
      assert.equal(rows.length, acked);
    } finally {
      await reopened.close();
    }
  });
});
