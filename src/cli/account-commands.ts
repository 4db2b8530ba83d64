import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { entitlements } from "../domain/plans.ts";
import { execute, type Pipeline } from "../operations/execute.ts";
import type { OperatorPrincipal } from "../operations/principal.ts";
import { OPERATIONS } from "../operations/registry.ts";
import type { Services } from "../operations/services.ts";

/**
 * `mds webhooks|deliveries|zones|follows|saved-searches ...`: the account operations from
 * the command line, for the operator acting on an account's behalf. Each command runs
 * the registry's operation through execute(), like REST and MCP, as the operator acting for
 * the account (an `operator` principal, not a key), so validation, limits and answers are
 * the same; it prints the answer's data, or the error's code and message on one line.
 */

export const ACCOUNT_COMMANDS = ["webhooks", "deliveries", "zones", "follows", "saved-searches"] as const;

export const ACCOUNT_USAGE = `  webhooks list|create|get|update|delete|test|enable|rotate-secret|deliveries [wh_N] --account <id>
      create/update: --url U [--description D] [--events alert.zone_enter,alert.sanctions]
      rotate-secret: [--grace-hours 0..168]; deliveries: [--status S] [--event evt_N] [--limit N]
  deliveries retry <dlv_N> --account <id>
  zones list|create|delete [zone_N] --account <id>   create: --name N --geometry '<GeoJSON Polygon>' (or @file)
  follows list|create|delete [follow_N] --account <id>   create: --imo N | --mmsi N | --unlocode CODE
  saved-searches list|create|delete [search_N] --account <id>   create: --name N --q TEXT [--kind K]`;

export class AccountCommandError extends Error {}

type Spec = { op: string; id?: boolean; body?: (v: Values) => Record<string, unknown>; query?: (v: Values) => Record<string, string> };
type Values = Record<string, string | boolean | undefined>;

const str = (v: Values, k: string) => (typeof v[k] === "string" ? (v[k] as string) : undefined);
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined));

const COMMANDS: Record<string, Spec> = {
  "webhooks list": { op: "account.webhooks.list" },
  "webhooks create": { op: "account.webhooks.create", body: (v) => defined({ url: str(v, "url"), description: str(v, "description"), events: str(v, "events")?.split(",") }) },
  "webhooks get": { op: "account.webhooks.get", id: true },
  "webhooks update": { op: "account.webhooks.update", id: true, body: (v) => defined({ url: str(v, "url"), description: str(v, "description"), events: str(v, "events")?.split(",") }) },
  "webhooks delete": { op: "account.webhooks.delete", id: true },
  "webhooks test": { op: "account.webhooks.test", id: true },
  "webhooks enable": { op: "account.webhooks.enable", id: true },
  "webhooks disable": { op: "account.webhooks.disable", id: true },
  "webhooks rotate-secret": { op: "account.webhooks.rotate", id: true, body: (v) => defined({ graceHours: str(v, "grace-hours") === undefined ? undefined : Number(str(v, "grace-hours")) }) },
  "webhooks deliveries": { op: "account.webhooks.deliveries", id: true, query: (v) => defined({ status: str(v, "status"), event: str(v, "event"), limit: str(v, "limit") }) as Record<string, string> },
  "deliveries retry": { op: "account.deliveries.retry", id: true },
  "zones list": { op: "account.zones.list" },
  "zones create": { op: "account.zones.create", body: (v) => defined({ name: str(v, "name"), geometry: jsonArg(str(v, "geometry")) }) },
  "zones delete": { op: "account.zones.delete", id: true },
  "follows list": { op: "account.follows.list" },
  "follows create": { op: "account.follows.create", body: (v) => defined({ imo: str(v, "imo"), mmsi: str(v, "mmsi"), unlocode: str(v, "unlocode") }) },
  "follows delete": { op: "account.follows.delete", id: true },
  "saved-searches list": { op: "account.saved-searches.list" },
  "saved-searches create": { op: "account.saved-searches.create", body: (v) => defined({ name: str(v, "name"), q: str(v, "q"), kind: str(v, "kind") }) },
  "saved-searches delete": { op: "account.saved-searches.delete", id: true },
};

/** Whether `resource verb` is one of these commands (`webhooks create`). */
export function isAccountCommand(resource: string, verb: string | undefined): boolean {
  return `${resource} ${verb}` in COMMANDS;
}

function jsonArg(v: string | undefined): unknown {
  if (v === undefined) return undefined;
  const text = v.startsWith("@") ? readFileSync(v.slice(1), "utf8") : v;
  try {
    return JSON.parse(text);
  } catch {
    throw new AccountCommandError("--geometry must be JSON (a GeoJSON Polygon) or @file");
  }
}

/** Runs one account command; writes the answer's `data` as JSON on stdout. Returns the exit code. */
export async function runAccountCommand(services: Services, argv: string[], write: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      account: { type: "string" },
      json: { type: "boolean", default: false },
      url: { type: "string" },
      description: { type: "string" },
      events: { type: "string" },
      "grace-hours": { type: "string" },
      status: { type: "string" },
      event: { type: "string" },
      limit: { type: "string" },
      name: { type: "string" },
      geometry: { type: "string" },
      imo: { type: "string" },
      mmsi: { type: "string" },
      unlocode: { type: "string" },
      q: { type: "string" },
      kind: { type: "string" },
    },
  });
  const [resource, verb, id] = positionals;
  const spec = COMMANDS[`${resource} ${verb}`];
  if (!spec) throw new AccountCommandError(`unknown command: ${positionals.join(" ")}; see mds --help`);
  if (!values.account) throw new AccountCommandError(`${resource} ${verb} needs --account <id>`);
  if (spec.id && !id) throw new AccountCommandError(`${resource} ${verb} needs the id`);
  const account = await services.accounts.getAccount(values.account);
  if (!account) throw new AccountCommandError(`--account ${values.account}: no such account`);
  const op = OPERATIONS.find((o) => o.id === spec.op);
  if (!op) throw new Error(`account command ${resource} ${verb} names no operation (${spec.op})`);
  const principal: OperatorPrincipal = { kind: "operator", subject: "operator:cli", accountId: account.id, entitlements: entitlements(account.webPlan, account.apiPlan), clientAddress: "cli" };
  const pipeline: Pipeline = { services, auth: { authenticate: async () => principal, forget: () => undefined } };
  const paramName = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)[0];
  const result = await execute(pipeline, op, principal, {
    params: paramName && id ? { [paramName]: id } : {},
    query: spec.query?.(values) ?? {},
    body: spec.body?.(values),
    baseUrl: "",
    requestId: `cli_${randomUUID().replaceAll("-", "")}`,
  });
  if (!result.ok) throw new AccountCommandError(`${result.error.code}: ${result.error.message}`);
  write(values.json ? JSON.stringify(result.data) : JSON.stringify(result.data, null, 2));
  return 0;
}
