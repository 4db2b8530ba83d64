import { z } from "zod";
import { formatId } from "../../domain/ids.ts";
import type { SavedSearch } from "../../interfaces/alerts.ts";
import { iso } from "../account.common.ts";

/** A saved search as its account sees it. */

export const SavedSearchSchema = z.object({ id: z.string(), name: z.string(), q: z.string(), kind: z.string().nullable(), createdAt: z.string() });

export function savedSearchView(s: SavedSearch): z.infer<typeof SavedSearchSchema> {
  return { id: formatId("search", s.id), name: s.name, q: s.q, kind: s.kind, createdAt: iso(s.createdAt)! };
}
