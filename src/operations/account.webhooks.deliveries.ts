import { z } from "zod";
import type { DeliveryStatus } from "../interfaces/webhooks.ts";
import { accountOf, idParam, timeParam } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { ownedEndpoint } from "./owned-webhook-endpoint.ts";
import { cursorParam, decodeCursor, encodeCursor, intParam } from "./params.ts";
import { deliveryView, DeliverySchema } from "./projections/webhook-delivery-view.ts";

const STATUSES = ["pending", "retrying", "delivered", "given_up", "skipped", "failed"] as const;

export const webhooksDeliveries = defineAccountOperation({
  id: "account.webhooks.deliveries",
  method: "GET",
  path: "/api/v1/account/webhooks/{id}/deliveries",
  summary: "An endpoint's delivery log",
  description:
    "Deliveries to the endpoint, newest first, each with every attempt: its Service-Delivery id, trigger, status code, error class (invalid_target, blocked_address, dns, connect, " +
    "tls, timeout, http_status, protocol, body_too_large, interrupted), duration and the first 1 KB of the answer. Filters: `event` (evt_...), `status`, `from`/`to` (creation time). Free.",
  input: z.strictObject({
    id: idParam("wh"),
    event: idParam("evt").optional(),
    status: z.enum(STATUSES, { error: `must be one of ${STATUSES.join(", ")}` }).optional(),
    from: timeParam.optional(),
    to: timeParam.optional(),
    limit: intParam(1, 100, 20),
    cursor: cursorParam.optional(),
  }),
  output: { data: z.array(DeliverySchema) },
  responseType: "webhook_deliveries",
  paged: true,
  async run(ctx, input) {
    const accountId = accountOf(ctx);
    await ownedEndpoint(ctx, input.id);
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
