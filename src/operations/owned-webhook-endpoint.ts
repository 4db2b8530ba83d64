import type { WebhookEndpoint } from "../interfaces/webhooks.ts";
import { accountOf, notFound } from "./account.common.ts";
import type { OperationContext } from "./operation.ts";

/** The caller's endpoint with this id; another account's endpoint is the same 404 as one that never existed. */
export async function ownedEndpoint(ctx: OperationContext, id: number): Promise<WebhookEndpoint> {
  const e = await ctx.services.webhooks.getEndpoint(accountOf(ctx), id);
  if (!e) throw notFound("wh", id);
  return e;
}
