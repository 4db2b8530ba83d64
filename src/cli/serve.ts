import { importMissingDatasets } from "../adapters/importers/datasets.ts";
import { DEMO_ACCOUNT, loadDemoSanctionsExtracts, setupDemo, startDemoSimulator } from "./demo.ts";
import { coverageStartLines, listCoverage } from "../domain/sanctions/coverage.ts";
import { VesselMaintenance } from "../adapters/archive/maintenance.ts";
import { bindPorts, buildServer } from "../compose/server.ts";
import { type OpenOptions, openServices, type ServiceCore } from "../compose/services.ts";
import { DATASETS_DIR, PROJECT_ROOT, type Service } from "../main.ts";
import { withJobLock } from "../adapters/storage/job-lock.ts";
import { redisProbe, storageProbe } from "../adapters/storage/probes.ts";
import { buildOpsServer, roleMetricRegistries } from "../compose/ops-server.ts";
import { startPartitionUpkeep } from "../compose/partition-upkeep.ts";
import { startSessionSweep } from "../compose/session-sweep.ts";
import { startReceiptSweep } from "../compose/receipt-sweep.ts";
import { registerReadiness } from "../compose/readiness.ts";
import { ReadinessGate } from "../compose/readiness-gate.ts";
import { isRole, type Role, ROLE_PARTS, ROLES, runs } from "../compose/roles.ts";
import { parseCommandArgs, str } from "./arguments.ts";
import { CliError, EXIT_BAD_ARGUMENT } from "./cli-error.ts";
import { loadConfig } from "./context.ts";
import { startSanctionsFetching } from "./sanctions-fetch.ts";
import type { CliIo } from "./io.ts";
import { untilSignal } from "./signals.ts";

/**
 * `mds serve [--role api|ingest|worker|all] [--demo]`. The ports are bound first, so a
 * busy one fails at once with one line and nothing imported; then the bundled data missing
 * from the store is imported while the server answers (503 with Retry-After on /api and
 * /mcp until it is done; health, metrics, docs and station ingest answer at once).
 * The sanctions lists are fetched in the background from the start (readiness never waits
 * for the network); other background work (webhook delivery, registry maintenance) starts
 * once the data is in. What each role runs is the table in compose/roles.ts. Resolves once
 * listening; the process then runs until SIGINT or SIGTERM, and stops gracefully: it
 * reports not ready, stops accepting, finishes the requests and the ingest batch in hand
 * and the webhook attempts it holds, writes buffered charges, then closes the stores.
 *
 * `open`: seams handed to the services at construction (a test harness's webhook transport);
 * the command line passes none.
 */
