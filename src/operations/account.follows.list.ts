import { z } from "zod";
import { accountOf } from "./account.common.ts";
import { defineOperation } from "./operation.ts";
import { followView, FollowSchema } from "./projections/follow-view.ts";

export const followsList = defineOperation({
  id: "account.follows.list",
  method: "GET",
  path: "/api/v1/account/follows",
  summary: "The account's follows",
  description: "Every vessel and port the account follows. Free.",
  auth: "key",
  input: z.strictObject({}),
  output: { data: z.array(FollowSchema) },
  responseType: "follows",
  apiVersion: "1",
  cost: 0,
  async run(ctx) {
    return { data: (await ctx.services.alerts.listFollows(accountOf(ctx))).map(followView) };
  },
});
