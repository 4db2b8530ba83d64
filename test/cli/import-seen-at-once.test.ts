/**
 * An import run in another process (`npx mds import sanctions` beside a running `serve`)
 * reaches the serving process's vessel answers at once, not at its next registry refresh.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { PROJECT_ROOT } from "../../src/main.ts";
import { ENGINES, get, startTestService, type TestService } from "../helpers/service.ts";
import { OFAC_2024_05_03 } from "../helpers/sanctions.ts";

const run = promisify(execFile);

for (const engine of ENGINES) {
  describe(`a sanctions import by another process is seen at once (${engine})`, () => {
    let t: TestService;
    let key: string;
    before(async () => {
      t = await startTestService({ engine });
      ({ key } = await t.key("scale"));
    });
    after(() => t.close());

    it("ARTAVIL answers as soon as `mds import sanctions ofac` has exited, with no refresh in the serving process", async () => {
      assert.equal((await get(t, "/api/v1/vessels/9187629", key)).status, 404, "not known before the import");
      const { DATABASE_URL: _a, REDIS_URL: _b, ARCHIVE_DATABASE_URL: _c, ...rest } = process.env;
      const env = { ...rest, LOG_LEVEL: "silent", DATA_DIR: t.service.config.dataDir, ...(engine === "postgres" ? { DATABASE_URL: t.service.config.databaseUrl! } : {}) };
      await run(process.execPath, [join(PROJECT_ROOT, "bin/mds.ts"), "import", "sanctions", "ofac", OFAC_2024_05_03, "--as-of", "2024-05-03"], { env });
      const r = await get(t, "/api/v1/vessels/9187629", key);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.name, "ARTAVIL");
      assert.ok(r.body.data.sanctions.some((d: { recordId: string }) => d.recordId === "15036"), JSON.stringify(r.body.data.sanctions));
    });
  });
}
