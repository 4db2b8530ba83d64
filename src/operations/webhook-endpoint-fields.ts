import { z } from "zod";
import { EVENT_TYPES } from "../domain/alerts/payload.ts";
import { productionPolicy } from "../domain/webhooks/address-policy.ts";
import { checkTargetUrl, MAX_URL_LENGTH } from "../domain/webhooks/endpoint-url.ts";

/** The body fields an endpoint is made and changed with (account.webhooks.create and .update take the same rules). */

/** The URL rules of docs/webhooks.md as far as they can be checked without DNS; every delivery checks again at connect time. */
export const urlField = z
  .string()
  .max(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` })
  .transform((v, ctx) => {
    const r = checkTargetUrl(v.trim(), productionPolicy());
    if (!r.ok) {
      ctx.addIssue({ code: "custom", message: r.message });
      return z.NEVER;
    }
    return r.url.toString();
  });

export const eventsField = z
  .array(z.enum(EVENT_TYPES, { error: `must name event types from ${EVENT_TYPES.join(", ")}` }))
  .min(1, { error: "must name at least one event type, or be left out for all" })
  .max(EVENT_TYPES.length)
  .transform((v) => [...new Set(v)]);
