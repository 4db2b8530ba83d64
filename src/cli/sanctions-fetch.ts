import { SanctionsRefresher } from "../adapters/importers/sanctions-refresh.ts";
import type { ListOutcome } from "../adapters/importers/sanctions-import.ts";
import { describeImport } from "../adapters/importers/sanctions-import.ts";
import type { ServiceCore } from "../compose/services.ts";
import { withJobLock } from "../adapters/storage/job-lock.ts";
import type { ListCoverage } from "../domain/sanctions/coverage.ts";
import type { CliIo } from "./io.ts";
import { downloadBars } from "./sanctions-progress.ts";

type Log = { info(message: string): void; error(message: string): void };

function hours(ms: number): string {
  return ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${Math.round(ms / 60_000)} min`;
}

/**
 * What `serve` prints once its first fetch round is over: per list, what was stored, or
 * loudly what failed and what screening does about it.
 */
export function fetchOutcomeLines(outcomes: readonly ListOutcome[], coverage: readonly ListCoverage[]): string[] {
  return outcomes.map((o) => {
    if (o.status === "imported") return `sanctions: ${describeImport(o.result)}`;
    const c = coverage.find((x) => x.list === o.list);
    const missing = !c || c.status === "missing";
    if (o.status === "skipped") return `sanctions: ${o.list} not fetched: ${o.reason}${missing ? "; it stays MISSING" : ""}`;
    const after = missing
      ? "it stays MISSING: screening will not call any vessel clear against it"
      : `the stored version as of ${c.asOf} stays${c.status === "extract" ? " (a dated EXTRACT)" : ""}`;
    return `sanctions: ${o.list} FETCH FAILED: ${o.error.message}; ${after}; retried later`;
  });
}

/**
 * Starts `serve`'s sanctions fetching: every list that is due now, from its official
 * publication (or SANCTIONS_SOURCES), then every SANCTIONS_REFRESH. It never holds up the
 * server: the first round runs in the background and prints its outcome when done.
 * Returns null when SANCTIONS_REFRESH=off.
 */
export function startSanctionsFetching(core: ServiceCore, io: CliIo, log: Log, coverageNow: () => Promise<ListCoverage[]>): SanctionsRefresher | null {
  const intervalMs = core.config.sanctionsRefreshMs;
  if (intervalMs === null) {
    io.out("sanctions: automatic fetching is off (SANCTIONS_REFRESH=off); load the lists with `npx mds import sanctions --all`");
    return null;
  }
  io.out(`sanctions: fetching the lists that are due from their official publications in the background, then every ${hours(intervalMs)} (SANCTIONS_REFRESH)`);
  const refresher = new SanctionsRefresher(core.services, {
    intervalMs,
    sources: core.config.sanctionsSources,
    timeoutMs: core.config.sanctionsFetchTimeoutMs,
    log,
    progressFor: (list) => downloadBars(io.stderrIsTTY, list),
    // Every worker runs this: one fetches a list, the others wait and then find it fetched.
    exclusive: async (job, run) => (await withJobLock(core.store, job, true, run))!,
  });
  void refresher
    .start()
    .then(async (outcomes) => {
      for (const line of fetchOutcomeLines(outcomes, await coverageNow())) io.out(line);
    })
    .catch((e: unknown) => log.error(`sanctions: reporting the first fetch failed: ${e instanceof Error ? e.message : String(e)}`));
  return refresher;
}
