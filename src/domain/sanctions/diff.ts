/**
 * Diff of two versions of one sanctions list, keyed by the list's own record id.
 * Names and IMOs change under a stable record id (OFAC renames, IMO typo fixes),
 * so they are compared as attributes of a record, never used as its key.
 */
import type { Designation, SanctionsListKey } from "./designation.ts";
import { measureKey } from "./measures.ts";

/** Fields whose change a compliance user is told about. */
export const TRACKED_FIELDS = [
  "imo",
  "invalidImo",
  "mmsi",
  "name",
  "aliases",
  "formerNames",
  "flag",
  "callSign",
  "program",
  "vesselType",
  "owners",
  "measures",
  "listedAt",
] as const;
export type TrackedField = (typeof TRACKED_FIELDS)[number];

export type SetChange<T> = { added: T[]; removed: T[] };

export type DesignationChange = {
  recordId: string;
  previous: Designation;
  current: Designation;
  /** Every tracked field that differs, in TRACKED_FIELDS order. */
  fields: TrackedField[];
  /** Set when the checksum-valid IMOs differ. */
  imo: SetChange<number> | null;
  /** Set when the MMSIs differ (reflagging changes the MMSI). */
  mmsi: SetChange<number> | null;
  /** Set when the published name differs. */
  name: { from: string; to: string } | null;
};

export type DesignationDiff = {
  list: SanctionsListKey | null;
  /** Records active now that were absent or deleted before. */
  listed: Designation[];
  /**
   * Records active before that are gone now: the previous record when it vanished,
   * or the current one when the list marks it deleted in the file (NZ), so its
   * deletion date and reason travel with it.
   */
  delisted: Designation[];
  changed: DesignationChange[];
  unchangedCount: number;
  previousActiveCount: number;
  currentActiveCount: number;
};

function isActive(d: Designation): boolean {
  return d.status === "active";
}

function indexByRecordId(designations: readonly Designation[], which: string): Map<string, Designation> {
  const map = new Map<string, Designation>();
  for (const d of designations) {
    if (map.has(d.recordId)) {
      throw new Error(`${which} version of the ${d.list} list has record id ${d.recordId} twice; a list version must have unique record ids`);
    }
    map.set(d.recordId, d);
  }
  return map;
}

function listOf(previous: readonly Designation[], current: readonly Designation[]): SanctionsListKey | null {
  const lists = new Set([...previous, ...current].map((d) => d.list));
  if (lists.size > 1) {
    throw new Error(`cannot diff designations of different lists (${[...lists].join(", ")}); diff one list at a time`);
  }
  const [list] = lists;
  return list ?? null;
}

function setChange<T>(before: readonly T[], after: readonly T[]): SetChange<T> | null {
  const b = new Set(before);
  const a = new Set(after);
  const added = [...a].filter((x) => !b.has(x));
  const removed = [...b].filter((x) => !a.has(x));
  return added.length === 0 && removed.length === 0 ? null : { added, removed };
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  const norm = (xs: readonly string[]) => [...new Set(xs.map((x) => x.toLowerCase()))].sort().join("\u0000");
  return norm(a) === norm(b);
}

/** Programmes as a set: the display string joins them in published order, which is not a change. */
function programTerms(d: Designation): string[] {
  return [...d.programs, ...(d.program ?? "").split(/;\s*/)].filter((s) => s !== "");
}

function changedFields(p: Designation, c: Designation): TrackedField[] {
  const differs: Record<TrackedField, boolean> = {
    imo: setChange(p.imos, c.imos) !== null,
    invalidImo: !sameStrings(p.invalidImos, c.invalidImos),
    mmsi: setChange(p.mmsis, c.mmsis) !== null,
    name: p.name !== c.name,
    aliases: !sameStrings(p.aliases, c.aliases),
    formerNames: !sameStrings(p.formerNames, c.formerNames),
    flag: (p.flag ?? "") !== (c.flag ?? ""),
    callSign: (p.callSign ?? "") !== (c.callSign ?? ""),
    program: !sameStrings(programTerms(p), programTerms(c)),
    vesselType: (p.vesselType ?? "") !== (c.vesselType ?? ""),
    owners: !sameStrings(p.owners, c.owners),
    // Words and legal basis, not the shape: a record stored as plain texts reads as objects (readStoredDesignation).
    measures: !sameStrings(p.measures.map(measureKey), c.measures.map(measureKey)),
    listedAt: p.listedAt !== c.listedAt,
  };
  return TRACKED_FIELDS.filter((f) => differs[f]);
}

