import { z } from "zod";
import { SANCTIONS_LISTS } from "./designation.ts";

/**
 * What one import of a sanctions list changed: the counts a version keeps and an import
 * reports. `active` counts the designations in force after it; listed, delisted and
 * changed are records that appeared, went, or had a tracked field change.
 */
export const VersionCountsSchema = z.object({
  records: z.number().int(),
  active: z.number().int(),
  listed: z.number().int(),
  delisted: z.number().int(),
  changed: z.number().int(),
  unchanged: z.number().int(),
});

export type VersionCounts = z.infer<typeof VersionCountsSchema>;

/** One imported version of a list: the one declaration of a sanctions version. Dates yyyy-mm-dd, times epoch ms. */
export const SanctionsVersionSchema = z.object({
  list: z.enum(SANCTIONS_LISTS),
  /** The day this version stands for. */
  asOf: z.string(),
  importedAt: z.number().int(),
  /** The files or URLs read, comma-separated. */
  origin: z.string(),
  /** A dated extract (the demo's samples), not the list as published. */
  extract: z.boolean(),
  /** SHA-256 hex over the input files (name and bytes, in name order). */
  checksum: z.string(),
  bytes: z.number().int(),
  ...VersionCountsSchema.shape,
  /** The first version of a list: its listings were not observed as changes. */
  baseline: z.boolean(),
  /** The delisting guard's verdict. */
  guard: z.string(),
});

export type SanctionsVersion = z.infer<typeof SanctionsVersionSchema>;
