import { listCoverage } from "../domain/sanctions/coverage.ts";
import type { ServiceCore } from "../compose/services.ts";
import { parseCommandArgs } from "./arguments.ts";
import { CliError, EXIT_BAD_ARGUMENT } from "./cli-error.ts";
import { withServices } from "./context.ts";
import type { CliIo } from "./io.ts";

/** One list as `mds sanctions status` reports it. */
export interface SanctionsListStatus {
  list: string;
  listName: string;
  /** `current`, `stale`, `extract` or `missing`, as screening coverage says. */
  status: string;
  versionId: number | null;
  asOf: string | null;
  lastAttemptAt: string | null;
  /** `imported`, `unchanged` or `failed`; null: never fetched. */
  lastOutcome: string | null;
  lastError: string | null;
  lastSuccessAt: string | null;
  /** Active vessel designations in the stored version. */
  vessels: number;
  /** Where the stored version was read from: the last successful fetch, else the version's origin. */
  source: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export async function sanctionsStatus(core: ServiceCore): Promise<SanctionsListStatus[]> {
  const store = core.services.sanctions;
  const [states, fetches] = await Promise.all([store.listStates(), store.fetchStates()]);
  const now = core.services.clock.now();
  const out: SanctionsListStatus[] = [];
  for (const state of states) {
    const fetch = fetches.find((f) => f.list === state.list);
    const coverage = listCoverage(state, now, core.config.sanctionsStaleDays);
    const origin = state.versionId === null ? null : ((await store.versions(state.list)).find((v) => v.id === state.versionId)?.origin ?? null);
    // A success recorded before the stored version was written (an import with no fetch record since) is not its source.
    const fetchedSource = fetch?.succeededAt != null && state.importedAt !== null && fetch.succeededAt >= state.importedAt ? fetch.succeededSource : null;
    out.push({
      list: state.list,
      listName: coverage.listName,
      status: coverage.status,
      versionId: state.versionId,
      asOf: state.asOf,
      lastAttemptAt: iso(fetch?.attemptedAt ?? null),
      lastOutcome: fetch?.outcome ?? null,
      lastError: fetch?.error ?? null,
      lastSuccessAt: iso(fetch?.succeededAt ?? state.importedAt),
      vessels: state.active,
      source: fetchedSource ?? origin,
    });
  }
  return out;
}

/** One line per list, every field named, so it reads on a terminal and greps in a log. */
export function formatSanctionsStatus(s: SanctionsListStatus): string {
  const attempt = s.lastAttemptAt === null ? "never" : `${s.lastAttemptAt} (${s.lastOutcome}${s.lastError ? `: ${s.lastError}` : ""})`;
  return [
    `${s.list}: ${s.status.toUpperCase()}`,
    `version ${s.versionId ?? "none"}`,
    `as of ${s.asOf ?? "-"}`,
    `last attempt ${attempt}`,
    `last success ${s.lastSuccessAt ?? "never"}`,
    `${s.vessels} vessels`,
    `source ${s.source ?? "none"}`,
  ].join("; ");
}

/** `mds sanctions status [--json]`: what each list holds and how its fetching goes. */
export async function sanctionsStatusCommand(argv: string[], io: CliIo): Promise<void> {
  const { values, rest } = parseCommandArgs("sanctions status", argv, {});
  if (rest.length > 0) throw new CliError(`sanctions status takes no argument, got ${rest.join(" ")}`, EXIT_BAD_ARGUMENT);
  await withServices(io, async (core) => {
    const report = await sanctionsStatus(core);
    if (values.json) io.out(JSON.stringify(report));
    else for (const s of report) io.out(formatSanctionsStatus(s));
  });
}
