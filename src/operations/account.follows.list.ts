import { z } from "zod";
import { accountOf } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { followView, FollowSchema } from "./projections/follow-view.ts";

export const followsList = defineAccountOperation({
  id: "account.follows.list",
  method: "GET",
  path: "/api/v1/account/follows",
  summary: "The account's follows",
  description: "Every vessel and port the account follows. Free.",
  input: z.strictObject({}),
  output: { data: z.array(FollowSchema) },
  responseType: "follows",
  async run(ctx) {
    return { data: (await ctx.services.alerts.listFollows(accountOf(ctx))).map(followView) };
  },
});
