import { z } from "zod";
import { EVENT_TYPES } from "../domain/alerts/payload.ts";
import { AppError } from "../domain/errors.ts";
import { productionPolicy } from "../domain/webhooks/address-policy.ts";
import { checkTargetUrl, MAX_URL_LENGTH } from "../domain/webhooks/endpoint-url.ts";
import { newWebhookSecret } from "../domain/webhooks/signature.ts";
import type { Delivery, DeliveryAttempt, DeliveryStatus, WebhookEndpoint } from "../ports/webhooks.ts";
import { formatId } from "../domain/ids.ts";
import { accountOf, DeletedSchema, idParam, iso, limitReached, nameField, notFound, timeParam } from "./account.common.ts";
import { defineOperation } from "./operation.ts";
import { cursorParam, decodeCursor, encodeCursor, intParam } from "./params.ts";

/**
 * Webhook endpoints of the caller's account (spec 1 rule 5, 3, 6, 8): https URLs with
 * their own signing secrets, the per-plan limit, test events, secret rotation, turning an
 * endpoint back on, and the delivery log. Free of credits; another account's endpoint is
 * a plain 404.
 */

export const EndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()).nullable(),
  status: z.enum(["active", "disabled"]),
  /** The first characters of the current secret, to tell secrets apart; the secret itself is shown only when made. */
  secretStart: z.string(),
  previousSecretExpiresAt: z.string().nullable(),
  failureStreak: z.number().int(),
  disabledAt: z.string().nullable(),
  disabledReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const EndpointWithSecretSchema = EndpointSchema.extend({ secret: z.string() });

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
    endpointId: formatId("wh", d.endpointId),
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: iso(d.nextAttemptAt),
    createdAt: iso(d.createdAt)!,
    updatedAt: iso(d.updatedAt)!,
    log: d.log.map(attemptView),
  };
}

/** The URL rules of spec 6.4 as far as they can be checked without DNS; every delivery checks again at connect time. */
const urlField = z
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

const eventsField = z
  .array(z.enum(EVENT_TYPES, { error: `must name event types from ${EVENT_TYPES.join(", ")}` }))
  .min(1, { error: "must name at least one event type, or be left out for all" })
  .max(EVENT_TYPES.length)
  .transform((v) => [...new Set(v)]);

const whId = idParam("wh");

async function owned(ctx: Parameters<typeof accountOf>[0], id: number): Promise<WebhookEndpoint> {
  const e = await ctx.services.webhooks.getEndpoint(accountOf(ctx), id);
  if (!e) throw notFound("webhook endpoint", formatId("wh", id));
  return e;
}

export const webhooksCreate = defineOperation({
  id: "account.webhooks.create",
  method: "POST",
  path: "/api/v1/account/webhooks",
  summary: "Add a webhook endpoint",
  description:
    "Adds an https endpoint (port 443 or 8443, a public host) that receives the account's alerts as signed POSTs. The answer carries the endpoint's signing secret, " +
    "`whsec_...`, shown this once. Endpoints per account: Pro 5, Developer 5, Growth 100, Scale 1,000 (the higher plan applies). Free.",
  auth: "key",
  input: z.strictObject({}),
  body: z.strictObject({ url: urlField, description: nameField(200).optional(), events: eventsField.optional() }),
  output: { data: EndpointWithSecretSchema },
  responseType: "webhook_endpoint",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    const accountId = accountOf(ctx);
    const limit = ctx.principal.entitlements.webhookEndpoints;
    if (limit === 0) throw limitReached("webhook endpoints", 0);
    const secret = newWebhookSecret();
    const r = await ctx.services.webhooks.createEndpoint(accountId, { url: input.url, description: input.description ?? null, events: input.events ?? null }, secret, limit, ctx.now);
    if (!r.ok) throw limitReached("webhook endpoints", r.limit);
    return { data: { ...endpointView(r.endpoint, ctx.now), secret } };
  },
});

export const webhooksList = defineOperation({
  id: "account.webhooks.list",
  method: "GET",
  path: "/api/v1/account/webhooks",
  summary: "The account's webhook endpoints",
  description: "Every webhook endpoint of the account with its status (`active`, or `disabled` after 15 consecutive failures over at least 24 hours). Free.",
  auth: "key",
  input: z.strictObject({}),
  output: { data: z.array(EndpointSchema) },
  responseType: "webhook_endpoints",
  apiVersion: "1",
  cost: 0,
  async run(ctx) {
    return { data: (await ctx.services.webhooks.listEndpoints(accountOf(ctx))).map((e) => endpointView(e, ctx.now)) };
  },
});

