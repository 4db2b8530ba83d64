/**
 * Imports of sanctions lists: read the publication, parse it, and store it as the
 * list's next version (diff, delisting guard, history and events in one transaction).
 * The parsers live in ./sanctions/; this file only orchestrates.
 */
import type { VesselStore } from "../../interfaces/vessels.ts";
import { createHash } from "node:crypto";
import { isSanctionsListKey, SANCTIONS_LISTS, type SanctionsListKey } from "../../domain/sanctions/designation.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { CompanyStore } from "../../interfaces/companies.ts";
import { companiesFromSanctions } from "../../domain/companies/from-sanctions.ts";
import { SanctionsImportError, type SanctionsImportResult, type SanctionsStore } from "../../interfaces/sanctions.ts";
import { OFFICIAL_SANCTIONS_SOURCES, parseListedCompanies, parseSanctionsList, type SourceFile, withSanctionsSources } from "./sanctions/index.ts";
import { fileChunks } from "./sanctions/chunks.ts";
import { sizeOf } from "./sanctions/common.ts";
import type { ReadSourcesOptions } from "./sanctions/source.ts";

export interface SanctionsImportOptions {
  /** The day the version stands for (yyyy-mm-dd); default today (UTC) by the clock. */
  asOf?: string;
  /** Largest share of active designations one import may delist (default 0.2, see diff.ts). */
  maxDelistedShare?: number;
  onWarning?: (message: string) => void;
  /** The files are a dated extract of the list (the demo's samples), not the list as published. */
  extract?: boolean;
  /** Deadline and progress of the downloads of URL sources. */
  download?: ReadSourcesOptions;
}

export interface SanctionsImportDeps {
  sanctions: SanctionsStore;
  clock: Clock;
  /** When given, the list's companies (designated ones, and ships' owners and "Linked To:") are replaced too. */
  companies?: CompanyStore;
  /**
   * When given, the new version is linked into the vessel registry as soon as it is stored, so
   * every process's vessel answers know the listed ships at once, not at the next refresh.
   */
  vessels?: Pick<VesselStore, "linkSanctions">;
}

/** Per-list sources an operator configured (SANCTIONS_SOURCES), overriding the official ones. */
export type ConfiguredSanctionsSources = Partial<Record<SanctionsListKey, readonly string[]>>;

function checkList(list: string): SanctionsListKey {
  if (!isSanctionsListKey(list)) throw new SanctionsImportError(`unknown sanctions list "${list}"; expected one of ${SANCTIONS_LISTS.join(", ")}`);
  return list;
}

function checkAsOf(asOf: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(asOf);
  const valid = m !== null && new Date(`${asOf}T00:00:00Z`).toISOString().slice(0, 10) === asOf;
  if (!valid) throw new SanctionsImportError(`as-of date "${asOf}" is not a calendar date in the form yyyy-mm-dd`);
  return asOf;
}

/** One checksum over the files in name order, so the same publication always gives the same sum; files on disk are read as streams. */
async function checksumOf(files: readonly SourceFile[]): Promise<string> {
  const h = createHash("sha256");
  for (const f of [...files].sort((a, b) => a.name.localeCompare(b.name))) {
    h.update(`${f.name}\u0000${sizeOf(f)}\u0000`);
    for await (const chunk of fileChunks(f)) h.update(chunk);
  }
  return h.digest("hex");
}

/**
 * Parses already-read files as one version of a list and stores it. A parse error
 * (empty, truncated, wrong file), a version with no active vessel, or the delisting
 * guard refuses the import before anything is written.
 */
