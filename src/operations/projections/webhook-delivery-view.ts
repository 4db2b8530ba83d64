import { z } from "zod";
import { formatId } from "../../domain/ids.ts";
import type { Delivery, DeliveryAttempt } from "../../interfaces/webhooks.ts";
import { iso } from "../account.common.ts";

/** A delivery of one event to one endpoint, with every attempt: the delivery log an account reads to find failures. */

const AttemptSchema = z.object({
  attempt: z.number().int(),
  deliveryId: z.string(),
  trigger: z.enum(["auto", "manual", "test"]),
  outcome: z.enum(["in_flight", "succeeded", "failed", "interrupted"]),
  startedAt: z.string(),
  durationMs: z.number().int().nullable(),
  statusCode: z.number().int().nullable(),
  errorClass: z.string().nullable(),
  error: z.string().nullable(),
  response: z.string().nullable(),
});

export const DeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  subject: z
    .object({ ref: z.string().nullable(), imo: z.number().int().nullable(), mmsi: z.number().int().nullable(), unlocode: z.string().nullable(), name: z.string().nullable() })
    .nullable()
    .describe("The vessel or port the event is about, as the event body names it; null for a test event, and fields null where the body withholds them."),
  action: z.string().nullable().describe("What happened, where the event says: `listed`, `delisted` or `changed` for `alert.sanctions`; null otherwise or when withheld."),
  endpointId: z.string(),
  status: z.enum(["pending", "retrying", "delivered", "given_up", "skipped", "failed"]),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  log: z.array(AttemptSchema),
});

function attemptView(a: DeliveryAttempt): z.infer<typeof AttemptSchema> {
  return {
    attempt: a.attempt,
    deliveryId: a.deliveryUuid,
    trigger: a.trigger,
    outcome: a.outcome,
    startedAt: iso(a.startedAt)!,
    durationMs: a.durationMs,
    statusCode: a.statusCode,
    errorClass: a.errorClass,
    error: a.error,
    response: a.responseSnippet,
  };
}

export function deliveryView(d: Delivery): z.infer<typeof DeliverySchema> {
  return {
    id: formatId("dlv", d.id),
    eventId: formatId("evt", d.eventId),
    eventType: d.eventType,
    subject: d.subject,
    action: d.action,
    endpointId: formatId("wh", d.endpointId),
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: iso(d.nextAttemptAt),
    createdAt: iso(d.createdAt)!,
    updatedAt: iso(d.updatedAt)!,
    log: d.log.map(attemptView),
  };
}