export async function serveCommand(argv: string[], io: CliIo, open: OpenOptions = {}): Promise<void> {
  const { values } = parseCommandArgs("serve", argv, { demo: { type: "boolean", default: false }, role: { type: "string", default: "all" } });
  const roleName = str(values, "role") ?? "all";
  if (!isRole(roleName)) throw new CliError(`--role ${JSON.stringify(roleName)}: unknown role; use one of ${ROLES.join(", ")}`, EXIT_BAD_ARGUMENT);
  const role: Role = roleName;
  if (values.demo && role !== "all") throw new CliError(`--demo runs the whole service in one process; drop --role ${role} or --demo`, EXIT_BAD_ARGUMENT);
  // The demo opens sign-up unless SIGNUP says otherwise.
  const config = loadConfig(values.demo ? { ...io, env: { SIGNUP: "open", ...io.env } } : io);
  const core = await openServices(config, open);
  const probes = [storageProbe(core.store.db), ...(config.redisUrl ? [redisProbe(config.redisUrl)] : [])];
  let stopping = false;
  const api = runs(role, "http-api");
  const server = api
    ? buildServer(core, { projectRoot: PROJECT_ROOT, ready: false })
    : { app: buildOpsServer({ registries: roleMetricRegistries(core, role), metricsToken: config.metricsToken, baseUrl: config.baseUrl }), gate: null };
  // Processes that import the bundled data are not ready until it is in, whichever role they play.
  const dataGate = server.gate ?? (runs(role, "import-data") ? new ReadinessGate(false) : null);
  registerReadiness(server.app, probes, dataGate, () => stopping);
  const log = core.log;
  let ports: Awaited<ReturnType<typeof bindPorts>>;
  try {
    ports = await bindPorts(core, server, { listeners: runs(role, "station-listeners") });
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
  io.out(`maritime-data-service (role ${role}: ${ROLE_PARTS[role].join(", ")}) listening on ${base}`);
  if (runs(role, "station-listeners")) io.out(`station ingest: tcp ${ports.tcpPort ?? "off"}, udp ${ports.udpPort ?? "off"}${api ? `, http POST ${base}/ingest/nmea` : ""}`);
  if (api) io.out(`mcp: ${base}/mcp (Authorization: Bearer <API_KEY>)`);
  if (runs(role, "station-listeners")) {
    const receivers = core.ingest.receivers?.status();
    const range = core.config.ingestPlainPorts;
    io.out(`station plain ports (${range.from}-${range.to}): ${receivers?.plain.length ?? 0} listening; receivers read by connect-out: ${receivers?.connect.length ?? 0}`);
  }
  if (runs(role, "feeds")) {
    // Every feed added with `mds feeds add`; feeds added or removed later are picked up within 30 s.
    await core.feeds.start();
    const feeds = core.feeds.names();
    io.out(`public feeds: ${feeds.length === 0 ? "none (mds feeds add)" : feeds.join(", ")}`);
  }
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
  if (api) for (const line of coverageStartLines(await coverageNow())) io.out(line);
  // Fetched in the background from the first start on, by the processes that do upkeep: readiness never waits for the network.
  const refresher = runs(role, "maintenance") ? startSanctionsFetching(core, io, log, coverageNow) : null;
  // Stations from before per-station UDP keys (migration 0018) have their datagrams refused until a rotation.
  const keyless = runs(role, "station-listeners") ? await core.store.db.selectFrom("stations").select("id").where("udp_key", "is", null).execute() : [];
  if (keyless.length > 0) {
    io.out(`UDP refused for ${keyless.length} station(s) without a UDP key (${keyless.map((r) => r.id).join(", ")}): give each one with \`mds stations rotate-secret --station <id>\` (docs/secrets.md)`);
  }
  const simulator = demoSetup ? startDemoSimulator(core, demoSetup, ports.tcpPort, DATASETS_DIR, (m) => log.warn(m)) : null;
  let background: { maintenance: VesselMaintenance | null } | null = null;
  // Processes that write positions or do upkeep make sure the days ahead have their partitions.
  const stopUpkeep = runs(role, "station-listeners") || runs(role, "maintenance") ? startPartitionUpkeep(core) : () => {};
  // Ended sign-in sessions are deleted hourly by the processes that do upkeep.
  const sessionSweep = runs(role, "maintenance") ? startSessionSweep(core) : null;
  // Screening receipts past SCREENING_RETENTION, likewise.
  const receiptSweep = runs(role, "maintenance") ? startReceiptSweep(core) : null;
  const stop = async () => {
    stopping = true;
    stopUpkeep();
    sessionSweep?.stop();
    receiptSweep?.stop();
    await sessionSweep?.first;
    await receiptSweep?.first;
    await simulator?.stop();
    await refresher?.stop();
    // Stop accepting: the listeners close and their last batch is written; HTTP finishes the requests in hand.
    await core.ingest.close();
    await server.app.close();
    await background?.maintenance?.stop();
    // Finishes the webhook attempts it holds (their leases end with their outcome) and writes buffered charges.
    await core.close();
  };
  untilSignal(stop);

  void (async () => {
    if (runs(role, "import-data")) {
      // One process imports; the others wait on the lock and then find the data in.
      const imported = await withJobLock(core.store, "import-bundled-data", true, () => importMissingDatasets(service, { progress: io.stderrIsTTY }));
      for (const r of imported ?? []) log.info(`imported ${r.id}: ${r.rows} rows`);
    }
    dataGate?.open();
    if (api) log.info("ready: the bundled data is in; /api and /mcp answer");
    background = startBackground(core, role, log);
  })().catch(async (e: unknown) => {
    // Told to stop while importing: the stop closed the store under the import; that is no failure.
    if (stopping) return;
    io.err(`mds: importing the bundled data failed, stopping: ${e instanceof Error ? e.message : String(e)}`);
    await stop().catch(() => undefined);
    process.exit(1);
  });
}

/**
 * The role's background parts: webhook deliveries and sanctions alerts (zone alerts run
 * wherever positions are written) and registry maintenance.
 */
function startBackground(core: ServiceCore, role: Role, log: ServiceCore["log"]) {
  if (runs(role, "deliveries")) {
    core.webhooks.start();
    core.alerts.start();
  }
  // Ingest processes learn zones made through the API processes, and evaluate what a stopped one left queued.
  if (runs(role, "station-listeners")) core.alerts.startZones();
  if (!runs(role, "maintenance")) return { maintenance: null };
  // Vessel registry refresh every minute, archive compaction every hour (first run after a minute); one worker at a time runs each round.
  const maintenance = new VesselMaintenance({
    vessels: core.services.vessels,
    tracks: core.tracks,
    archive: core.archive,
    clock: core.services.clock,
    log,
    exclusive: (job, run) => withJobLock(core.store, job, false, run),
  });
  return { maintenance };
}
