import { z } from "zod";

/**
 * What static AIS reports (types 5, 19, 24 A/B) or a feed's metadata say of a vessel, as
 * one station heard it: the one declaration of a station's vessel identity.
 */
export const VesselIdentitySchema = z.object({
  stationId: z.number().int(),
  mmsi: z.number().int(),
  /** Only check-digit-valid IMO numbers; anything else is stored as null. */
  imo: z.number().int().nullable(),
  name: z.string().nullable(),
  callsign: z.string().nullable(),
  shipType: z.number().int().nullable(),
  toBow: z.number().int().nullable(),
  toStern: z.number().int().nullable(),
  toPort: z.number().int().nullable(),
  toStarboard: z.number().int().nullable(),
  draught: z.number().nullable(),
  destination: z.string().nullable(),
  /** As broadcast, without a year: `MM-DDTHH:MMZ`, null when not available. */
  eta: z.string().nullable(),
  updatedAt: z.number().int(),
});

export type VesselIdentity = z.infer<typeof VesselIdentitySchema>;

/**
 * What one report tells of a vessel's identity. Fields a report does not carry are
 * undefined and leave the stored value as it was.
 */
export type VesselIdentityFields = Partial<Omit<VesselIdentity, "stationId" | "mmsi" | "updatedAt">>;
