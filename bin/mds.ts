#!/usr/bin/env node
/**
 * The command line: serve, migrate, import, accounts, keys, stations, ingest, simulate.
 * `create` commands print only what was created (a key alone on stdout), or one JSON
 * object with --json, so scripts can drive the service.
 */
import { parseArgs } from "node:util";
import { ConfigError, parseConfig } from "../src/config.ts";
import { isPlanId, PLAN_IDS, type PlanId, planSlot } from "../src/domain/plans.ts";
import { DATASETS, importDataset, importMissingDatasets } from "../src/adapters/importers/datasets.ts";
import { runSanctionsImportCommand, SanctionsUsageError } from "../src/adapters/importers/sanctions-import.ts";
import { SanctionsRefresher } from "../src/adapters/sanctions-refresh.ts";
import {
  DEMO_ACCOUNT,
  formatStation,
  IngestUsageError,
  ingestStream,
  openInput,
  prepareSimulate,
  setupDemo,
  startDemoSimulator,
  stationsReport,
} from "../src/adapters/ingest/cli.ts";
import { senderFor, startSimulator } from "../src/adapters/ingest/simulator/index.ts";
import { createService, DATASETS_DIR, PROJECT_ROOT, type Service } from "../src/main.ts";
import { ACCOUNT_COMMANDS, ACCOUNT_USAGE, AccountCommandError, runAccountCommand } from "../src/adapters/webhooks/cli.ts";
import { compact } from "../src/adapters/archive/compact.ts";
import { runUsersCommand, USERS_USAGE } from "../src/adapters/web/users-cli.ts";
import { SqlUserStore } from "../src/adapters/storage/users-store.ts";
import { SqlSessionStore } from "../src/adapters/storage/sessions-store.ts";
import { VesselMaintenance } from "../src/adapters/archive/maintenance.ts";

class UsageError extends Error {}

const USAGE = `usage: mds <command> [options]

  serve [--demo]                         serve the API (imports bundled data into an empty store)
  migrate                                bring the store's schema up to date
  import <dataset|all> [file|url]        import a dataset (${Object.keys(DATASETS).join(", ")})
  import sanctions <list> [file|dir|url ...] [--as-of yyyy-mm-dd] [--max-delisted-share 0..1]
  import sanctions --all                 re-import every list from its configured or official files
  accounts create [--name N] [--plan P] [--json]
  keys create --plan <tier> [--account <id>] [--name N] [--json]
  keys revoke <key-id>
  keys list --account <id> [--json]
  stations create --account <id> --name <name> [--json]
  stations list --account <id> [--json]  stations with their ingest counters
  ingest --station <id> [file|-]         NMEA lines from a file (.gz too) or stdin, as that station's
  simulate [--station <id> --secret <s>] [--target tcp://127.0.0.1:5631] [--vessels N]
                                         a simulated station sending to a running service (tcp:, udp:, http:)
  compact                                move positions older than 90 days to the archive (10-minute points) and link
                                         new AIS identities and sanctions lists into the vessel registry (serve does both)
${ACCOUNT_USAGE}
${USERS_USAGE}

plans: ${PLAN_IDS.join(", ")}
environment: PORT, HOST, DATA_DIR, DATABASE_URL, ARCHIVE_DATABASE_URL, REDIS_URL, BASE_URL, SOURCES_FILE, LOG_LEVEL, SANCTIONS_REFRESH_MINUTES, SANCTIONS_SOURCES,
  INGEST_TCP_PORT, INGEST_UDP_PORT`;

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

function planArg(value: string | undefined, required: boolean): PlanId | null {
  if (value === undefined) {
    if (required) throw new UsageError(`--plan is required (one of ${PLAN_IDS.join(", ")})`);
    return null;
  }
  if (!isPlanId(value)) throw new UsageError(`--plan ${value}: unknown plan; use one of ${PLAN_IDS.join(", ")}`);
  return value;
}

