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

export type Source = z.infer<typeof SourceSchema>;

export const SourcesFileSchema = z.object({ sources: z.array(SourceSchema).min(1) }).superRefine((file, ctx) => {
  const seen = new Set<string>();
  for (const [i, s] of file.sources.entries()) {
    if (seen.has(s.id)) ctx.addIssue({ code: "custom", path: ["sources", i, "id"], message: `duplicate source id ${s.id}` });
    seen.add(s.id);
  }
});

export class SourceRegistry {
  readonly #byId: Map<string, Source>;

  constructor(sources: Source[]) {
    this.#byId = new Map(sources.map((s) => [s.id, s]));
  }

  get(id: string): Source | undefined {
    // Station feeds are one source per station id: `station:<id>` is governed by the `station` entry.
    return this.#byId.get(id) ?? (id.startsWith("station:") ? this.#byId.get("station") : undefined);
  }

  all(): Source[] {
    return [...this.#byId.values()];
  }
}