/** Compares the current version of a list with the previous accepted one. */
export function diffDesignations(previous: readonly Designation[], current: readonly Designation[]): DesignationDiff {
  const list = listOf(previous, current);
  const before = indexByRecordId(previous, "the previous");
  const after = indexByRecordId(current, "the new");
  const listed: Designation[] = [];
  const delisted: Designation[] = [];
  const changed: DesignationChange[] = [];
  let unchangedCount = 0;

  for (const [recordId, c] of after) {
    const p = before.get(recordId);
    const wasActive = p !== undefined && isActive(p);
    if (!isActive(c)) {
      if (wasActive) delisted.push(c);
      continue;
    }
    if (!wasActive) {
      listed.push(c);
      continue;
    }
    const fields = changedFields(p, c);
    if (fields.length === 0) {
      unchangedCount++;
      continue;
    }
    changed.push({
      recordId,
      previous: p,
      current: c,
      fields,
      imo: setChange(p.imos, c.imos),
      mmsi: setChange(p.mmsis, c.mmsis),
      name: p.name === c.name ? null : { from: p.name, to: c.name },
    });
  }
  for (const [recordId, p] of before) {
    if (isActive(p) && !after.has(recordId)) delisted.push(p);
  }

  return {
    list,
    listed,
    delisted,
    changed,
    unchangedCount,
    previousActiveCount: [...before.values()].filter(isActive).length,
    currentActiveCount: [...after.values()].filter(isActive).length,
  };
}

export const DEFAULT_MAX_DELISTED_SHARE = 0.2;
/** Small lists may lose this many records regardless of the share (a list of 4 can lose 1). */
export const DEFAULT_DELISTING_FLOOR = 5;

export type DelistingGuardOptions = {
  /** Largest share (0..1) of the previously active records one import may delist. */
  maxDelistedShare?: number;
  /** Delistings always allowed, whatever the share, so tiny lists can change at all. */
  floor?: number;
  /** Accept a version with no active record at all when the previous had some. */
  allowEmpty?: boolean;
};

export type DelistingGuardVerdict = {
  ok: boolean;
  delisted: number;
  previousActive: number;
  /** Most delistings the options allow for this previous size. */
  allowed: number;
  /** delisted / previousActive (0 when there was nothing before). */
  share: number;
  message: string;
};

export class DelistingGuardError extends Error {
  readonly verdict: DelistingGuardVerdict;

  constructor(verdict: DelistingGuardVerdict) {
    super(verdict.message);
    this.name = "DelistingGuardError";
    this.verdict = verdict;
  }
}

function percent(share: number): string {
  return `${(share * 100).toFixed(share < 0.1 && share > 0 ? 1 : 0)}%`;
}

/**
 * Decides whether a diff may be committed. A failed or truncated download looks
 * exactly like a mass de-listing (OFAC's scrape history has two 0-byte sdn.csv
 * versions), so a large drop is refused until someone confirms it.
 */
export function checkDelistingGuard(diff: DesignationDiff, options: DelistingGuardOptions = {}): DelistingGuardVerdict {
  const maxShare = options.maxDelistedShare ?? DEFAULT_MAX_DELISTED_SHARE;
  const floor = options.floor ?? DEFAULT_DELISTING_FLOOR;
  if (!(maxShare >= 0 && maxShare <= 1)) throw new RangeError(`maxDelistedShare must be between 0 and 1, got ${maxShare}`);
  if (!(Number.isInteger(floor) && floor >= 0)) throw new RangeError(`floor must be a whole number >= 0, got ${floor}`);

  const list = diff.list ?? "sanctions";
  const previousActive = diff.previousActiveCount;
  const delisted = diff.delisted.length;
  const allowed = Math.max(floor, Math.floor(maxShare * previousActive));
  const share = previousActive === 0 ? 0 : delisted / previousActive;
  const base = { delisted, previousActive, allowed, share };

  if (diff.currentActiveCount === 0 && previousActive > 0 && !options.allowEmpty) {
    return {
      ...base,
      ok: false,
      message:
        `refusing the ${list} import: the new version has no active vessel designation while the previous had ${previousActive}; ` +
        "an empty, failed or truncated download is the usual cause. Check the publication; accept it only with allowEmpty.",
    };
  }
  if (delisted > allowed) {
    return {
      ...base,
      ok: false,
      message:
        `refusing the ${list} import: it would delist ${delisted} of ${previousActive} active vessel designations (${percent(share)}), ` +
        `more than the ${percent(maxShare)} allowed (at most ${allowed}). A partial or wrong file is the usual cause; ` +
        "check the publication, then raise maxDelistedShare for this import if the de-listings are real.",
    };
  }
  return { ...base, ok: true, message: `${list}: ${delisted} of ${previousActive} delisted (${percent(share)}), within the limit of ${allowed}` };
}

/** Throws DelistingGuardError when checkDelistingGuard refuses the diff. */
export function assertDelistingGuard(diff: DesignationDiff, options: DelistingGuardOptions = {}): DelistingGuardVerdict {
  const verdict = checkDelistingGuard(diff, options);
  if (!verdict.ok) throw new DelistingGuardError(verdict);
  return verdict;
}
