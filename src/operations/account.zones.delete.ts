import { z } from "zod";
import { accountOf, deleted, DeletedSchema, idParam, notFound } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";

export const zonesDelete = defineAccountOperation({
  id: "account.zones.delete",
  method: "DELETE",
  path: "/api/v1/account/zones/{id}",
  summary: "Delete a zone",
  description: "Deletes a zone; it raises no more alerts. Free.",
  input: z.strictObject({ id: idParam("zone") }),
  output: { data: DeletedSchema },
  responseType: "deleted",
  async run(ctx, input) {
    const accountId = accountOf(ctx);
    if (!(await ctx.services.alerts.deleteZone(accountId, input.id))) throw notFound("zone", input.id);
    ctx.services.alertsRuntime.zonesChanged(accountId);
    return { data: deleted("zone", input.id) };
  },
});
