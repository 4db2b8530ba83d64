import { z } from "zod";

/**
 * A webhook endpoint of an account, as the service keeps it: the one declaration of an
 * endpoint. The store's rows and the API's endpoint answers are derived from it. Times
 * are epoch ms; the signing secrets are plain here (the store keeps them sealed).
 */
export const WebhookEndpointSchema = z.object({
  id: z.number().int(),
  accountId: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  /** Event types sent to it; null: all. */
  events: z.array(z.string()).nullable(),
  status: z.enum(["active", "disabled"]),
  secret: z.string(),
  /** The secret before the last rotation, still signing until `previousSecretExpiresAt`. */
  previousSecret: z.string().nullable(),
  previousSecretExpiresAt: z.number().int().nullable(),
  failureStreak: z.number().int(),
  streakStartedAt: z.number().int().nullable(),
  disabledAt: z.number().int().nullable(),
  disabledReason: z.string().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});

export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export type EndpointStatus = WebhookEndpoint["status"];