export async function importSanctionsFiles(
  deps: SanctionsImportDeps,
  listName: string,
  files: readonly SourceFile[],
  origin: string,
  options: SanctionsImportOptions = {},
): Promise<SanctionsImportResult> {
  const list = checkList(listName);
  const asOf = checkAsOf(options.asOf ?? new Date(deps.clock.now()).toISOString().slice(0, 10));
  const designations = await parseSanctionsList(list, [...files], { onWarning: options.onWarning });
  if (!designations.some((d) => d.status === "active")) {
    throw new SanctionsImportError(`refusing the ${list} import: ${origin} holds no active vessel designation; an empty or wrong file is the usual cause`);
  }
  const result = await deps.sanctions.importVersion({
    list,
    designations,
    asOf,
    origin,
    checksum: await checksumOf(files),
    bytes: files.reduce((n, f) => n + sizeOf(f), 0),
    importedAt: deps.clock.now(),
    guard: options.maxDelistedShare === undefined ? undefined : { maxDelistedShare: options.maxDelistedShare },
    extract: options.extract === true,
  });
  // After the version is stored (the guard may refuse it): the list's companies follow its latest version.
  if (deps.companies) {
    const listed = await parseListedCompanies(list, [...files]);
    await deps.companies.replaceSource(list, companiesFromSanctions(list, designations, listed.companies, listed.people));
  }
  await deps.vessels?.linkSanctions(deps.clock.now());
  return result;
}

/** Reads files, directories or URLs (see withSanctionsSources) and imports them as one version of the list. */
export async function importSanctions(
  deps: SanctionsImportDeps,
  listName: string,
  pathsOrUrls: readonly string[],
  options: SanctionsImportOptions = {},
): Promise<SanctionsImportResult> {
  const list = checkList(listName);
  if (pathsOrUrls.length === 0) throw new SanctionsImportError(`no source given for the ${list} list: name files, a directory or URLs`);
  return withSanctionsSources(pathsOrUrls, options.download ?? {}, (files) => importSanctionsFiles(deps, list, files, pathsOrUrls.join(", "), options));
}

/**
 * Imports a list and records the attempt (its outcome, error and source) whatever happens,
 * so `mds sanctions status` can tell a list that keeps failing from one never tried.
 */
export async function importSanctionsRecorded(
  deps: SanctionsImportDeps,
  list: SanctionsListKey,
  sources: readonly string[],
  options: SanctionsImportOptions = {},
): Promise<SanctionsImportResult> {
  const attemptedAt = deps.clock.now();
  const source = sources.join(", ");
  try {
    const result = await importSanctions(deps, list, sources, options);
    await deps.sanctions.recordFetch({ list, attemptedAt, outcome: result.samePublication ? "unchanged" : "imported", error: null, source });
    return result;
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    await deps.sanctions.recordFetch({ list, attemptedAt, outcome: "failed", error, source });
    throw e;
  }
}

/** Where `--all` and the scheduler read a list from: the configured sources, else the official ones. */
export function sourcesFor(list: SanctionsListKey, configured: ConfiguredSanctionsSources = {}): readonly string[] {
  return configured[list] ?? OFFICIAL_SANCTIONS_SOURCES[list];
}

export type ListOutcome =
  | { list: SanctionsListKey; status: "imported"; result: SanctionsImportResult }
  | { list: SanctionsListKey; status: "skipped"; reason: string }
  | { list: SanctionsListKey; status: "failed"; error: Error };

/**
 * Re-imports every list that has a source. One list failing (a download error, the
 * guard) does not stop the others; each outcome is reported.
 */
export async function importAllSanctions(
  deps: SanctionsImportDeps,
  configured: ConfiguredSanctionsSources = {},
  options: Omit<SanctionsImportOptions, "asOf"> = {},
  lists: readonly SanctionsListKey[] = SANCTIONS_LISTS,
): Promise<ListOutcome[]> {
  const outcomes: ListOutcome[] = [];
  for (const list of lists) {
    const sources = sourcesFor(list, configured);
    if (sources.length === 0) {
      outcomes.push({ list, status: "skipped", reason: `no source: the ${list} list has no official machine-readable file; configure one in SANCTIONS_SOURCES` });
      continue;
    }
    try {
      outcomes.push({ list, status: "imported", result: await importSanctionsRecorded(deps, list, sources, options) });
    } catch (e) {
      outcomes.push({ list, status: "failed", error: e instanceof Error ? e : new Error(String(e)) });
    }
  }
  return outcomes;
}

