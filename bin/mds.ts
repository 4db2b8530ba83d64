#!/usr/bin/env node
/**
 * The command line: serve, migrate, import, accounts, keys, stations.
 * `create` commands print only what was created (a key alone on stdout), or one JSON
 * object with --json, so scripts can drive the service.
 */
import { parseArgs } from "node:util";
import { ConfigError, parseConfig } from "../src/config.ts";
import { isPlanId, PLAN_IDS, type PlanId, planSlot } from "../src/domain/plans.ts";
import { DATASETS, importDataset, importMissingDatasets } from "../src/adapters/importers/datasets.ts";
import { createService, PROJECT_ROOT, type Service } from "../src/main.ts";

class UsageError extends Error {}

const USAGE = `usage: mds <command> [options]

  serve [--demo]                         serve the API (imports bundled data into an empty store)
  migrate                                bring the store's schema up to date
  import <dataset|all> [file|url]        import a dataset (${Object.keys(DATASETS).join(", ")})
  accounts create [--name N] [--plan P] [--json]
  keys create --plan <tier> [--account <id>] [--name N] [--json]
  keys revoke <key-id>
  keys list --account <id> [--json]
  stations create --account <id> --name <name> [--json]

plans: ${PLAN_IDS.join(", ")}
environment: PORT, HOST, DATA_DIR, DATABASE_URL, REDIS_URL, BASE_URL, SOURCES_FILE, LOG_LEVEL`;

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
    default:
      throw new UsageError(`unknown command: ${positionals.join(" ")}\n\n${USAGE}`);
  }
}

async function serve(demo: boolean): Promise<void> {
  const service = await createService(parseConfig(process.env, PROJECT_ROOT));
  const log = service.app.log;
  for (const r of await importMissingDatasets(service, { progress: process.stderr.isTTY })) log.info(`imported ${r.id}: ${r.rows} rows`);
  let sandboxKey: string | null = null;
  if (demo) {
    const accounts = service.services.accounts;
    const account = (await accounts.findAccountByName("demo")) ?? (await accounts.createAccount({ name: "demo", webPlan: "sandbox", apiPlan: null }));
    sandboxKey = (await accounts.createKey(account.id, "demo sandbox key")).key;
  }
  const address = await service.app.listen({ port: service.config.port, host: service.config.host });
  const base = service.config.baseUrl ?? address;
  out(`maritime-data-service listening on ${base}`);
  if (sandboxKey) {
    out(`sandbox key: ${sandboxKey}`);
    out(`try: curl -H "Authorization: Bearer ${sandboxKey}" "${base}/api/v1/ports?country=NL&limit=5"`);
  }
  const stop = async () => {
    await service.close();
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