export const webhooksGet = defineOperation({
  id: "account.webhooks.get",
  method: "GET",
  path: "/api/v1/account/webhooks/{id}",
  summary: "One webhook endpoint",
  description: "A webhook endpoint of the account. Free.",
  auth: "key",
  input: z.strictObject({ id: whId }),
  output: { data: EndpointSchema },
  responseType: "webhook_endpoint",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    return { data: endpointView(await owned(ctx, input.id), ctx.now) };
  },
});

export const webhooksUpdate = defineOperation({
  id: "account.webhooks.update",
  method: "PATCH",
  path: "/api/v1/account/webhooks/{id}",
  summary: "Change a webhook endpoint",
  description: "Changes the URL, description or event types of an endpoint. Pending retries go to the new URL. Free.",
  auth: "key",
  input: z.strictObject({ id: whId }),
  body: z
    .strictObject({ url: urlField.optional(), description: nameField(200).nullable().optional(), events: eventsField.nullable().optional() })
    .refine((b) => b.url !== undefined || b.description !== undefined || b.events !== undefined, { error: "must change at least one of url, description, events" }),
  output: { data: EndpointSchema },
  responseType: "webhook_endpoint",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    const { id, ...patch } = input;
    const e = await ctx.services.webhooks.updateEndpoint(accountOf(ctx), id, patch, ctx.now);
    if (!e) throw notFound("webhook endpoint", formatId("wh", id));
    return { data: endpointView(e, ctx.now) };
  },
});

export const webhooksDelete = defineOperation({
  id: "account.webhooks.delete",
  method: "DELETE",
  path: "/api/v1/account/webhooks/{id}",
  summary: "Delete a webhook endpoint",
  description: "Deletes the endpoint, its pending deliveries and its delivery log. Free.",
  auth: "key",
  input: z.strictObject({ id: whId }),
  output: { data: DeletedSchema },
  responseType: "deleted",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    if (!(await ctx.services.webhooks.deleteEndpoint(accountOf(ctx), input.id))) throw notFound("webhook endpoint", formatId("wh", input.id));
    return { data: { id: formatId("wh", input.id), deleted: true as const } };
  },
});

export const webhooksTest = defineOperation({
  id: "account.webhooks.test",
  method: "POST",
  path: "/api/v1/account/webhooks/{id}/test",
  summary: "Send a test event",
  description:
    "Sends one `webhook.test` event to the endpoint now, through the same client, signature and delivery log as alerts, and answers with the attempt. Not retried; it does not count " +
    "toward turning the endpoint off. At most 10 per account and minute. Free.",
  auth: "key",
  input: z.strictObject({ id: whId }),
  output: { data: z.object({ eventId: z.string(), delivery: DeliverySchema }) },
  responseType: "webhook_test",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    const accountId = accountOf(ctx);
    const r = await ctx.services.webhookDispatch.sendTest(accountId, input.id);
    if (!r) throw notFound("webhook endpoint", formatId("wh", input.id));
    const d = await ctx.services.webhooks.getDelivery(accountId, r.deliveryId);
    if (!d) throw notFound("webhook endpoint", formatId("wh", input.id));
    return { data: { eventId: formatId("evt", r.eventId), delivery: deliveryView(d) } };
  },
});

export const webhooksRotate = defineOperation({
  id: "account.webhooks.rotate",
  method: "POST",
  path: "/api/v1/account/webhooks/{id}/rotate-secret",
  summary: "Rotate an endpoint's signing secret",
  description:
    "Makes a new secret, shown this once. During the grace period (`graceHours`, 0 to 168, default 24) every delivery carries two signatures, `v1=<new>,v1=<old>`, so receivers " +
    "can switch over at their pace; 0 stops the old secret at once. Free.",
  auth: "key",
  input: z.strictObject({ id: whId }),
  body: z.strictObject({ graceHours: z.number({ error: "must be a number of hours" }).int({ error: "must be a whole number" }).min(0).max(168).optional() }),
  output: { data: EndpointWithSecretSchema },
  responseType: "webhook_endpoint",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    const secret = newWebhookSecret();
    const until = ctx.now + (input.graceHours ?? 24) * 3_600_000;
    const e = await ctx.services.webhooks.rotateSecret(accountOf(ctx), input.id, secret, until, ctx.now);
    if (!e) throw notFound("webhook endpoint", formatId("wh", input.id));
    return { data: { ...endpointView(e, ctx.now), secret } };
  },
});

