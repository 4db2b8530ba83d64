import { z } from "zod";

/**
 * A source of facts and what its licence permits. The operator edits the sources file;
 * the shipped defaults describe the bundled datasets truthfully.
 */
export const SourceSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9_.:-]*$/, "lower-case id: letters, digits, _ . : -"),
  name: z.string().min(1),
  attribution: z.string().min(1),
  license: z.string().min(1),
  url: z.string().url().optional(),
  permissions: z.object({
    /** May facts from it be served through this API at all. */
    api: z.boolean(),
    /** May they be shown on the service's public pages; left out, the `api` permission decides. */
    web: z.boolean().optional(),
    /** May they be pushed out of the service to third-party systems (webhook payloads). MCP answers are API answers: they use `api`. */
    redistribution: z.boolean(),
    /** May they be used on commercial plans. */
    commercial: z.boolean(),
  }),
  note: z.string().optional(),
});

/**
 * `ownerAccountId` is set only on a shared station's source (never read from the sources
 * file): the owner's own use of their station's data is never limited by what they grant others.
 */
export type Source = z.infer<typeof SourceSchema> & { ownerAccountId?: string };

/** The source of a shared station by station id, or undefined when the station is not shared. */
export type StationSourceLookup = (stationId: number) => Source | undefined;

export const SourcesFileSchema = z.object({ sources: z.array(SourceSchema).min(1) }).superRefine((file, ctx) => {
  const seen = new Set<string>();
  for (const [i, s] of file.sources.entries()) {
    if (seen.has(s.id)) ctx.addIssue({ code: "custom", path: ["sources", i, "id"], message: `duplicate source id ${s.id}` });
    seen.add(s.id);
  }
});

export class SourceRegistry {
  readonly #byId: Map<string, Source>;
  #stations: StationSourceLookup = () => undefined;
  /** Stations whose data another entry governs (a public feed's station: `station:12` -> `digitraffic-marine`). */
  #stationSources = new Map<number, string>();

  constructor(sources: Source[]) {
    this.#byId = new Map(sources.map((s) => [s.id, s]));
  }

  /** Shared stations' sources come from the store (their owners' grants), not from the file. */
  attachStations(lookup: StationSourceLookup): void {
    this.#stations = lookup;
  }

  get(id: string): Source | undefined {
    const direct = this.#byId.get(id);
    if (direct !== undefined || !id.startsWith("station:")) return direct;
    const stationId = Number(id.slice(8));
    // A feed's station is governed by the feed's own entry; when the file lacks it, nothing is allowed.
    const bound = this.#stationSources.get(stationId);
    if (bound !== undefined) return this.#byId.get(bound);
    // A private station (seen only by its owner) is governed by the file's `station` entry.
    // A shared one is a source of its own with its owner's grants, within what the operator's
    // `station` entry permits: the sources file stays the last word on every use.
    const base = this.#byId.get("station");
    const shared = Number.isSafeInteger(stationId) ? this.#stations(stationId) : undefined;
    if (!shared || !base) return base;
    const p = shared.permissions;
    const cap = base.permissions;
    // Web use: the owner's API grant, within the operator's web permission (its API one when unset).
    const web = (p.web ?? p.api) && (cap.web ?? cap.api);
    return { ...shared, permissions: { api: p.api && cap.api, web, redistribution: p.redistribution && cap.redistribution, commercial: p.commercial && cap.commercial } };
  }

  /** Which entry governs each feed station's data; replaces what was bound before. */
  bindStations(stations: readonly { stationId: number; sourceId: string }[]): void {
    this.#stationSources = new Map(stations.map((s) => [s.stationId, s.sourceId]));
  }

  all(): Source[] {
    return [...this.#byId.values()];
  }
}
