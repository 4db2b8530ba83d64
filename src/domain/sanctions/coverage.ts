/**
 * What a screening answer actually checked: per list, whether it was loaded, from what
 * kind of publication, as of when, and whether it is stale. A compliance user reads "no
 * match" as "clear", so a no-match is called `clear` only when every requested list was
 * checked in full; otherwise its certainty is `incomplete`, and the answer says why in words.
 */
import { SANCTIONS_LIST_NAMES, type SanctionsListKey } from "./designation.ts";

/** A list not imported successfully for this many days is stale (SANCTIONS_STALE_DAYS). */
export const DEFAULT_STALE_AFTER_DAYS = 8;

const DAY_MS = 86_400_000;

/** The latest version of a list as coverage needs it (nulls: never imported). */
export interface ListStateForCoverage {
  list: SanctionsListKey;
  asOf: string | null;
  importedAt: number | null;
  active: number;
  extract: boolean;
}

/**
 * `missing`: never loaded, nothing was checked; `extract`: a dated excerpt, a match is real
 * but a no-match says nothing; `stale`: the full list, but its last successful import is
 * older than the threshold; `current`: the full list, recently imported.
 */
export type CoverageStatus = "current" | "stale" | "extract" | "missing";

export interface ListCoverage {
  list: SanctionsListKey;
  listName: string;
  status: CoverageStatus;
  /** The day the version stands for (yyyy-mm-dd), null when never loaded. */
  asOf: string | null;
  /** Last successful import (ISO 8601 timestamp), null when never loaded. */
  importedAt: string | null;
  /** `list`: the publication itself; `extract`: a dated excerpt of it; null: never loaded. */
  kind: "list" | "extract" | null;
  extract: boolean;
  stale: boolean;
  activeDesignations: number;
}

/** Whether a version of the list was ever imported (a list never loaded has no as-of date and no import time). */
export function isLoaded(state: Pick<ListStateForCoverage, "importedAt" | "asOf">): boolean {
  return state.importedAt !== null && state.asOf !== null;
}

export function listCoverage(state: ListStateForCoverage, now: number, staleAfterDays: number): ListCoverage {
  const loaded = isLoaded(state);
  const stale = loaded && now - state.importedAt! > staleAfterDays * DAY_MS;
  const status: CoverageStatus = !loaded ? "missing" : state.extract ? "extract" : stale ? "stale" : "current";
  return {
    list: state.list,
    listName: SANCTIONS_LIST_NAMES[state.list],
    status,
    asOf: state.asOf,
    importedAt: loaded ? new Date(state.importedAt!).toISOString() : null,
    kind: loaded ? (state.extract ? "extract" : "list") : null,
    extract: loaded && state.extract,
    stale,
    activeDesignations: state.active,
  };
}

/** True when at least one list could be checked at all. */
export function anyListChecked(coverage: readonly ListCoverage[]): boolean {
  return coverage.some((c) => c.status !== "missing");
}

/**
 * Whether a vessel with no active designation may be called not sanctioned: only when every
 * requested list was checked in full (a stale list is still the full list, and is marked).
 */
export function noMatchIsClear(coverage: readonly ListCoverage[]): boolean {
  return coverage.every((c) => c.status === "current" || c.status === "stale");
}

/**
 * How far a no-match may be trusted: `match` (an active designation on a checked list matched,
 * so `sanctioned` is true), `clear` (no match, and every requested list was checked in full),
 * `incomplete` (no match on the lists checked, but some requested list was held only as an
 * extract, never loaded, or withheld from this caller: `sanctioned` false says only "not on
 * the lists checked").
 */
export type ScreeningCertainty = "match" | "clear" | "incomplete";

/** The requested lists by how they were checked for one caller: in full, as extracts, or not at all. */
export interface ListsChecked {
  full: SanctionsListKey[];
  extract: SanctionsListKey[];
  notChecked: SanctionsListKey[];
}

/**
 * Sorts the requested lists by how they were checked. A list whose designations this caller
 * may not be shown is not checked for this caller: a match on it could not be shown, so a
 * no-match over the other lists must not read as covering it.
 */
export function listsChecked(coverage: readonly ListCoverage[], visible: (list: SanctionsListKey) => boolean): ListsChecked {
  const out: ListsChecked = { full: [], extract: [], notChecked: [] };
  for (const c of coverage) {
    if (c.status === "missing" || !visible(c.list)) out.notChecked.push(c.list);
    else if (c.status === "extract") out.extract.push(c.list);
    else out.full.push(c.list);
  }
  return out;
}

/** The certainty of one vessel's answer, from whether it matched and how the lists were checked. */
export function screeningCertainty(matched: boolean, checked: ListsChecked): ScreeningCertainty {
  if (matched) return "match";
  return checkedInFull(checked) ? "clear" : "incomplete";
}

/** Every requested list was checked in full for this caller: a no-match is then a clear. */
export function checkedInFull(checked: ListsChecked): boolean {
  return checked.extract.length === 0 && checked.notChecked.length === 0;
}

/** The coverage in plain words, for people and assistants reading an answer. */
export function coverageInWords(coverage: readonly ListCoverage[], withheld: readonly SanctionsListKey[] = []): string {
  const withheldLoaded = coverage.filter((c) => c.status !== "missing" && withheld.includes(c.list));
  const by = (s: CoverageStatus) => coverage.filter((c) => c.status === s && !withheldLoaded.includes(c));
  const names = (cs: readonly ListCoverage[]) => cs.map((c) => `${c.list} (as of ${c.asOf})`).join(", ");
  const parts: string[] = [];
  const full = [...by("current"), ...by("stale")];
  if (full.length > 0) parts.push(`Checked against: ${names(full)}.`);
  if (by("stale").length > 0) parts.push(`STALE (not updated for over the threshold; may miss recent designations): ${by("stale").map((c) => c.list).join(", ")}.`);
  if (by("extract").length > 0) {
    parts.push(`EXTRACT ONLY, not the full list: ${names(by("extract"))}; a match there is real, but no match there does not clear a vessel.`);
  }
  if (by("missing").length > 0) parts.push(`NOT CHECKED, never loaded: ${by("missing").map((c) => c.list).join(", ")}.`);
  if (withheldLoaded.length > 0) {
    parts.push(`NOT CHECKED for this caller, withheld (the list's terms do not cover this use): ${withheldLoaded.map((c) => c.list).join(", ")}.`);
  }
  parts.push(
    noMatchIsClear(coverage) && withheldLoaded.length === 0
      ? "A vessel with sanctioned=false has no active designation on these lists as of these dates (certainty: clear)."
      : "Not every requested list was checked in full, so sanctioned=false means only \"no active designation on the lists checked\" (certainty: incomplete), NOT that the vessel is clear.",
  );
  return parts.join(" ");
}

/**
 * The lines `mds serve` prints about the lists at start, one per list that is missing, stale
 * or only an extract; none when every list is held in full and current.
 */
export function coverageStartLines(coverage: readonly ListCoverage[]): string[] {
  return coverage.flatMap((c) => {
    switch (c.status) {
      case "missing":
        return [`sanctions: ${c.list} MISSING (never loaded): screening will not call any vessel clear against it; load it with \`npx mds import sanctions ${c.list}\``];
      case "stale":
        return [`sanctions: ${c.list} STALE: last successful import ${c.importedAt} (as of ${c.asOf}); answers mark it stale`];
      case "extract":
        return [`sanctions: ${c.list} is a dated EXTRACT as of ${c.asOf}, not the current list: matches are real, a no-match clears nothing`];
      default:
        return [];
    }
  });
}