export const webhooksEnable = defineOperation({
  id: "account.webhooks.enable",
  method: "POST",
  path: "/api/v1/account/webhooks/{id}/enable",
  summary: "Turn an endpoint back on",
  description:
    "Turns on an endpoint the service turned off after repeated failures, and clears its failure count. New alerts reach it again; deliveries skipped while it was off stay in the log " +
    "and can be retried one by one. Free.",
  auth: "key",
  input: z.strictObject({ id: whId }),
  output: { data: EndpointSchema },
  responseType: "webhook_endpoint",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    const e = await ctx.services.webhooks.enableEndpoint(accountOf(ctx), input.id, ctx.now);
    if (!e) throw notFound("webhook endpoint", formatId("wh", input.id));
    ctx.services.webhookDispatch.wake();
    return { data: endpointView(e, ctx.now) };
  },
});

const STATUSES = ["pending", "retrying", "delivered", "given_up", "skipped", "failed"] as const;

export const webhooksDeliveries = defineOperation({
  id: "account.webhooks.deliveries",
  method: "GET",
  path: "/api/v1/account/webhooks/{id}/deliveries",
  summary: "An endpoint's delivery log",
  description:
    "Deliveries to the endpoint, newest first, each with every attempt: its Service-Delivery id, trigger, status code, error class (invalid_target, blocked_address, dns, connect, " +
    "tls, timeout, http_status, protocol, body_too_large, interrupted), duration and the first 1 KB of the answer. Filters: `event` (evt_...), `status`, `from`/`to` (creation time). Free.",
  auth: "key",
  input: z.strictObject({
    id: whId,
    event: idParam("evt").optional(),
    status: z.enum(STATUSES, { error: `must be one of ${STATUSES.join(", ")}` }).optional(),
    from: timeParam.optional(),
    to: timeParam.optional(),
    limit: intParam(1, 100, 20),
    cursor: cursorParam.optional(),
  }),
  output: { data: z.array(DeliverySchema) },
  responseType: "webhook_deliveries",
  apiVersion: "1",
  paged: true,
  cost: 0,
  async run(ctx, input) {
    const accountId = accountOf(ctx);
    await owned(ctx, input.id);
    const before = input.cursor ? decodeCursor(input.cursor, z.object({ before: z.number().int().positive() })).before : undefined;
    const rows = await ctx.services.webhooks.listDeliveries(accountId, input.id, {
      eventId: input.event,
      status: input.status as DeliveryStatus | undefined,
      from: input.from,
      to: input.to,
      beforeId: before,
      limit: input.limit + 1,
    });
    const page = rows.slice(0, input.limit);
    return { data: page.map(deliveryView), nextCursor: rows.length > input.limit ? encodeCursor({ before: page.at(-1)!.id }) : null };
  },
});

export const deliveriesRetry = defineOperation({
  id: "account.deliveries.retry",
  method: "POST",
  path: "/api/v1/account/deliveries/{id}/retry",
  summary: "Retry a delivery now",
  description:
    "One more attempt of a delivery now, with the same event id (receivers de-duplicate on it). A delivery waiting for a scheduled retry is brought forward; a delivered, given-up " +
    "or failed one gets one extra attempt and keeps its state unless it succeeds; one skipped while its endpoint was off takes up its schedule. Refused (409) while the endpoint is off. Free.",
  auth: "key",
  input: z.strictObject({ id: idParam("dlv") }),
  output: { data: DeliverySchema },
  responseType: "webhook_delivery",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    const r = await ctx.services.webhooks.retryDelivery(accountOf(ctx), input.id, ctx.now);
    if (!r.ok) {
      if (r.reason === "not_found") throw notFound("delivery", formatId("dlv", input.id));
      if (r.reason === "endpoint_disabled") throw new AppError("conflict", "The delivery's endpoint is turned off; turn it on (POST .../enable) first.");
      throw new AppError("conflict", "The delivery is being sent right now; look at its log in a few seconds.");
    }
    ctx.services.webhookDispatch.wake();
    return { data: deliveryView(r.delivery) };
  },
});

export const WEBHOOK_OPERATIONS = [webhooksCreate, webhooksList, webhooksGet, webhooksUpdate, webhooksDelete, webhooksTest, webhooksRotate, webhooksEnable, webhooksDeliveries, deliveriesRetry];
