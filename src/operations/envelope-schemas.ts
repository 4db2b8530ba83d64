import { z } from "zod";

/** The parts of the envelope every answer shares (spec 2.1, 2.2). */
export const WithheldSchema = z.object({
  section: z.string(),
  sources: z.array(z.string()),
  rows: z.number().int().optional(),
  reason: z.string(),
});

export const EnvelopeBase = {
  type: z.string(),
  apiVersion: z.enum(["1", "preview"]),
  withheld: z.array(WithheldSchema),
  attribution: z.array(z.string()),
  license: z.array(z.string()),
  sources: z.array(z.string()),
};

export const CoordinatesSchema = z.object({ lat: z.number(), lon: z.number(), source: z.string() });
