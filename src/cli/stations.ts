import { AllowFromError, parseAllowFrom } from "../domain/stations/allow-from.ts";
import { ConnectTargetError, formatConnectTarget, parseConnectTarget } from "../domain/stations/connect-target.ts";
import { NoFreePlainPortError, type Station, type StationSettings } from "../interfaces/accounts.ts";
import { formatStation, stationsReport } from "./station-tools.ts";
import { type OptionValues, parseCommandArgs, str } from "./arguments.ts";
import { CliError, EXIT_BAD_ARGUMENT } from "./cli-error.ts";
import { withServices } from "./context.ts";
import type { CliIo } from "./io.ts";

/** Options create and update share: sharing and the receiver settings. */
const SETTINGS = {
  public: { type: "boolean" },
  "allow-redistribution": { type: "boolean" },
  "allow-commercial": { type: "boolean" },
  "source-name": { type: "string" },
  "plain-port": { type: "boolean" },
  "allow-from": { type: "string" },
  connect: { type: "string" },
} as const;

/** Options only update takes: turning a setting back off. */
const UNSETTINGS = {
  private: { type: "boolean" },
  "deny-redistribution": { type: "boolean" },
  "deny-commercial": { type: "boolean" },
  "no-plain-port": { type: "boolean" },
} as const;

const SOURCE_NAME_MAX = 100;

/** The settings the options ask for; `any` / `off` clear --allow-from / --connect (update). */
function settingsFrom(values: OptionValues, command: string): StationSettings {
  const s: StationSettings = {};
  const flag = (name: string) => values[name] === true;
  if (flag("public") && flag("private")) throw new CliError(`${command}: --public and --private contradict each other`, EXIT_BAD_ARGUMENT);
  if (flag("allow-redistribution") && flag("deny-redistribution")) throw new CliError(`${command}: --allow-redistribution and --deny-redistribution contradict each other`, EXIT_BAD_ARGUMENT);
  if (flag("allow-commercial") && flag("deny-commercial")) throw new CliError(`${command}: --allow-commercial and --deny-commercial contradict each other`, EXIT_BAD_ARGUMENT);
  if (flag("plain-port") && flag("no-plain-port")) throw new CliError(`${command}: --plain-port and --no-plain-port contradict each other`, EXIT_BAD_ARGUMENT);
  if (flag("public")) s.shared = true;
  if (flag("private")) s.shared = false;
  if (flag("allow-redistribution")) s.redistribution = true;
  if (flag("deny-redistribution")) s.redistribution = false;
  if (flag("allow-commercial")) s.commercial = true;
  if (flag("deny-commercial")) s.commercial = false;
  if (flag("plain-port")) s.plainPort = true;
  if (flag("no-plain-port")) s.plainPort = false;
  const sourceName = str(values, "source-name");
  if (sourceName !== undefined) {
    const trimmed = sourceName.trim();
    if (trimmed === "" || trimmed.length > SOURCE_NAME_MAX || [...trimmed].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
      throw new CliError(`--source-name: 1 to ${SOURCE_NAME_MAX} printable characters, the name others see the station's data under`, EXIT_BAD_ARGUMENT);
    }
    s.sourceName = trimmed;
  }
  const allowFrom = str(values, "allow-from");
  if (allowFrom !== undefined) {
    try {
      s.allowFrom = allowFrom === "any" ? null : parseAllowFrom(allowFrom);
    } catch (e) {
      if (e instanceof AllowFromError) throw new CliError(e.message, EXIT_BAD_ARGUMENT);
      throw e;
    }
  }
  const connect = str(values, "connect");
  if (connect !== undefined) {
    try {
      s.connect = connect === "off" ? null : formatConnectTarget(parseConnectTarget(connect));
    } catch (e) {
      if (e instanceof ConnectTargetError) throw new CliError(e.message, EXIT_BAD_ARGUMENT);
      throw e;
    }
  }
  return s;
}

/** Grants mean something only on a public station: refuse them on a private one rather than store a promise nobody sees. */
function checkGrants(command: string, shared: boolean, s: StationSettings): void {
  if (!shared && (s.redistribution === true || s.commercial === true || s.sourceName !== undefined)) {
    throw new CliError(`${command}: --allow-redistribution, --allow-commercial and --source-name apply to a public station; add --public`, EXIT_BAD_ARGUMENT);
  }
}

/** What `--json` prints of a station (the secret only on create). */
function stationJson(station: Station, secret?: string) {
  return {
    id: station.id,
    ...(secret !== undefined ? { secret } : {}),
    account: station.accountId,
    name: station.name,
    public: station.shared,
    source: station.shared ? { id: `station:${station.id}`, name: station.sourceName ?? station.name, redistribution: station.grants.redistribution, commercial: station.grants.commercial } : null,
    plainPort: station.plainPort,
    allowFrom: station.allowFrom,
    connect: station.connect,
  };
}

function settingsLines(station: Station): string[] {
  const lines: string[] = [];
  if (station.shared) {
    const grants = [station.grants.redistribution ? "redistribution" : null, station.grants.commercial ? "commercial use" : null].filter((g) => g !== null);
    lines.push(`public as station:${station.id} "${station.sourceName ?? station.name}" (API use${grants.length > 0 ? `, ${grants.join(", ")}` : ""})`);
  }
  if (station.plainPort !== null) lines.push(`plain NMEA on UDP and TCP port ${station.plainPort}${station.allowFrom ? ` from ${station.allowFrom.join(", ")}` : " from any address"}`);
  else if (station.allowFrom) lines.push(`accepts senders from ${station.allowFrom.join(", ")}`);
  if (station.connect !== null) lines.push(`reads the receiver's TCP server at ${station.connect}`);
  return lines;
}

