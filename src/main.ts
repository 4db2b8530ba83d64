import { join, resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "./adapters/http/app.ts";
import { registerIngestRoute } from "./adapters/http/ingest-route.ts";
import { Ingest } from "./adapters/ingest/index.ts";
import { mcpHostPolicy, registerMcp } from "./adapters/mcp/http.ts";
import { FlexibleRateLimiter } from "./adapters/limits/rate-limiter.ts";
import { SqlAccountStore } from "./adapters/storage/accounts-store.ts";
import { SqlCreditLedger } from "./adapters/storage/credit-ledger.ts";
import { WriteBehindLedger } from "./adapters/storage/write-behind-ledger.ts";
import { openStore, type Store, type StoreLocation } from "./adapters/storage/database.ts";
import { SqlPositionStore } from "./adapters/storage/positions-store.ts";
import { SqlDatasetLog, SqlFlagStore, SqlPortStore } from "./adapters/storage/reference-store.ts";
import { SqlSanctionsStore } from "./adapters/storage/sanctions-store.ts";
import { SqlStationStore } from "./adapters/storage/station-store.ts";
import { type ArchiveLocation, SqlArchiveStore } from "./adapters/storage/archive-store.ts";
import { SqlSearchStore } from "./adapters/storage/search-store.ts";
import { SqlTrackStore } from "./adapters/storage/track-store.ts";
import { SqlVesselStore } from "./adapters/storage/vessel-store.ts";
import { SqlAlertStore } from "./adapters/storage/alerts-store.ts";
import { SqlWebhookStore } from "./adapters/storage/webhooks-store.ts";
import { WebhooksRuntime, type WebhooksOptions } from "./adapters/webhooks/runtime.ts";
import type { Config } from "./config.ts";
import { KeyAuthenticator } from "./operations/authenticate.ts";
import type { Pipeline } from "./operations/execute.ts";
import { OPERATIONS } from "./operations/registry.ts";
import type { Services } from "./operations/services.ts";
import type { DatasetLog } from "./ports/reference.ts";
import { type Clock, systemClock } from "./ports/clock.ts";
import { loadSources } from "./sources-file.ts";

/** The project's root: bundled datasets, the default sources file and the docs live here. */
export const PROJECT_ROOT = resolve(import.meta.dirname, "..");
export const DATASETS_DIR = join(PROJECT_ROOT, "datasets");

export interface Service {
  config: Config;
  store: Store;
  services: Services;
  pipeline: Pipeline;
  datasets: DatasetLog;
  app: FastifyInstance;
  /** AIS from stations: pipeline, directory, and the TCP/UDP listeners once `listen()`ed. */
  ingest: Ingest;
  /** Alerts and webhook delivery: zone evaluation on ingest always; worker and sanctions reader once `start()`ed (`serve`). */
  webhooks: WebhooksRuntime;
  /** Track reads and archive compaction over the main store's positions. */
  tracks: SqlTrackStore;
  /** The position archive (its own store; opened on first use). */
  archive: SqlArchiveStore;
  close(): Promise<void>;
}

/** The archive of positions older than 90 days: a second PostgreSQL database, or a second SQLite file beside the main one. */
export function archiveLocation(config: Config): ArchiveLocation {
  return config.archiveDatabaseUrl
    ? { engine: "postgres", url: config.archiveDatabaseUrl, onIdleError: (err) => process.stderr.write(`archive postgres: an idle connection was lost (${err.message}); the pool replaces it\n`) }
    : { engine: "sqlite", file: join(config.dataDir, "archive.sqlite") };
}

export function storeLocation(config: Config): StoreLocation {
  return config.databaseUrl
    ? { engine: "postgres", url: config.databaseUrl, onIdleError: (err) => process.stderr.write(`postgres: an idle connection was lost (${err.message}); the pool replaces it\n`) }
    : { engine: "sqlite", file: join(config.dataDir, "mds.sqlite") };
}

/** The composition root: picks adapters from the configuration and wires the ports. */
export async function createService(config: Config, options: { clock?: Clock; rateLimitPrefix?: string; webhooks?: WebhooksOptions } = {}): Promise<Service> {
  const clock = options.clock ?? systemClock;
  const sources = loadSources(config.sourcesFile);
  const store = await openStore(storeLocation(config));
  const accounts = new SqlAccountStore(store.db, clock);
  const limiter = new FlexibleRateLimiter({ clock, redisUrl: config.redisUrl, keyPrefix: options.rateLimitPrefix });
  // SQLite is served by one process, which can charge in memory and write behind; PostgreSQL charges in the database.
  const sqlLedger = new SqlCreditLedger(store.counters, store.engine);
  const ledger = store.engine === "sqlite" ? new WriteBehindLedger(sqlLedger) : sqlLedger;
  const webhookStore = new SqlWebhookStore(store.db, store.engine);
  const tracks = new SqlTrackStore(store.db, store.engine, store.pgPool);
  const archive = new SqlArchiveStore(archiveLocation(config));
  const log = { warn: (o: object, m: string) => app.log.warn(o, m), error: (o: object, m: string) => app.log.error(o, m) };
  const webhooks = new WebhooksRuntime(webhookStore, clock, { baseUrl: config.baseUrl ?? `http://${config.host}:${config.port}`, log, options: options.webhooks });
  const services: Services = {
    clock,
    sources,
    accounts,
    ledger,
    stations: new SqlStationStore(store.db, clock),
    positions: new SqlPositionStore(store.db, store.engine),
    limiter,
    ports: new SqlPortStore(store.db),
    flags: new SqlFlagStore(store.db),
    sanctions: new SqlSanctionsStore(store.db),
    vessels: new SqlVesselStore(store.db, store.engine, store.pgPool),
    search: new SqlSearchStore(store.db, store.pgPool),
    tracks,
    archive,
    alerts: new SqlAlertStore(store.db, store.engine),
    webhooks: webhookStore,
    webhookDispatch: webhooks,
    alertsRuntime: webhooks,
  };
  const pipeline: Pipeline = { services, auth: new KeyAuthenticator(accounts, clock) };
  const ingest = new Ingest(services.positions, clock, {}, (err) => app.log.error({ err }, "AIS batch write failed; kept for retry"));
  const app = buildApp({ pipeline, operations: OPERATIONS, baseUrl: config.baseUrl, logLevel: config.logLevel, errorsDocPath: join(PROJECT_ROOT, "docs/errors.md"), metricRegistries: [ingest.metrics.registry] });
  registerIngestRoute(app, { pipeline: ingest.pipeline, directory: ingest.directory, baseUrl: config.baseUrl });
  const mcpHosts = mcpHostPolicy({ baseUrl: config.baseUrl, listenHost: config.host, extraHosts: config.mcpAllowedHosts, extraOrigins: config.mcpAllowedOrigins });
  registerMcp(app, { pipeline, operations: OPERATIONS, sources, baseUrl: config.baseUrl, allowedHosts: mcpHosts.hosts, allowedOrigins: mcpHosts.origins });
  webhooks.attach(services, ingest, app, join(PROJECT_ROOT, "docs/webhooks.md"));
  return {
    config,
    store,
    services,
    pipeline,
    datasets: new SqlDatasetLog(store.db),
    app,
    ingest,
    webhooks,
    tracks,
    archive,
    async close() {
      await app.close();
      await ingest.close();
      await webhooks.close();
      await limiter.close();
      await archive.close();
      await store.close();
    },
  };
}
