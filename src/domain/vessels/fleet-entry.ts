import { z } from "zod";

/** A ship as a fleet list (MARAD) gives it: particulars and the operating company. The one declaration of a fleet-list row. */
export const FleetEntrySchema = z.object({
  imo: z.number().int(),
  /** The fleet list's source id. */
  source: z.string(),
  name: z.string(),
  /** As published: Tanker, Containership, Dry Bulk, Ro-Ro, Vehicles Carrier, General Cargo. */
  shipType: z.string().nullable(),
  grossTons: z.number().nullable(),
  deadweightTons: z.number().nullable(),
  yearBuilt: z.number().int().nullable(),
  /** Operating company's name as published, e.g. "Matson Navigation Co Inc". */
  operator: z.string().nullable(),
});

export type FleetEntry = z.infer<typeof FleetEntrySchema>;