async function withPortErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof NoFreePlainPortError) throw new CliError(`--plain-port: ${e.message}`, EXIT_BAD_ARGUMENT);
    throw e;
  }
}

/**
 * `mds stations create --account <id> --name <name> [--public [--allow-redistribution]
 * [--allow-commercial] [--source-name <text>]] [--plain-port] [--allow-from <cidr,...>]
 * [--connect <host:port>] [--json]`: prints the id and the secret (shown once), and the
 * plain port when one was allocated.
 */
export async function stationsCreate(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs("stations create", argv, { account: { type: "string" }, name: { type: "string" }, ...SETTINGS });
  const account = str(values, "account");
  const name = str(values, "name");
  if (!account) throw new CliError("stations create needs --account <id>", EXIT_BAD_ARGUMENT);
  if (!name) throw new CliError("stations create needs --name <name>", EXIT_BAD_ARGUMENT);
  const settings = settingsFrom(values, "stations create");
  checkGrants("stations create", settings.shared === true, settings);
  await withServices(io, async (s) => {
    if (!(await s.services.accounts.getAccount(account))) throw new CliError(`--account ${account}: no such account`, EXIT_BAD_ARGUMENT);
    const { station, secret } = await withPortErrors(() => s.services.stations.createStation(account, name, settings));
    if (values.json) io.out(JSON.stringify(stationJson(station, secret)));
    else {
      io.out(`${station.id} ${secret}`);
      for (const line of settingsLines(station)) io.out(line);
    }
  });
}

/**
 * `mds stations update <id> [--public | --private] [--allow-redistribution | --deny-redistribution]
 * [--allow-commercial | --deny-commercial] [--source-name <text>] [--plain-port | --no-plain-port]
 * [--allow-from <cidr,...> | any] [--connect <host:port> | off] [--json]`. A running `serve`
 * picks the change up within seconds.
 */
export async function stationsUpdate(argv: string[], io: CliIo): Promise<void> {
  const { values, rest } = parseCommandArgs("stations update", argv, { ...SETTINGS, ...UNSETTINGS });
  const idText = rest[0];
  if (idText === undefined) throw new CliError("stations update needs the station id: mds stations update <id> [--public ...]", EXIT_BAD_ARGUMENT);
  if (rest.length > 1) throw new CliError(`stations update takes one station id; got ${rest.join(" ")}`, EXIT_BAD_ARGUMENT);
  const id = /^\d{1,10}$/.test(idText) ? Number(idText) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new CliError(`stations update ${idText}: a station id is a positive whole number`, EXIT_BAD_ARGUMENT);
  const settings = settingsFrom(values, "stations update");
  if (Object.keys(settings).length === 0) throw new CliError("stations update: nothing to change; give --public, --private, --plain-port, --allow-from, --connect or another setting", EXIT_BAD_ARGUMENT);
  await withServices(io, async (s) => {
    const current = await s.services.stations.getStation(id);
    if (!current) throw new CliError(`stations update ${id}: no such station`, EXIT_BAD_ARGUMENT);
    checkGrants("stations update", settings.shared ?? current.shared, settings);
    // Unsharing withdraws the grants too: sharing again later starts from API use only.
    const effective = settings.shared === false ? { redistribution: false, commercial: false, ...settings } : settings;
    const station = (await withPortErrors(() => s.services.stations.updateStation(id, effective)))!;
    if (values.json) io.out(JSON.stringify(stationJson(station)));
    else {
      io.out(`${station.id} ${station.name}: ${station.shared ? "public" : "private"}`);
      for (const line of settingsLines(station)) io.out(line);
    }
  });
}

/** `mds stations list --account <id> [--json]`: stations with their ingest counters and settings. */
export async function stationsList(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs("stations list", argv, { account: { type: "string" } });
  const account = str(values, "account");
  if (!account) throw new CliError("stations list needs --account <id>", EXIT_BAD_ARGUMENT);
  await withServices(io, async (s) => {
    const report = await stationsReport(s, account);
    const settings = new Map((await s.services.stations.listStations(account)).map((st) => [st.id, st]));
    if (values.json) {
      io.out(JSON.stringify(report.map((h) => {
        const st = settings.get(h.id);
        return st ? { ...h, ...stationJson(st), account: undefined } : h;
      })));
    } else {
      for (const h of report) {
        io.out(formatStation(h));
        const st = settings.get(h.id);
        if (st) for (const line of settingsLines(st)) io.out(`    ${line}`);
      }
    }
  });
}

/**
 * `mds stations rotate-secret --station <id> [--json]`: a new secret and UDP signing key for
 * the station, printed once; the old secret stops working (within the listeners' 30 s
 * station cache). Also how a station from before per-station UDP keys gets one.
 */
export async function stationsRotateSecret(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs("stations rotate-secret", argv, { station: { type: "string" } });
  const raw = str(values, "station");
  if (!raw) throw new CliError("stations rotate-secret needs --station <id>", EXIT_BAD_ARGUMENT);
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(id <= 2_147_483_647)) throw new CliError(`--station ${raw}: must be a station id (a whole number from 1)`, EXIT_BAD_ARGUMENT);
  await withServices(io, async (s) => {
    const rotated = await s.services.stations.rotateSecret(id);
    if (!rotated) throw new CliError(`--station ${raw}: no such station`, EXIT_BAD_ARGUMENT);
    const { station, secret } = rotated;
    io.out(values.json ? JSON.stringify({ id: station.id, secret, account: station.accountId, name: station.name }) : `${station.id} ${secret}`);
  });
}
