import { compact } from "../adapters/archive/compact.ts";
import { parseCommandArgs } from "./arguments.ts";
import { withServices } from "./context.ts";
import type { CliIo } from "./io.ts";

/** `mds migrate`: opening the store brings its schema up to date. */
export async function migrateCommand(argv: string[], io: CliIo): Promise<void> {
  parseCommandArgs("migrate", argv, {});
  await withServices(io, async () => io.out("schema is up to date"));
}

/** `mds compact`: the vessel registry refresh and the archive compaction that `serve` runs on a timer. */
export async function compactCommand(argv: string[], io: CliIo): Promise<void> {
  parseCommandArgs("compact", argv, {});
  await withServices(io, async (s) => {
    const registry = await s.services.vessels.refresh(s.services.clock.now());
    io.err(`vessel registry: ${registry.aisIdentities} AIS identities and ${registry.sanctionsDesignations} sanctions designations linked`);
    const r = await compact(s.tracks, s.archive, s.services.clock.now());
    io.out(JSON.stringify(r));
  });
}