async function withService<T>(fn: (s: Service) => Promise<T>): Promise<T> {
  const service = await createService(parseConfig(process.env, PROJECT_ROOT));
  try {
    return await fn(service);
  } finally {
    await service.close();
  }
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === "users") {
    return withService(async (s) => {
      const io = { stdin: process.stdin, out, err: (line: string) => process.stderr.write(`${line}\n`) };
      process.exitCode = await runUsersCommand({ accounts: s.services.accounts, users: new SqlUserStore(s.store.db, s.services.clock), sessions: new SqlSessionStore(s.store.db) }, argv.slice(1), io);
    });
  }
  // Account commands (webhooks, zones, follows, ...) take options of their own.
  if ((ACCOUNT_COMMANDS as readonly string[]).includes(argv[0] ?? "")) {
    return withService(async (s) => {
      await runAccountCommand(s.services, argv, out).catch((e: unknown) => {
        throw e instanceof AccountCommandError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") ? new UsageError((e as Error).message) : e;
      });
    });
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      demo: { type: "boolean", default: false },
      plan: { type: "string" },
      account: { type: "string" },
      name: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
      all: { type: "boolean", default: false },
      "as-of": { type: "string" },
      "max-delisted-share": { type: "string" },
      station: { type: "string" },
      secret: { type: "string" },
      target: { type: "string" },
      vessels: { type: "string" },
    },
  });
  const [command, sub, arg] = positionals;
  if (values.help || !command) {
    out(USAGE);
    return;
  }

  switch (`${command}${sub && ["create", "revoke", "list"].includes(sub) ? ` ${sub}` : ""}`) {
    case "serve":
      return serve(values.demo);
    case "migrate":
      return withService(async () => out("schema is up to date"));
    case "import": {
      const dataset = sub;
      if (dataset === "sanctions") {
        const cmd = { args: positionals.slice(2), all: values.all, asOf: values["as-of"], maxDelistedShare: values["max-delisted-share"] };
        return withService(async (s) => {
          const write = (line: string) => process.stderr.write(`${line}\n`);
          const ok = await runSanctionsImportCommand(s.services, { ...cmd, configured: s.config.sanctionsSources }, write).catch((e: unknown) => {
            throw e instanceof SanctionsUsageError ? new UsageError(e.message) : e;
          });
          if (!ok) process.exitCode = 1;
        });
      }
      if (!dataset) throw new UsageError(`import needs a dataset: ${Object.keys(DATASETS).join(", ")} or all`);
      return withService(async (s) => {
        const ids = dataset === "all" ? Object.keys(DATASETS) : [dataset];
        if (dataset === "all" && arg) throw new UsageError("import all takes no file: name one dataset to import a file");
        for (const id of ids) {
          const r = await importDataset(s, id, arg, { progress: process.stderr.isTTY });
          process.stderr.write(`${id}: ${r.rows} rows from ${r.origin}\n`);
        }
      });
    }
    case "accounts create":
      return withService(async (s) => {
        const plan = planArg(values.plan, false) ?? "sandbox";
        const account = await s.services.accounts.createAccount({
          name: values.name ?? "account",
          webPlan: planSlot(plan) === "web" ? plan : null,
          apiPlan: planSlot(plan) === "api" ? plan : null,
        });
        out(values.json ? JSON.stringify({ id: account.id, name: account.name, webPlan: account.webPlan, apiPlan: account.apiPlan }) : account.id);
      });
    case "keys create":
      return withService(async (s) => {
        const plan = planArg(values.plan, true)!;
        let accountId = values.account;
        if (accountId) {
          if (!(await s.services.accounts.getAccount(accountId))) throw new UsageError(`--account ${accountId}: no such account`);
          await s.services.accounts.setPlan(accountId, planSlot(plan), plan);
        } else {
          const a = await s.services.accounts.createAccount({
            name: values.name ?? `${plan} account`,
            webPlan: planSlot(plan) === "web" ? plan : null,
            apiPlan: planSlot(plan) === "api" ? plan : null,
          });
          accountId = a.id;
        }
        const key = await s.services.accounts.createKey(accountId, values.name);
        out(values.json ? JSON.stringify({ key: key.key, id: key.id, plan, account: accountId }) : key.key);
      });
    case "keys revoke":
      return withService(async (s) => {
        if (!arg) throw new UsageError("keys revoke needs the key id (key_...)");
        if (!(await s.services.accounts.revokeKey(arg))) throw new UsageError(`no active key ${arg}`);
        out(`revoked ${arg}`);
      });
    case "keys list":
      return withService(async (s) => {
        if (!values.account) throw new UsageError("keys list needs --account <id>");
        const keys = await s.services.accounts.listKeys(values.account);
        if (values.json) out(JSON.stringify(keys));
        else for (const k of keys) out(`${k.id}  ${k.start}...  ${k.revokedAt ? "revoked" : "active"}  ${k.name ?? ""}`);
      });
    case "stations create":
      return withService(async (s) => {
        if (!values.account) throw new UsageError("stations create needs --account <id>");
        if (!values.name) throw new UsageError("stations create needs --name <name>");
        if (!(await s.services.accounts.getAccount(values.account))) throw new UsageError(`--account ${values.account}: no such account`);
        const { station, secret } = await s.services.stations.createStation(values.account, values.name);
        out(values.json ? JSON.stringify({ id: station.id, secret, account: station.accountId, name: station.name }) : `${station.id} ${secret}`);
      });
    case "stations list":
      return withService(async (s) => {
        if (!values.account) throw new UsageError("stations list needs --account <id>");
        const report = await stationsReport(s, values.account);
        if (values.json) out(JSON.stringify(report));
        else for (const h of report) out(formatStation(h));
      });
    case "ingest":
      return withService(async (s) => {
        const id = Number(values.station);
        if (!values.station || !Number.isInteger(id) || id < 1) throw new UsageError("ingest needs --station <id>");
        const summary = await ingestStream(s, id, openInput(sub)).catch((e: unknown) => {
          throw e instanceof IngestUsageError ? new UsageError(e.message) : e;
        });
        out(JSON.stringify(summary));
      });
    case "simulate":
      return simulate(values);
    case "compact":
      return withService(async (s) => {
        const registry = await s.services.vessels.refresh(s.services.clock.now());
        process.stderr.write(`vessel registry: ${registry.aisIdentities} AIS identities and ${registry.sanctionsDesignations} sanctions designations linked\n`);
        const r = await compact(s.tracks, s.archive, s.services.clock.now());
        out(JSON.stringify(r));
      });
    default:
      throw new UsageError(`unknown command: ${positionals.join(" ")}\n\n${USAGE}`);
  }
}

