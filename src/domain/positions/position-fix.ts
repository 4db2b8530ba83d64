import { z } from "zod";

/**
 * One AIS position report as a station heard it: the one declaration of a fix. Stores,
 * tracks, the archive, the zone and derived-fact queues and the AIS encoder take the
 * fields they need from it (`Pick`/`Omit`), and the tables' columns are these fields in
 * snake case (adapters/storage/tables/columns.ts).
 */
export const PositionFixSchema = z.object({
  mmsi: z.number().int(),
  /** Epoch ms: tag-block `c:` time when the station sent one, else the receive time. */
  time: z.number().int(),
  stationId: z.number().int(),
  lat: z.number(),
  lon: z.number(),
  /** Knots, null when not available. */
  sog: z.number().nullable(),
  /** Degrees, null when not available. */
  cog: z.number().nullable(),
  /** Degrees, null when not available. */
  heading: z.number().nullable(),
  /** ITU navigational status 0..15; null for reports that carry none (Class B, SAR aircraft). */
  navStatus: z.number().int().nullable(),
});

export type PositionFix = z.infer<typeof PositionFixSchema>;

/** A fix of a known vessel in a track: without the MMSI and heading. */
export type TrackPoint = Omit<PositionFix, "mmsi" | "heading">;

/** A fix as the archive keeps it: one per 10-minute slot, without heading or navigational status. */
export type ArchivePoint = Omit<PositionFix, "heading" | "navStatus">;