/** One line per import for logs and the command line. */
export function describeImport(r: SanctionsImportResult): string {
  if (r.samePublication) return `${r.list}: same publication as version ${r.versionId}, nothing changed; confirmed as of ${r.asOf} (${r.active} active)`;
  return (
    `${r.list}: version ${r.versionId} as of ${r.asOf}${r.baseline ? " (first version)" : ""}: ${r.records} records, ${r.active} active; ` +
    `${r.listed} listed, ${r.delisted} delisted, ${r.changed} changed, ${r.unchanged} unchanged; ${r.events} events`
  );
}

/** Bad command-line usage of `import sanctions` (the command line exits 2 on it). */
export class SanctionsUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SanctionsUsageError";
  }
}

export interface SanctionsImportCommand {
  /** The positionals after `import sanctions`: a list, then files, directories or URLs. */
  args: readonly string[];
  all: boolean;
  asOf?: string;
  maxDelistedShare?: string;
  configured?: ConfiguredSanctionsSources;
  /** Deadline and progress of each list's downloads. */
  download?: (list: SanctionsListKey) => ReadSourcesOptions;
}

/**
 * `mds import sanctions <list> [file|dir|url ...]` and `mds import sanctions --all`.
 * Without files a list is read from its configured or official sources. Reports one
 * line per list; returns false when any list was not imported.
 */
export async function runSanctionsImportCommand(deps: SanctionsImportDeps, cmd: SanctionsImportCommand, write: (line: string) => void): Promise<boolean> {
  let maxDelistedShare: number | undefined;
  if (cmd.maxDelistedShare !== undefined) {
    maxDelistedShare = Number(cmd.maxDelistedShare);
    if (!(cmd.maxDelistedShare.trim() !== "" && maxDelistedShare >= 0 && maxDelistedShare <= 1)) {
      throw new SanctionsUsageError(`--max-delisted-share ${cmd.maxDelistedShare}: must be a number from 0 to 1 (a share of the active designations)`);
    }
  }
  if (cmd.all) {
    if (cmd.args.length > 0) throw new SanctionsUsageError("import sanctions --all takes no list or file: it reads every list from its configured or official sources");
    if (cmd.asOf !== undefined) throw new SanctionsUsageError("--as-of names one list's version; it cannot be used with --all");
    const outcomes: ListOutcome[] = [];
    for (const list of SANCTIONS_LISTS) {
      const options = { maxDelistedShare, onWarning: (m: string) => write(`warning: ${m}`), download: cmd.download?.(list) };
      outcomes.push(...(await importAllSanctions(deps, cmd.configured ?? {}, options, [list])));
    }
    for (const o of outcomes) {
      if (o.status === "imported") write(describeImport(o.result));
      else if (o.status === "skipped") write(`${o.list}: skipped, ${o.reason}`);
      else write(`${o.list}: not imported, nothing changed: ${o.error.message}`);
    }
    return outcomes.every((o) => o.status !== "failed");
  }
  const [list, ...files] = cmd.args;
  if (!list) throw new SanctionsUsageError(`import sanctions needs a list (${SANCTIONS_LISTS.join(", ")}) or --all`);
  if (!isSanctionsListKey(list)) throw new SanctionsUsageError(`import sanctions ${list}: unknown list; use one of ${SANCTIONS_LISTS.join(", ")}`);
  const sources = files.length > 0 ? files : sourcesFor(list, cmd.configured);
  if (sources.length === 0) throw new SanctionsUsageError(`the ${list} list has no official machine-readable file: name the files to import, or configure them in SANCTIONS_SOURCES`);
  try {
    const options = { asOf: cmd.asOf, maxDelistedShare, onWarning: (m: string) => write(`warning: ${m}`), download: cmd.download?.(list) };
    write(describeImport(await importSanctionsRecorded(deps, list, sources, options)));
    return true;
  } catch (e) {
    write(`${list}: not imported, nothing changed: ${e instanceof Error ? e.message : String(e)}`);
    return false;
  }
}
