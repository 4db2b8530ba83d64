import { z } from "zod";
import { formatId } from "../../domain/ids.ts";
import { type WebhookEndpoint, WebhookEndpointSchema } from "../../domain/webhooks/endpoint.ts";
import { iso } from "../account.common.ts";

/** A webhook endpoint as its account sees it: never the secret itself, which is shown only when made. */

const stored = WebhookEndpointSchema.shape;

/** Ids in their public form (`wh_...`) and times as ISO text; the rest as stored. */
export const EndpointSchema = z.object({
  id: z.string(),
  url: stored.url,
  description: stored.description,
  events: stored.events,
  status: stored.status,
  /** The first characters of the current secret, to tell secrets apart; the secret itself is shown only when made. */
  secretStart: z.string(),
  previousSecretExpiresAt: z.string().nullable(),
  failureStreak: stored.failureStreak,
  disabledAt: z.string().nullable(),
  disabledReason: stored.disabledReason,
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** The answer of the calls that make a secret (create, rotate): the one time it is shown. */
export const EndpointWithSecretSchema = EndpointSchema.extend({ secret: z.string() });

export function endpointView(e: WebhookEndpoint, now: number): z.infer<typeof EndpointSchema> {
  return {
    id: formatId("wh", e.id),
    url: e.url,
    description: e.description,
    events: e.events,
    status: e.status,
    secretStart: `${e.secret.slice(0, 10)}...`,
    previousSecretExpiresAt: e.previousSecret !== null && e.previousSecretExpiresAt !== null && e.previousSecretExpiresAt > now ? iso(e.previousSecretExpiresAt) : null,
    failureStreak: e.failureStreak,
    disabledAt: iso(e.disabledAt),
    disabledReason: e.disabledReason,
    createdAt: iso(e.createdAt)!,
    updatedAt: iso(e.updatedAt)!,
  };
}