async function serve(demo: boolean): Promise<void> {
  // The demo opens sign-up unless SIGNUP says otherwise.
  const service = await createService(parseConfig(demo ? { SIGNUP: "open", ...process.env } : process.env, PROJECT_ROOT));
  const log = service.app.log;
  for (const r of await importMissingDatasets(service, { progress: process.stderr.isTTY })) log.info(`imported ${r.id}: ${r.rows} rows`);
  const demoSetup = demo ? await setupDemo(service) : null;
  const address = await service.app.listen({ port: service.config.port, host: service.config.host });
  const base = service.config.baseUrl ?? address;
  const { tcpPort, udpPort } = await service.ingest.listen({ host: service.config.host, tcpPort: service.config.ingestTcpPort, udpPort: service.config.ingestUdpPort });
  out(`maritime-data-service listening on ${base}`);
  out(`station ingest: tcp ${tcpPort ?? "off"}, udp ${udpPort ?? "off"}, http POST ${base}/ingest/nmea`);
  out(`mcp: ${base}/mcp (Authorization: Bearer <API_KEY>)`);
  if (demoSetup) {
    out(`sandbox key: ${demoSetup.sandboxKey}`);
    out(`try: curl -H "Authorization: Bearer ${demoSetup.sandboxKey}" "${base}/api/v1/ports?country=NL&limit=5"`);
    out(`demo pro key: ${demoSetup.proKey} (account ${DEMO_ACCOUNT}, station ${demoSetup.station.id} fed by the built-in simulator)`);
    out(`try: curl -H "Authorization: Bearer ${demoSetup.proKey}" "${base}/api/v1/me/feed?maxAge=5"`);
    out(`account pages: ${base}/login as ${demoSetup.user.email}, password ${demoSetup.user.password}`);
  }
  const simulator = demoSetup ? startDemoSimulator(service, demoSetup, tcpPort, DATASETS_DIR, (m) => log.warn(m)) : null;
  // Off unless SANCTIONS_REFRESH_MINUTES is set; the first round runs in the background.
  const minutes = service.config.sanctionsRefreshMinutes;
  const refresher = minutes ? new SanctionsRefresher(service.services, { minutes, sources: service.config.sanctionsSources, log }) : null;
  void refresher?.start();
  // Webhook deliveries and sanctions alerts; zone alerts run on ingest already.
  service.webhooks.start();
  // Vessel registry refresh every minute, archive compaction every hour (first run after a minute).
  const maintenance = new VesselMaintenance({ vessels: service.services.vessels, tracks: service.tracks, archive: service.archive, clock: service.services.clock, log });
  const stop = async () => {
    await simulator?.stop();
    await refresher?.stop();
    await maintenance.stop();
    await service.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

/** Runs until interrupted, printing what was sent and acknowledged every 10 s on stderr. */
async function simulate(values: { station?: string; secret?: string; target?: string; vessels?: string }): Promise<void> {
  const plan = await prepareSimulate(values, () =>
    withService(async (s) => {
      const accounts = s.services.accounts;
      const demo = (await accounts.findAccountByName(DEMO_ACCOUNT)) ?? (await accounts.createAccount({ name: DEMO_ACCOUNT, webPlan: "pro", apiPlan: null }));
      const { station, secret } = await s.services.stations.createStation(demo.id, "simulator");
      process.stderr.write(`created station ${station.id} on account ${demo.id} (${DEMO_ACCOUNT}); secret ${secret}\n`);
      return { id: station.id, secret };
    }),
  ).catch((e: unknown) => {
    throw e instanceof Error && !(e instanceof UsageError) && /^--|give --/.test(e.message) ? new UsageError(e.message) : e;
  });
  const sender = senderFor(plan.target, plan.id, plan.secret, (m) => process.stderr.write(`simulate: ${m}\n`));
  const sim = startSimulator(sender, { datasetsDir: DATASETS_DIR, vessels: plan.vessels, stationTag: `station-${plan.id}` });
  process.stderr.write(`simulating station ${plan.id}: ${sim.fleet.size} vessels -> ${values.target ?? "tcp://127.0.0.1:5631"}\n`);
  const report = setInterval(() => process.stderr.write(`sent ${sender.sent()} lines, acknowledged ${sender.acknowledged()}, dropped ${sender.dropped()}\n`), 10_000);
  const stop = async () => {
    clearInterval(report);
    await sim.stop();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof ConfigError || e instanceof UsageError) {
    process.stderr.write(`mds: ${e.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`mds: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
