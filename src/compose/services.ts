import { join } from "node:path";
import { withJobLock } from "../adapters/storage/job-lock.ts";
import { type Logger, pino } from "pino";
import { Ingest } from "../adapters/ingest/index.ts";
import { IdentityLinker } from "../adapters/ingest/identity-linker.ts";
import { FeedMetrics } from "../adapters/ingest/feeds/metrics.ts";
import { FeedRunner, type FeedRunnerOptions } from "../adapters/ingest/feeds/runner.ts";
import { SqlFeedStore } from "../adapters/storage/stations/feed-store.ts";
import { FeedStations } from "../adapters/storage/stations/feed-stations.ts";
import type { HttpLimits } from "../adapters/http/app.ts";
import { FixedWindowLimiter } from "../adapters/limits/fixed-window-limiter.ts";
import { RedisAdmission } from "../adapters/storage/redis/admission.ts";
import { SequentialAdmission } from "../adapters/limits/sequential-admission.ts";
import { InProcessAdmission } from "../adapters/limits/in-process-admission.ts";
import { MemoryAttemptWindows } from "../adapters/limits/memory-attempts.ts";
import { RedisAttemptWindows } from "../adapters/storage/redis/attempt-windows.ts";
import { announcingRevocations } from "../adapters/storage/redis/announcing-accounts.ts";
import { type CachedCredentials, type KeyRevocations, keyRevocations } from "../adapters/storage/redis/key-revocations.ts";
import { ConnectedApps, type OAuthDeps, OAuthTokenVerifier } from "../adapters/oauth/index.ts";
import { OAuthPrincipals } from "../adapters/oauth/token-principals.ts";
import { SqlAccountStore } from "../adapters/storage/accounts/accounts-store.ts";
import { SqlOAuthStore } from "../adapters/storage/accounts/oauth-store.ts";
import { SqlSessionStore } from "../adapters/storage/accounts/sessions-store.ts";
import { SqlUserStore } from "../adapters/storage/accounts/users-store.ts";
import { SqlCreditLedger } from "../adapters/storage/accounts/credit-ledger.ts";
import { WriteBehindLedger } from "../adapters/storage/accounts/write-behind-ledger.ts";
import { BatchedCreditLedger } from "../adapters/storage/accounts/batched-credit-ledger.ts";
import { SqliteKeyRevocations } from "../adapters/storage/accounts/sqlite-key-revocations.ts";
import { PostgresKeyRevocations } from "../adapters/storage/accounts/postgres-key-revocations.ts";
import { RedisCreditLedger } from "../adapters/storage/redis/credit-ledger.ts";
import { openStore, type Store, type StoreLocation } from "../adapters/storage/database.ts";
import { SqlPositionStore } from "../adapters/storage/positions/positions-store.ts";
import { SqlDatasetLog, SqlFlagStore, SqlPortStore } from "../adapters/storage/reference/reference-store.ts";
import { SqlWreckStore } from "../adapters/storage/reference/wreck-store.ts";
import { SqlCompanyStore } from "../adapters/storage/reference/company-store.ts";
import { SqlFlagFleetReader } from "../adapters/storage/reference/flag-fleet-store.ts";
import { SqlInspectionStore } from "../adapters/storage/reference/inspection-store.ts";
import { SqlSanctionsStore } from "../adapters/storage/sanctions/sanctions-store.ts";
import { SqlScreeningReceiptStore } from "../adapters/storage/screenings/receipt-store.ts";
import { SqlMcpTaskStore } from "../adapters/storage/mcp-tasks/mcp-task-store.ts";
import type { McpTaskStore } from "../interfaces/mcp-tasks.ts";
import type { McpTaskSeams } from "../adapters/mcp/tasks/task-runner.ts";
import { SqlReceiptSigner } from "../adapters/storage/screenings/receipt-signer.ts";
import { SqlStationStore } from "../adapters/storage/stations/station-store.ts";
import { OwnStations } from "../adapters/storage/stations/own-stations.ts";
import { SharedStations } from "../adapters/storage/stations/shared-stations.ts";
import { type ArchiveLocation, SqlArchiveStore } from "../adapters/storage/positions/archive-store.ts";
import { SqlSearchStore } from "../adapters/storage/reference/search-store.ts";
import { SqlTrackStore } from "../adapters/storage/positions/track-store.ts";
import { SqlVesselStore } from "../adapters/storage/reference/vessel-store.ts";
import { SqlAlertStore } from "../adapters/storage/alerts/alerts-store.ts";
import { SqlWebhookStore } from "../adapters/storage/alerts/webhooks-store.ts";
import { SqlWatchlistStore } from "../adapters/storage/watchlists/watchlist-store.ts";
import { SqlZoneStateStore } from "../adapters/storage/alerts/zone-state-store.ts";
import { SqlDerivedStore } from "../adapters/storage/positions/derived-store.ts";
import { DerivedFacts } from "../adapters/derived/runtime.ts";
import { loadWaterways } from "../adapters/importers/gates.ts";
import { loadShore } from "../adapters/importers/shore.ts";
import { BUNDLED_DATASETS_DIR } from "../adapters/importers/bundled-datasets-dir.ts";
import { GateSet } from "../domain/derived/transit-detector.ts";
import { loadSecretBox } from "../adapters/storage/accounts/secret-keys.ts";
import { AlertDetection, type AlertsOptions } from "../adapters/alerts/runtime.ts";
import { WebhooksRuntime, type WebhooksOptions } from "../adapters/webhooks/runtime.ts";
import type { Config } from "../config.ts";
import type { CreditLedger } from "../interfaces/accounts.ts";
import type { Admission } from "../interfaces/admission.ts";
import type { AttemptWindows } from "../interfaces/attempts.ts";
import type { SessionStore, UserStore } from "../interfaces/people.ts";
import { ANNOUNCED_KEY_CACHE_TTL_MS, KEY_CACHE_TTL_MS, KeyAuthenticator } from "../operations/authenticate.ts";
import type { Pipeline } from "../operations/execute.ts";
import type { Services } from "../operations/services.ts";
import type { DatasetLog } from "../interfaces/reference.ts";
import { type Clock, systemClock } from "../interfaces/clock.ts";
import { loadSources } from "../sources-file.ts";

