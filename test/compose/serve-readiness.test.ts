import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseConfig } from "../../src/config.ts";
import { buildServer, openServices, PROJECT_ROOT, type ServiceCore } from "../../src/main.ts";

describe("serve while the first import runs", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "mds-ready-"));
  let core: ServiceCore;
  before(async () => {
    core = await openServices(parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }, PROJECT_ROOT));
  });
  after(async () => {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("API and MCP answer 503 with Retry-After until the gate opens; health and docs answer at once", async () => {
    const { app, gate } = buildServer(core, { projectRoot: PROJECT_ROOT, ready: false });
    try {
      const api = await app.inject({ method: "GET", url: "/api/v1/ports?country=NL" });
      assert.equal(api.statusCode, 503);
      assert.equal(api.headers["retry-after"], "5");
      assert.equal(api.json().error.code, "service_unavailable");
      assert.match(api.json().error.message, /importing its reference data/);
      assert.equal((await app.inject({ method: "POST", url: "/mcp", payload: {} })).statusCode, 503);
      assert.equal((await app.inject({ method: "GET", url: "/healthz" })).statusCode, 200);
      assert.equal((await app.inject({ method: "GET", url: "/docs/webhooks" })).statusCode, 200);
      gate.open();
      // Open: the request reaches the operation, which asks for a key.
      assert.equal((await app.inject({ method: "GET", url: "/api/v1/ports?country=NL" })).statusCode, 401);
    } finally {
      await app.close();
    }
  });
});
