import { z } from "zod";

/** A wreck's depth as published: below chart datum (negative when it dries), its unit, and whether it is a wire-drag clearance. */
export const WreckDepthSchema = z.object({ value: z.number(), unit: z.string().nullable(), wireDragClearance: z.boolean() });

/** One wreck record (NOAA AWOIS), keyed by the source's record number: the one declaration of a wreck. */
export const WreckSchema = z.object({
  /** AWOIS record number (RECRD): stable across editions. */
  id: z.number().int(),
  /** `{name}-{id}`, e.g. `algeria-14296`; `wreck-{id}` when unnamed. The legacy URL form. */
  slug: z.string(),
  /** VESSLTERMS, or null when it is only a placeholder such as UNKNOWN or WRECK. */
  name: z.string().nullable(),
  /** As published, e.g. "Wreck - Visible", "Not Charted"; null when blank. */
  featureType: z.string().nullable(),
  lat: z.number(),
  lon: z.number(),
  /** "high", "medium", "low" or "poor". */
  positionQuality: z.string().nullable(),
  depth: WreckDepthSchema.nullable(),
  /** Depth in metres, rounded to centimetres; null when there is no depth or no unit. */
  depthM: z.number().nullable(),
  yearSunk: z.number().int().nullable(),
  history: z.string().nullable(),
  /** The source id of the record, e.g. `noaa_awois`. */
  source: z.string(),
});

export type Wreck = z.infer<typeof WreckSchema>;
