import { z } from "zod";
import { formatId } from "../../domain/ids.ts";
import type { Follow } from "../../interfaces/alerts.ts";
import { iso } from "../account.common.ts";

/** A follow as its account sees it: a vessel by IMO or MMSI, or a port by UN/LOCODE; the other identifiers are null. */

export const FollowSchema = z.object({
  id: z.string(),
  kind: z.enum(["vessel", "port"]),
  imo: z.number().int().nullable(),
  mmsi: z.number().int().nullable(),
  unlocode: z.string().nullable(),
  createdAt: z.string(),
});

export function followView(f: Follow): z.infer<typeof FollowSchema> {
  return { id: formatId("follow", f.id), kind: f.kind, imo: f.imo, mmsi: f.mmsi, unlocode: f.unlocode, createdAt: iso(f.createdAt)! };
}
