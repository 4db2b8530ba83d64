import { blockingSources, CallerRights } from "./caller-rights.ts";
import type { Decision, RightsPrincipal, Use } from "./decide.ts";
import type { SourceRegistry } from "./source.ts";

/**
 * A part of a response that rests on sources. Operations build their answers with these
 * markers; the rights filter of the pipeline then keeps or withholds each one, so no
 * operation decides rights by itself.
 */
const SOURCED = Symbol("sourced");

export interface Sourced<T = unknown> {
  readonly [SOURCED]: true;
  readonly section: string;
  readonly sources: readonly string[];
  readonly value: T;
  /** When withheld: `omit` drops the key (or the array element), `null` keeps the key with null. */
  readonly whenWithheld: "omit" | "null";
  /** Count withheld rows in the entry (track points, search hits, list rows). */
  readonly countRows: boolean;
  /** The value holds no sourced parts of its own, so the filter need not walk into it. */
  readonly leaf: boolean;
}

export function sourced<T>(
  section: string,
  sources: readonly string[],
  value: T,
  options: { whenWithheld?: "omit" | "null"; countRows?: boolean; leaf?: boolean } = {},
): Sourced<T> {
  return {
    [SOURCED]: true,
    section,
    sources,
    value,
    whenWithheld: options.whenWithheld ?? "omit",
    countRows: options.countRows ?? false,
    leaf: options.leaf ?? false,
  };
}

function isSourced(v: unknown): v is Sourced {
  return typeof v === "object" && v !== null && (v as Record<symbol, unknown>)[SOURCED] === true;
}

export interface WithheldEntry {
  section: string;
  sources: string[];
  rows?: number;
  reason: string;
}

export interface FilterResult<T> {
  value: T;
  withheld: WithheldEntry[];
  /** Sources of what was kept, in first-seen order: they fill attribution, license, sources. */
  used: string[];
  denials: Decision["denials"];
}

/**
 * Walks a response tree, keeps each sourced part whose sources all permit the caller's use,
 * and lists the rest under `withheld`, one entry per section and set of blocking sources;
 * rows an operation withheld itself (`rights.withholdRows`) join those entries last.
 */
export function filterWithRights<T>(tree: T, rights: CallerRights): FilterResult<T> {
  const used = new Set<string>();
  const entries = new Map<string, WithheldEntry>();
  const denials: Decision["denials"] = [];
  const reason = rights.reason;

  /** One entry per section and set of blocking sources; `rows` adds to its count (null: a part that is not a row). */
  const withhold = (section: string, d: Decision, rows: number | null) => {
    const blocking = blockingSources(d);
    const key = `${section}\u0000${blocking.join(",")}`;
    let e = entries.get(key);
    if (!e) {
      e = { section, sources: blocking, ...(rows !== null ? { rows: 0 } : {}), reason };
      entries.set(key, e);
      denials.push(...d.denials);
    }
    if (rows !== null) e.rows = (e.rows ?? 0) + rows;
  };

  const DROP = Symbol("drop");
  const walk = (v: unknown): unknown => {
    if (isSourced(v)) {
      const d = rights.judge(v.sources);
      if (!d.allowed) {
        withhold(v.section, d, v.countRows ? 1 : null);
        return v.whenWithheld === "null" ? null : DROP;
      }
      for (const s of v.sources) used.add(s);
      return v.leaf ? v.value : walk(v.value);
    }
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (const item of v) {
        const w = walk(item);
        if (w !== DROP) out.push(w);
      }
      return out;
    }
    if (typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) {
        const w = walk(item);
        if (w !== DROP) out[k] = w;
      }
      return out;
    }
    return v;
  };

  const value = walk(tree) as T;
  for (const row of rights.declaredRows()) withhold(row.section, rights.judge(row.sources), row.rows);
  return { value, withheld: [...entries.values()], used: [...used], denials };
}

/** The filter for a caller known only by its principal and use (tests, alerts): a CallerRights of its own. */
export function filterByRights<T>(tree: T, registry: SourceRegistry, principal: RightsPrincipal, use: Use = "api"): FilterResult<T> {
  return filterWithRights(tree, new CallerRights(registry, principal, use));
}
