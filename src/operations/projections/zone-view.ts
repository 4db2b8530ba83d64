import { z } from "zod";
import { formatId } from "../../domain/ids.ts";
import type { Zone } from "../../interfaces/alerts.ts";
import { iso } from "../account.common.ts";

/** A zone as its account sees it: the GeoJSON polygon and its bounding box as [minLon, minLat, maxLon, maxLat]. */

export const ZoneSchema = z.object({
  id: z.string(),
  name: z.string(),
  geometry: z.object({ type: z.literal("Polygon"), coordinates: z.array(z.array(z.array(z.number()))) }),
  bbox: z.array(z.number()),
  createdAt: z.string(),
});

export function zoneView(zone: Zone): z.infer<typeof ZoneSchema> {
  return {
    id: formatId("zone", zone.id),
    name: zone.name,
    geometry: zone.geometry,
    bbox: [zone.bbox.minLon, zone.bbox.minLat, zone.bbox.maxLon, zone.bbox.maxLat],
    createdAt: iso(zone.createdAt)!,
  };
}
