import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseConfig } from "../../src/config.ts";
import { buildOpsServer, roleMetricRegistries } from "../../src/compose/ops-server.ts";
import { openServices, PROJECT_ROOT } from "../../src/main.ts";
import { startServe } from "../helpers/serve-process.ts";
import { startTestService, type TestService } from "../helpers/service.ts";
import { positionLines, sendStationLines } from "../helpers/station-sender.ts";
import { HOOK_HOST, type Receiver, startReceiver, transportFor } from "../helpers/webhooks.ts";

const ADDRESS = "127.0.0.31";
const TOKEN = "a-metrics-token-of-some-length";

describe("/metrics of the ingest and worker roles: what the role produces, under the API's access rule", () => {
  let t: TestService;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver(ADDRESS);
    t = await startTestService({ webhooks: { transport: transportFor(ADDRESS) } });
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  const scrape = async (role: "ingest" | "worker", options: { token?: string; remoteAddress?: string; bearer?: string } = {}) => {
    const app = buildOpsServer({ registries: roleMetricRegistries(t.service, role), metricsToken: options.token });
    try {
      const r = await app.inject({
        method: "GET",
        url: "/metrics",
        remoteAddress: options.remoteAddress ?? "127.0.0.1",
        headers: options.bearer ? { authorization: `Bearer ${options.bearer}` } : {},
      });
      return { status: r.statusCode, type: r.headers["content-type"], text: r.body };
    } finally {
      await app.close();
    }
  };

  it("a worker's /metrics counts its delivery attempts by outcome and error class, and holds no ingest series", async () => {
    const { key } = await t.key("pro");
    const call = (method: "POST", url: string, body?: object) =>
      t.service.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(body ? { payload: body } : {}) });
    const made = await call("POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}:8443/ops-metrics` });
    assert.equal(made.statusCode, 200, made.body);
    const endpoint = (made.json() as { data: { id: string } }).data.id;
    assert.equal((await call("POST", `/api/v1/account/webhooks/${endpoint}/test`)).statusCode, 200);
    receiver.behaviour = (_req, res) => {
      res.statusCode = 500;
      res.end();
    };
    assert.equal((await call("POST", `/api/v1/account/webhooks/${endpoint}/test`)).statusCode, 200);

    const m = await scrape("worker");
    assert.equal(m.status, 200);
    assert.match(String(m.type), /^text\/plain/);
    assert.match(m.text, /^mds_webhook_attempts_total\{outcome="delivered",error_class="none"\} 1$/m);
    assert.match(m.text, /^mds_webhook_attempts_total\{outcome="failed",error_class="http_status"\} 1$/m);
    assert.match(m.text, /^mds_webhook_attempt_duration_seconds_count 2$/m);
    assert.doesNotMatch(m.text, /mds_ingest_|mds_api_/);
  });

  it("an ingest process's /metrics holds the ingest and feed series, not the delivery ones", async () => {
    const m = await scrape("ingest");
    assert.equal(m.status, 200);
    assert.match(m.text, /^# TYPE mds_ingest_positions_written_total counter$/m);
    assert.match(m.text, /^# TYPE mds_feed_connected gauge$/m);
    assert.doesNotMatch(m.text, /mds_webhook_/);
  });

  it("without METRICS_TOKEN only loopback is answered; with it, only a scrape carrying it", async () => {
    const far = await scrape("worker", { remoteAddress: "203.0.113.9" });
    assert.equal(far.status, 403);
    assert.equal((JSON.parse(far.text) as { error: { code: string } }).error.code, "metrics_not_allowed");
    assert.equal((await scrape("worker", { token: TOKEN })).status, 403, "loopback is not enough once a token is set");
    assert.equal((await scrape("worker", { token: TOKEN, bearer: "wrong-token-of-some-length" })).status, 403);
    assert.equal((await scrape("worker", { token: TOKEN, bearer: TOKEN, remoteAddress: "203.0.113.9" })).status, 200);
  });
});

describe("serve --role ingest and --role worker answer /metrics on PORT", () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("an ingest process counts the lines a station sent it; a worker serves its delivery series", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mds-ops-metrics-"));
    dirs.push(dir);
    const setup = await openServices(parseConfig({ DATA_DIR: dir, LOG_LEVEL: "silent" }, PROJECT_ROOT));
    const account = await setup.services.accounts.createAccount({ name: "st", webPlan: "pro", apiPlan: null });
    const station = await setup.services.stations.createStation(account.id, "roof");
    await setup.close();

    const ingest = await startServe(["--role", "ingest"], { DATA_DIR: dir });
    try {
      const mmsis = Array.from({ length: 20 }, (_, i) => 244_100_000 + i);
      const acked = await sendStationLines(ingest.tcpPort!, station.secret, positionLines(mmsis, Date.now()));
      assert.equal(acked, 20);
      const text = await (await fetch(`${ingest.base}/metrics`)).text();
      assert.match(text, new RegExp(`^mds_ingest_lines_total\\{station="${station.station.id}"\\} 20$`, "m"));
      assert.match(text, /^mds_ingest_positions_written_total 20$/m);
    } finally {
      ingest.child.kill("SIGTERM");
      await ingest.exited;
    }

    const worker = await startServe(["--role", "worker"], { DATA_DIR: dir, SANCTIONS_REFRESH: "off" });
    try {
      const r = await fetch(`${worker.base}/metrics`);
      assert.equal(r.status, 200);
      const text = await r.text();
      assert.match(text, /^# TYPE mds_webhook_attempts_total counter$/m);
      assert.doesNotMatch(text, /mds_ingest_/);
    } finally {
      worker.child.kill("SIGTERM");
      await worker.exited;
    }
  });
});
