import { formatStation, stationsReport } from "./station-tools.ts";
import { parseCommandArgs, str } from "./arguments.ts";
import { CliError, EXIT_BAD_ARGUMENT } from "./cli-error.ts";
import { withServices } from "./context.ts";
import type { CliIo } from "./io.ts";

/** `mds stations create --account <id> --name <name> [--json]`: prints the id and the secret (shown once). */
export async function stationsCreate(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs("stations create", argv, { account: { type: "string" }, name: { type: "string" } });
  const account = str(values, "account");
  const name = str(values, "name");
  if (!account) throw new CliError("stations create needs --account <id>", EXIT_BAD_ARGUMENT);
  if (!name) throw new CliError("stations create needs --name <name>", EXIT_BAD_ARGUMENT);
  await withServices(io, async (s) => {
    if (!(await s.services.accounts.getAccount(account))) throw new CliError(`--account ${account}: no such account`, EXIT_BAD_ARGUMENT);
    const { station, secret } = await s.services.stations.createStation(account, name);
    io.out(values.json ? JSON.stringify({ id: station.id, secret, account: station.accountId, name: station.name }) : `${station.id} ${secret}`);
  });
}

/** `mds stations list --account <id> [--json]`: stations with their ingest counters. */
export async function stationsList(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs("stations list", argv, { account: { type: "string" } });
  const account = str(values, "account");
  if (!account) throw new CliError("stations list needs --account <id>", EXIT_BAD_ARGUMENT);
  await withServices(io, async (s) => {
    const report = await stationsReport(s, account);
    if (values.json) io.out(JSON.stringify(report));
    else for (const h of report) io.out(formatStation(h));
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
