import { existsSync } from "node:fs";
import { DEMO_ACCOUNT } from "./demo.ts";
import { ingestStream, openInput, prepareSimulate } from "./station-tools.ts";
import { senderFor, startSimulator } from "../adapters/ingest/simulator/index.ts";
import { DATASETS_DIR } from "../main.ts";
import { parseCommandArgs, str } from "./arguments.ts";
import { CliError, EXIT_BAD_ARGUMENT } from "./cli-error.ts";
import { withServices } from "./context.ts";
import type { CliIo } from "./io.ts";
import { untilSignal } from "./signals.ts";

/** `mds ingest --station <id> [file|-]`: prints one JSON summary. */
export async function ingestCommand(argv: string[], io: CliIo): Promise<void> {
  const { values, rest } = parseCommandArgs("ingest", argv, { station: { type: "string" } });
  const station = str(values, "station");
  const id = Number(station);
  if (!station || !Number.isInteger(id) || id < 1) throw new CliError("ingest needs --station <id>", EXIT_BAD_ARGUMENT);
  const file = rest[0];
  if (file !== undefined && file !== "-" && !existsSync(file)) throw new CliError(`ingest: ${file}: no such file or directory`);
  await withServices(io, async (s) => {
    const summary = await ingestStream(s, id, openInput(file, io.stdin));
    io.out(JSON.stringify(summary));
  });
}

/** `mds simulate ...`: runs until interrupted, printing what was sent and acknowledged every 10 s on stderr. */
export async function simulateCommand(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs("simulate", argv, { station: { type: "string" }, secret: { type: "string" }, target: { type: "string" }, vessels: { type: "string" } });
  const args = { station: str(values, "station"), secret: str(values, "secret"), target: str(values, "target"), vessels: str(values, "vessels") };
  const plan = await prepareSimulate(args, () =>
    withServices(io, async (s) => {
      const accounts = s.services.accounts;
      const demo = (await accounts.findAccountByName(DEMO_ACCOUNT)) ?? (await accounts.createAccount({ name: DEMO_ACCOUNT, webPlan: "pro", apiPlan: null }));
      const { station, secret } = await s.services.stations.createStation(demo.id, "simulator");
      io.err(`created station ${station.id} on account ${demo.id} (${DEMO_ACCOUNT}); secret ${secret}`);
      return { id: station.id, secret };
    }),
  ).catch((e: unknown) => {
    // parseTarget's refusals name the option (`--target ...`); they are argument errors like prepareSimulate's own.
    throw e instanceof Error && !(e instanceof CliError) && /^--|give --/.test(e.message) ? new CliError(e.message, EXIT_BAD_ARGUMENT) : e;
  });
  const sender = senderFor(plan.target, plan.id, plan.secret, (m) => io.err(`simulate: ${m}`));
  const sim = startSimulator(sender, { datasetsDir: DATASETS_DIR, vessels: plan.vessels, stationTag: `station-${plan.id}` });
  io.err(`simulating station ${plan.id}: ${sim.fleet.size} vessels -> ${args.target ?? "tcp://127.0.0.1:5631"}`);
  const report = setInterval(() => io.err(`sent ${sender.sent()} lines, acknowledged ${sender.acknowledged()}, dropped ${sender.dropped()}`), 10_000);
  untilSignal(async () => {
    clearInterval(report);
    await sim.stop();
  });
}