/**
 * What every command works on: the stores, the ports wired over them and the ingest
 * pipeline, without the HTTP app or any listening socket. `mds keys create` opens this
 * and nothing more; `serve` builds the server on top of it (compose/server.ts).
 */
export interface ServiceCore {
  config: Config;
  /** People who sign in to the account pages, and their sessions. */
  people: { users: UserStore; sessions: SessionStore };
  oauth: OAuthCore;
  store: Store;
  services: Services;
  pipeline: Pipeline;
  datasets: DatasetLog;
  /** AIS from stations: pipeline and directory; the TCP/UDP listeners once `listen()`ed by the server. */
  ingest: Ingest;
  /** Alert detection: zone evaluation on ingest always; the sanctions reader once `start()`ed (`serve`). */
  alerts: AlertDetection;
  /** Webhook delivery: the worker once `start()`ed (`serve`); test events. */
  webhooks: WebhooksRuntime;
  /** Track reads and archive compaction over the main store's positions. */
  tracks: SqlTrackStore;
  /** The position archive (its own store; opened on first use). */
  archive: SqlArchiveStore;
  /** Public AIS feeds: run by `serve` (`feeds.start()`); the list and statuses are in `services.feeds`. */
  feeds: FeedRunner;
  /** Links stored static reports into the vessel registry; `drain()` waits for what is queued (tests, stop). */
  identityLinks: IdentityLinker;
  /** The stations of public feeds (cached); `refresh()` after adding one in this process. */
  feedStations: FeedStations;
  /** Live port-call and transit derivation over ingested positions; null when DERIVED_FACTS=off. */
  derived: DerivedFacts | null;
  /** Failed sign-ins and the OAuth endpoints' calls per address: in Redis under `{REDIS_PREFIX}:attempts` when it is set, in the process otherwise. */
  attempts: AttemptWindows;
  /** Revoked keys are forgotten here at once and announced to the other processes (through Redis when set, else by PostgreSQL's NOTIFY, or seen in SQLite's file version). */
  revocations: KeyRevocations;
  /** Structured log on stderr, so a command's answer on stdout stays clean. */
  log: Logger;
  /** MCP tasks (long tool calls run in the background), in the main store so every process sees them. */
  mcpTasks: McpTaskStore;
  close(): Promise<void>;
}

