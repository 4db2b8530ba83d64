import { z } from "zod";
import { PositionFixSchema } from "../../domain/positions/position-fix.ts";

/**
 * A position fix as answers show it: the fix's own fields with the time as ISO 8601. Each
 * answer adds what it says of the fix (its navigational status as a number or in words, its
 * station or source); the fields' order is the documents' order.
 */
export const POSITION_VIEW_FIELDS = {
  time: z.string(),
  ...PositionFixSchema.pick({ lat: true, lon: true, sog: true, cog: true, heading: true }).shape,
};
