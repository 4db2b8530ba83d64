import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PROJECT_ROOT } from "../../src/main.ts";
import { startTestService } from "../helpers/service.ts";
import { type PublicationServer, startPublicationServer } from "../helpers/sanctions-publication-server.ts";

/** `mds serve` as a user starts it, with its stdout collected line by line. */
class Serve {
  readonly child: ChildProcess;
  out = "";
  constructor(env: Record<string, string>) {
    const { DATABASE_URL: _a, REDIS_URL: _b, ARCHIVE_DATABASE_URL: _c, ...rest } = process.env;
    this.child = spawn(process.execPath, [join(PROJECT_ROOT, "bin/mds.ts"), "serve"], {
      env: { ...rest, LOG_LEVEL: "silent", PORT: "0", INGEST_TCP_PORT: "off", INGEST_UDP_PORT: "off", ...env },
    });
    this.child.stdout!.on("data", (b: Buffer) => (this.out += b.toString()));
  }
  /** Resolves once stdout matches; fails with what it printed if the process ends first. */
  until(pattern: RegExp): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(this.out);
        if (m) {
          this.child.stdout!.off("data", check);
          this.child.off("exit", ended);
          resolve(m);
        }
      };
      const ended = () => reject(new Error(`serve ended before printing ${pattern}:\n${this.out}`));
      this.child.stdout!.on("data", check);
      this.child.once("exit", ended);
      check();
    });
  }
  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once("exit", () => resolve());
      this.child.kill("SIGTERM");
    });
  }
}

describe("mds serve fetches the sanctions lists on its first start", () => {
  let pub: PublicationServer;
  let dataDir: string;
  let key: string;
  before(async () => {
    pub = await startPublicationServer();
    // A data dir with the bundled data and a key, and no sanctions list ever loaded.
    const t = await startTestService({ withData: true });
    ({ key } = await t.key("growth"));
    dataDir = t.service.config.dataDir;
    await t.service.close();
  });
  after(async () => {
    await pub.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function screen(base: string, ids: string) {
    const res = await fetch(`${base}/api/v1/screen?ids=${ids}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  it("offline: it starts, names every missing list, says each fetch failed, and screening claims no clearance", async () => {
    const closed = "http://127.0.0.1:9/unreachable.csv";
    const serve = new Serve({ DATA_DIR: dataDir, LOG_LEVEL: "info", SANCTIONS_SOURCES: `ofac=${closed};uk=${closed};canada=${closed};new-zealand=${closed}` });
    try {
      const [, base] = await serve.until(/listening on (http:\S+)/);
      await serve.until(/sanctions: new-zealand FETCH FAILED/);
      for (const list of ["ofac", "uk", "eu", "canada", "new-zealand"]) assert.match(serve.out, new RegExp(`^sanctions: ${list} MISSING \\(never loaded\\)`, "m"));
      for (const list of ["ofac", "uk", "canada", "new-zealand"]) {
        assert.match(serve.out, new RegExp(`^sanctions: ${list} FETCH FAILED: download of ${closed} failed: .*; it stays MISSING: screening will not call any vessel clear`, "m"));
      }
      assert.match(serve.out, /^sanctions: eu not fetched: no source: the eu list has no official machine-readable file; configure one in SANCTIONS_SOURCES; it stays MISSING/m);
      const r = await screen(base!, "9187629,9079169");
      assert.deepEqual([r.status, r.body.error?.code], [503, "sanctions_unavailable"]);
      // The documented answer of a service without lists is logged as an answer, not as a fault: info, one line, no stack.
      const [line] = await serve.until(/^\{.*"code":"sanctions_unavailable".*\}$/m);
      const logged = JSON.parse(line) as Record<string, unknown>;
      assert.deepEqual([logged["level"], logged["op"], logged["via"], logged["requestId"]], [30, "screen", "rest", r.body.error.requestId]);
      assert.doesNotMatch(line, /stack/);
      assert.doesNotMatch(serve.out, /"level":50/, "nothing logged at error level");
    } finally {
      await serve.stop();
    }
  });

  it("online: the lists are fetched from their publications and ARTAVIL comes back designated, as of today", async () => {
    const serve = new Serve({ DATA_DIR: dataDir, SANCTIONS_SOURCES: pub.env });
    try {
      const [, base] = await serve.until(/listening on (http:\S+)/);
      await serve.until(/sanctions: new-zealand: version/);
      assert.match(serve.out, /fetching the lists that are due from their official publications in the background, then every 24 h/);
      assert.match(serve.out, /^sanctions: ofac: version 1 as of \d{4}-\d{2}-\d{2} \(first version\): 851 records/m);
      const r = await screen(base!, "9187629,9074729");
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.body.data.map((d: any) => [d.query, d.sanctioned, d.certainty]),
        [
          ["9187629", true, "match"],
          ["9074729", false, "incomplete"], // the EU was not loaded: no clearance
        ],
      );
      const ofac = r.body.coverage.find((c: any) => c.list === "ofac");
      assert.deepEqual([ofac.status, ofac.extract], ["current", false]);
    } finally {
      await serve.stop();
    }
  });

  it("SANCTIONS_REFRESH=off: nothing is fetched, and the start output says so", async () => {
    pub.requests.length = 0;
    const serve = new Serve({ DATA_DIR: dataDir, SANCTIONS_SOURCES: pub.env, SANCTIONS_REFRESH: "off" });
    try {
      await serve.until(/automatic fetching is off \(SANCTIONS_REFRESH=off\)/);
      assert.deepEqual(pub.requests, []);
    } finally {
      await serve.stop();
    }
  });
});