export interface OpenOptions {
  clock?: Clock;
  rateLimitPrefix?: string;
  webhooks?: WebhooksOptions;
  alerts?: AlertsOptions;
  /** Tests replace the OAuth server's sign-in seams or its metadata fetcher (compose/server.ts). */
  oauth?: OAuthSeams;
  /** Tests shorten the feeds' silence threshold, backoff and poll interval. */
  feeds?: FeedRunnerOptions;
  /** Tests hold MCP tasks between their pages (adapters/mcp/tasks/task-runner.ts). */
  mcpTasks?: McpTaskSeams;
  /** Tests lengthen the keep-alive of the HTTP listener (adapters/http/app.ts). */
  httpLimits?: Partial<HttpLimits>;
}

/** The sign-in seams of the OAuth server (the web face supplies them) and its metadata fetcher. */
export type OAuthSeams = Partial<Pick<OAuthDeps, "currentUser" | "csrf" | "page" | "loginUrl" | "fetchClientMetadata">>;

/** OAuth for MCP clients: its store, the access-token check /mcp runs, and the account page's connected apps. */
export interface OAuthCore {
  store: SqlOAuthStore;
  tokens: OAuthTokenVerifier;
  connectedApps: ConnectedApps;
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

/** Opens the stores and wires the ports; the sources file is read first, so a bad one opens nothing. */
export async function openServices(config: Config, options: OpenOptions = {}): Promise<ServiceCore> {
  const clock = options.clock ?? systemClock;
  const log = pino({ level: config.logLevel }, pino.destination(2));
  const sources = loadSources(config.sourcesFile);
  const waterways = await loadWaterways(BUNDLED_DATASETS_DIR);
  // The key that seals webhook secrets, outside the database; read (or made) before anything is opened.
  const secretBox = loadSecretBox({ secretsKey: config.secretsKey, secretsKeyPrevious: config.secretsKeyPrevious, dataDir: config.dataDir });
  const store = await openStore(storeLocation(config));
  const sqlAccounts = new SqlAccountStore(store.db, clock);
  // The authenticator is built below; a revocation reaches it through this late-bound call.
  let forgetKey: (what: CachedCredentials) => void = () => {};
  // With Redis, changes are announced on its channel. Without: on SQLite, a change another process commits to the file is
  // noticed by polling the file's version, as often as a short cache would expire; on PostgreSQL, the database announces
  // each change (migration 0035) to a connection every process listens on, and while that connection is down the cache
  // is forgotten as often as a short one would expire.
  const revocations = config.redisUrl
    ? keyRevocations({ redisUrl: config.redisUrl, forget: (what) => forgetKey(what), onError: (err) => log.warn({ err }, "key revocation channel: Redis error") })
    : config.databaseUrl
      ? new PostgresKeyRevocations(config.databaseUrl, (what) => forgetKey(what), { everyMs: KEY_CACHE_TTL_MS, onError: (err) => log.warn({ err }, "key revocations: the PostgreSQL connection listening for key changes failed; keys are forgotten every second until it is back") })
      : new SqliteKeyRevocations(store.db, (what) => forgetKey(what), { everyMs: KEY_CACHE_TTL_MS, onError: (err) => log.warn({ err }, "key revocations: reading the SQLite file's version failed") });
  if (revocations instanceof SqliteKeyRevocations || revocations instanceof PostgresKeyRevocations) await revocations.ready();
  const accounts = announcingRevocations(sqlAccounts, revocations);
  // With Redis, every process charges one balance there, written behind to the store (docs/adr/0001-credit-ledger.md),
  // and draws on one rate window per key; a call's rate limit and charge are decided together, in one script.
  // Without: SQLite is served by one process, which can charge in memory and write behind; PostgreSQL charges in the
  // database, a process's calls of one event-loop turn in one statement, each decided alone.
  const sqlLedger = new SqlCreditLedger(store.counters, store.dialect);
  const ratePrefix = options.rateLimitPrefix ?? `${config.redisPrefix}:rl`;
  let ledger: CreditLedger;
  let admission: Admission;
  if (config.redisUrl) {
    const redisLedger = new RedisCreditLedger({ redisUrl: config.redisUrl, store: sqlLedger, prefix: config.redisPrefix, onError: (err) => log.warn({ err }, "credit ledger: Redis error") });
    ledger = redisLedger;
    admission = new RedisAdmission({ redisUrl: config.redisUrl, ledger: redisLedger, ratePrefix, onError: (err) => log.warn({ err }, "admission: Redis error") });
  } else {
    if (store.engine === "sqlite") {
      // Window and balance both in this process's memory: a call is admitted without waiting (in-process-admission.ts).
      const writeBehind = new WriteBehindLedger(sqlLedger);
      ledger = writeBehind;
      admission = new InProcessAdmission(new FixedWindowLimiter(clock), writeBehind);
    } else {
      ledger = new BatchedCreditLedger(store.counters, sqlLedger);
      admission = new SequentialAdmission(new FixedWindowLimiter(clock), ledger);
    }
  }
  // Plaintext secrets (from before sealing) and ones sealed under a rotated-away key are sealed under the current key now.
  const webhookStore = new SqlWebhookStore(store.db, store.dialect, secretBox);
  // Cached station sets drop a change made here at once: the shared set when sharing changes, an account's own list when it gains a station.
  const stations = new SqlStationStore(store.db, clock, secretBox, config.ingestPlainPorts, {
    sharingChanged: () => sharedStations.invalidate(),
    created: (accountId) => ownStations.added(accountId),
  });
  const ownStations = new OwnStations((accountId) => stations.ownStationIds(accountId), clock);
  await Promise.all([webhookStore.sealSecrets(), stations.sealUdpKeys()]).catch(async (e: unknown) => {
    await store.close();
    throw e;
  });
  const tracks = new SqlTrackStore(store.db, store.dialect);
  const archive = new SqlArchiveStore(archiveLocation(config));
  // Shared stations: the visible set and their sources come from one snapshot.
  const sharedStations = new SharedStations(() => stations.sharedStations(), clock);
  sources.attachStations((id) => sharedStations.sourceOf(id));
  await sharedStations.ids();
  const feedStore = new SqlFeedStore(store.db, secretBox, clock);
  // Feed stations are part of everyone's visible set, and governed by their feed's source entry.
  const feedStations = new FeedStations(feedStore, clock, (stations) => sources.bindStations(stations));
  await feedStations.refresh().catch(async (e: unknown) => {
    await store.close();
    throw e;
  });
  const baseUrl = config.baseUrl ?? `http://${config.host}:${config.port}`;
  // Sign-in failures and OAuth calls per address: one count for every process when there is Redis.
  const attempts: AttemptWindows = config.redisUrl
    ? new RedisAttemptWindows({ redisUrl: config.redisUrl, prefix: `${config.redisPrefix}:attempts`, onError: (err) => log.warn({ err }, "attempt windows: Redis error") })
    : new MemoryAttemptWindows();
  const webhooks = new WebhooksRuntime(webhookStore, clock, { baseUrl, log, options: options.webhooks });
  const alerts = new AlertDetection(webhookStore, clock, { baseUrl, log, options: options.alerts, onEmitted: () => webhooks.wake() });
  const datasetLog = new SqlDatasetLog(store.db);
  const services: Services = {
    clock,
    sources,
    accounts,
    ledger,
    stations,
    positions: new SqlPositionStore(store.db, store.dialect, { zoneQueue: () => alerts.zones?.wantsFixes ?? true, derivedQueue: () => config.derivedFacts }),
    admission,
    ports: new SqlPortStore(store.db),
    flags: new SqlFlagStore(store.db),
    flagFleet: new SqlFlagFleetReader(store.db),
    wrecks: new SqlWreckStore(store.db),
    companies: new SqlCompanyStore(store.db),
    inspections: new SqlInspectionStore(store.db),
    sanctions: new SqlSanctionsStore(store.db, { staleAfterDays: config.sanctionsStaleDays }),
    screenings: new SqlScreeningReceiptStore(store.db),
    // The receipt key's private half is sealed by the same key as webhook secrets.
    receiptSigner: new SqlReceiptSigner(store.db, secretBox, clock),
    vessels: new SqlVesselStore(
      store.db,
      store.dialect,
      { shared: () => sharedStations.ids(), feeds: () => feedStations.ids(), own: (accountId) => ownStations.ids(accountId) },
      // The periodic refresh's lock (cli/serve.ts), waited for: an import links its version once the refresh in hand is done.
      (run) => withJobLock(store, "registry-refresh", true, run),
    ),
    search: new SqlSearchStore(store.db, store.dialect),
    tracks,
    archive,
    alerts: new SqlAlertStore(store.db, store.dialect),
    watchlists: new SqlWatchlistStore(store.db, store.dialect),
    webhooks: webhookStore,
    webhookDispatch: webhooks,
    alertsRuntime: alerts,
    feeds: feedStore,
    derived: new SqlDerivedStore(store.db, store.dialect),
    waterways,
  };
  const oauthStore = new SqlOAuthStore(store.db);
  const oauth: OAuthCore = { store: oauthStore, tokens: new OAuthTokenVerifier(oauthStore, clock), connectedApps: new ConnectedApps(oauthStore, clock) };
  // Keys everywhere; OAuth access tokens where the call's address is the one they were issued for (/mcp).
  // Keys are remembered longer where every process hears of revocations and plan changes (Redis, SQLite's file version, PostgreSQL's NOTIFY).
  const keyCacheTtl = revocations.shared ? ANNOUNCED_KEY_CACHE_TTL_MS : KEY_CACHE_TTL_MS;
  const pipeline: Pipeline = { services, auth: new KeyAuthenticator(accounts, clock, new OAuthPrincipals(oauth.tokens, accounts), keyCacheTtl) };
  forgetKey = (what) => pipeline.auth.forget(what === "all" ? undefined : what);
  const ingest = new Ingest(services.positions, clock, {}, (err) => log.error({ err }, "AIS batch write failed; kept for retry"), (sealed) => secretBox.open(sealed));
  // Positions written by any ingest path (listeners, HTTP, `mds ingest`) raise zone alerts.
  alerts.connect(services, (id) => ingest.directory.byId(id), new SqlZoneStateStore(store.db, store.dialect));
  // A static report is linked into the vessel registry as soon as it is stored (a ship's IMO answers at once).
  const identityLinker = new IdentityLinker((keys) => services.vessels.linkIdentities(keys), (err) => log.warn({ err }, "vessel registry: linking static reports failed; the periodic refresh links them"));
  const feeds = new FeedRunner(
    { feeds: feedStore, pipeline: ingest.pipeline, station: (id) => ingest.directory.byId(id), clock, beforeStart: () => feedStations.refresh() },
    new FeedMetrics(ingest.metrics.registry),
    { log: (m) => log.warn(m), ...options.feeds, tuning: { digitrafficUser: config.digitrafficUser, silentAfterMs: config.feedSilentMs, ...options.feeds?.tuning } },
  );
  const derived = config.derivedFacts
    ? new DerivedFacts({
        store: services.derived,
        gates: new GateSet(waterways.waterways.map((w) => w.gate)),
        shore: loadShore(),
        minSilenceMs: config.aisGapMs,
        portsVersion: async () => (await datasetLog.get("ports"))?.importedAt ?? null,
        now: () => clock.now(),
        ingestBacklog: () => ingest.pipeline.buffered,
        alertsFor: async (calls, events) => [...(await alerts.portCallAlerts(calls)), ...(await alerts.vesselEventAlerts(events))],
        onEmitted: () => webhooks.wake(),
        onError: (err) => log.error({ err }, "derived facts: queued fixes could not be derived (kept for the next try)"),
      })
    : null;
  ingest.pipeline.onIdentities = (keys) => {
    identityLinker.add(keys);
    // Identity changes are queued for their alerts with the reports: derivation raises them.
    derived?.onPositions(keys.length);
  };
  ingest.pipeline.onPositions = (fixes) => {
    alerts.onPositions(fixes);
    derived?.onPositions(fixes.length);
  };
  // Fixes queued before a crash or stop are derived now, from the saved state.
  void derived?.poll();
  return {
    config,
    people: { users: new SqlUserStore(store.db, clock), sessions: new SqlSessionStore(store.db) },
    oauth,
    mcpTasks: new SqlMcpTaskStore(store.db),
    store,
    services,
    pipeline,
    datasets: datasetLog,
    ingest,
    alerts,
    webhooks,
    feeds,
    identityLinks: identityLinker,
    feedStations,
    tracks,
    archive,
    derived,
    attempts,
    revocations,
    log,
    async close() {
      await feeds.stop();
      await ingest.close();
      await identityLinker.drain();
      await derived?.idle();
      derived?.close();
      await alerts.close();
      await webhooks.close();
      // Charges still held in memory (write-behind) reach the store before it closes.
      await ledger.close?.();
      await admission.close();
      await attempts.close();
      await revocations.close();
      await archive.close();
      await store.close();
      log.flush();
    },
  };
}
