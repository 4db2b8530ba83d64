import { z } from "zod";

/** One EU MRV report of a ship and year, the columns the service keeps: the one declaration of an emission report. */
export const EmissionReportSchema = z.object({
  imo: z.number().int(),
  year: z.number().int(),
  name: z.string(),
  shipType: z.string().nullable(),
  portOfRegistry: z.string().nullable(),
  co2T: z.number().nullable(),
  fuelT: z.number().nullable(),
  timeAtSeaH: z.number().nullable(),
});

export type EmissionReport = z.infer<typeof EmissionReportSchema>;
