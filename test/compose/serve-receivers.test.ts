import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { parseConfig } from "../../src/config.ts";
import { bindPorts, buildServer, openServices, PROJECT_ROOT } from "../../src/main.ts";
import { positionLine } from "../helpers/ingest.ts";
import { freePlainPort, sendDatagram, until } from "../helpers/receivers.ts";

describe("serve binds every station's plain port", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "mds-serve-plain-"));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("listens on each station's port at start; a busy one is reported and taken once it is free", async () => {
    const first = await freePlainPort();
    let second = await freePlainPort();
    while (second === first) second = await freePlainPort();
    // Two free ports; the stations get the two ends of the range.
    const from = Math.min(first, second);
    const to = Math.max(first, second);
    const core = await openServices(parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", PORT: "0", INGEST_TCP_PORT: "0", INGEST_UDP_PORT: "0", INGEST_PLAIN_PORTS: `${from}-${to}` }, PROJECT_ROOT));
    const server = buildServer(core, { projectRoot: PROJECT_ROOT, ready: true });
    const busy = createServer();
    try {
      const account = await core.services.accounts.createAccount({ name: "owner", webPlan: "pro", apiPlan: null });
      const a = (await core.services.stations.createStation(account.id, "a", { plainPort: true })).station;
      // Pin the second station to the other end of the range, whatever lies between.
      const b = (await core.services.stations.createStation(account.id, "b")).station;
      await core.store.db.updateTable("stations").set({ plain_port: a.plainPort === from ? to : from }).where("id", "=", b.id).execute();
      const bPort = a.plainPort === from ? to : from;
      await new Promise<void>((resolve) => busy.listen(bPort, "127.0.0.1", () => resolve()));

      await bindPorts(core, server);
      assert.deepEqual(core.ingest.receivers!.status().plain, [{ stationId: a.id, port: a.plainPort! }], "the busy port is skipped, not fatal");

      await sendDatagram(a.plainPort!, `${positionLine({ mmsi: 246_000_001, lat: 52, lon: 4 })}\r\n`);
      await until(async () => {
        await core.ingest.pipeline.flush();
        return (await core.services.positions.countPositions(a.id)) === 1;
      });

      await new Promise((r) => busy.close(r));
      await core.ingest.receivers!.reconcile();
      assert.deepEqual(core.ingest.receivers!.status().plain.map((p) => p.stationId).sort(), [a.id, b.id].sort());
    } finally {
      if (busy.listening) busy.close();
      await server.app.close();
      await core.close();
    }
  });
});
