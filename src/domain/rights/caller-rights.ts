import { type Decision, decide, type RightsPrincipal, type Use } from "./decide.ts";
import type { SourceRegistry } from "./source.ts";

export const WITHHELD_REASON_API = "source_not_licensed_for_api";
/** The reason on the pages: the source does not permit its facts on the service's web pages. */
export const WITHHELD_REASON_WEB = "source_not_licensed_for_web";
/**
 * The section search hits always withhold (spec 2.6: vessel type and flag are always withheld
 * from hits), whatever its sources permit; its reason is the spec's API reason, as 2.2 gives it.
 */
export const TYPE_AND_FLAG_SECTION = "vessel.vesselType,vessel.flag";

/**
 * What an operation may ask of the rights engine: bound to one caller and one use, so an
 * operation never names a use or a principal itself (the vessel page once judged a link for
 * `api` use while it rendered for `web`).
 */
export interface Rights {
  /** Whether every source behind a fact permits this caller's use. */
  may(sources: readonly string[]): boolean;
  /**
   * Rows of a section the operation left out itself, counted in storage instead of read (the
   * points of a track from stations the caller may not be shown). They are listed in
   * `withheld` as the filter lists rows it drops, after the filter's own entries.
   */
  withholdRows(section: string, sources: readonly string[], rows: number): void;
}

/**
 * One caller's rights for one call: every decision of the call goes through here, whether
 * an operation asks before reading or the pipeline's filter judges the answer after.
 */
export class CallerRights implements Rights {
  readonly reason: string;
  private readonly decisions = new Map<string, Decision>();
  private readonly declared: { section: string; sources: readonly string[]; rows: number }[] = [];

  private readonly registry: SourceRegistry;
  private readonly principal: RightsPrincipal;
  readonly use: Use;

  constructor(registry: SourceRegistry, principal: RightsPrincipal, use: Use) {
    this.registry = registry;
    this.principal = principal;
    this.use = use;
    this.reason = use === "web" ? WITHHELD_REASON_WEB : WITHHELD_REASON_API;
  }

  /** The decision for a set of sources, worked out once per call. */
  judge(sources: readonly string[]): Decision {
    const key = sources.join("\u0000");
    let d = this.decisions.get(key);
    if (!d) {
      d = decide(this.registry, sources, this.principal, this.use);
      this.decisions.set(key, d);
    }
    return d;
  }

  may(sources: readonly string[]): boolean {
    return this.judge(sources).allowed;
  }

  withholdRows(section: string, sources: readonly string[], rows: number): void {
    if (rows > 0) this.declared.push({ section, sources, rows });
  }

  /** The rows operations withheld themselves, for the filter to list beside its own. */
  declaredRows(): readonly { section: string; sources: readonly string[]; rows: number }[] {
    return this.declared;
  }
}

/** The sources that block a decision, each once, sorted: how a withheld entry names them. */
export function blockingSources(d: Decision): string[] {
  return [...new Set(d.denials.map((x) => x.source))].sort();
}
