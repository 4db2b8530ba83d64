import { importMissingDatasets } from "../adapters/importers/datasets.ts";
import { DEMO_ACCOUNT, loadDemoSanctionsExtracts, setupDemo, startDemoSimulator } from "./demo.ts";
import { coverageStartLines, listCoverage } from "../domain/sanctions/coverage.ts";
import { VesselMaintenance } from "../adapters/archive/maintenance.ts";
import { bindPorts, buildServer } from "../compose/server.ts";
import { openServices, type ServiceCore } from "../compose/services.ts";
import { DATASETS_DIR, PROJECT_ROOT, type Service } from "../main.ts";
import { parseCommandArgs } from "./arguments.ts";
import { loadConfig } from "./context.ts";
import { startSanctionsFetching } from "./sanctions-fetch.ts";
import type { CliIo } from "./io.ts";
import { untilSignal } from "./signals.ts";

/**
 * `mds serve [--demo]`. The ports are bound first, so a busy one fails at once with one
 * line and nothing imported; then the bundled data missing from the store is imported
 * while the server answers (503 with Retry-After on /api and /mcp until it is done;
 * health, metrics, docs and station ingest answer at once). The sanctions lists are
 * fetched in the background from the start (readiness never waits for the network); other
 * background work (webhook delivery, registry maintenance) starts once the data is in.
 * Resolves once listening; the process then runs until SIGINT or SIGTERM.
 */
export async function serveCommand(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs("serve", argv, { demo: { type: "boolean", default: false } });
  // The demo opens sign-up unless SIGNUP says otherwise.
  const config = loadConfig(values.demo ? { ...io, env: { SIGNUP: "open", ...io.env } } : io);
  const core = await openServices(config);
  const server = buildServer(core, { projectRoot: PROJECT_ROOT, ready: false });
  const log = server.app.log;
  let ports: Awaited<ReturnType<typeof bindPorts>>;
  try {
    ports = await bindPorts(core, server);
  } catch (e) {
    await server.app.close();
    await core.close();
    throw e;
  }
  const service: Service = { ...core, app: server.app };
  const demoSetup = values.demo ? await setupDemo(core) : null;
  // The demo's dated extracts, marked as extracts; plain `serve` never loads them.
  if (values.demo) await loadDemoSanctionsExtracts(core, PROJECT_ROOT);
  const base = config.baseUrl ?? ports.address;
  io.out(`maritime-data-service listening on ${base}`);
  io.out(`station ingest: tcp ${ports.tcpPort ?? "off"}, udp ${ports.udpPort ?? "off"}, http POST ${base}/ingest/nmea`);
  const receivers = core.ingest.receivers?.status();
  const range = core.config.ingestPlainPorts;
  io.out(`station plain ports (${range.from}-${range.to}): ${receivers?.plain.length ?? 0} listening; receivers read by connect-out: ${receivers?.connect.length ?? 0}`);
  io.out(`mcp: ${base}/mcp (Authorization: Bearer <API_KEY>)`);
  // Every feed added with `mds feeds add`; feeds added or removed later are picked up within 30 s.
  await core.feeds.start();
  const feeds = core.feeds.names();
  io.out(`public feeds: ${feeds.length === 0 ? "none (mds feeds add)" : feeds.join(", ")}`);
  if (demoSetup) {
    io.out(`sandbox key: ${demoSetup.sandboxKey}`);
    io.out(`try: curl -H "Authorization: Bearer ${demoSetup.sandboxKey}" "${base}/api/v1/ports?country=NL&limit=5"`);
    io.out(`demo pro key: ${demoSetup.proKey} (account ${DEMO_ACCOUNT}, station ${demoSetup.station.id} fed by the built-in simulator)`);
    io.out(`try: curl -H "Authorization: Bearer ${demoSetup.proKey}" "${base}/api/v1/me/feed?maxAge=5"`);
    io.out(`account pages: ${base}/login as ${demoSetup.user.email}, password ${demoSetup.user.password}`);
  }
  // Loudly, one line per list that is missing, stale or only an extract: screening never calls a vessel clear against a list it lacks.
  const coverageNow = async () => {
    const now = core.services.clock.now();
    return (await core.services.sanctions.listStates()).map((st) => listCoverage(st, now, core.config.sanctionsStaleDays));
  };
  for (const line of coverageStartLines(await coverageNow())) io.out(line);
  // Fetched in the background from the first start on: readiness never waits for the network.
  const refresher = startSanctionsFetching(core, io, log, coverageNow);
  // Stations from before per-station UDP keys (migration 0018) have their datagrams refused until a rotation.
  const keyless = await core.store.db.selectFrom("stations").select("id").where("udp_key", "is", null).execute();
  if (keyless.length > 0) {
    io.out(`UDP refused for ${keyless.length} station(s) without a UDP key (${keyless.map((r) => r.id).join(", ")}): give each one with \`mds stations rotate-secret --station <id>\` (docs/secrets.md)`);
  }
  const simulator = demoSetup ? startDemoSimulator(core, demoSetup, ports.tcpPort, DATASETS_DIR, (m) => log.warn(m)) : null;
  let background: { maintenance: VesselMaintenance } | null = null;
  const stop = async () => {
    await simulator?.stop();
    await refresher?.stop();
    await background?.maintenance.stop();
    await server.app.close();
    await core.close();
  };
  untilSignal(stop);

  void (async () => {
    for (const r of await importMissingDatasets(service, { progress: io.stderrIsTTY })) log.info(`imported ${r.id}: ${r.rows} rows`);
    server.gate.open();
    log.info("ready: the bundled data is in; /api and /mcp answer");
    background = startBackground(core, log);
  })().catch(async (e: unknown) => {
    io.err(`mds: importing the bundled data failed, stopping: ${e instanceof Error ? e.message : String(e)}`);
    await stop().catch(() => undefined);
    process.exit(1);
  });
}

/** Webhook deliveries and sanctions alerts (zone alerts run on ingest already) and registry maintenance. */
function startBackground(core: ServiceCore, log: Service["app"]["log"]) {
  core.webhooks.start();
  // Vessel registry refresh every minute, archive compaction every hour (first run after a minute).
  const maintenance = new VesselMaintenance({ vessels: core.services.vessels, tracks: core.tracks, archive: core.archive, clock: core.services.clock, log });
  return { maintenance };
}
