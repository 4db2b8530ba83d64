import { z } from "zod";
import { accountOf } from "./account.common.ts";
import { defineOperation } from "./operation.ts";
import { savedSearchView, SavedSearchSchema } from "./projections/saved-search-view.ts";

export const savedSearchesList = defineOperation({
  id: "account.saved-searches.list",
  method: "GET",
  path: "/api/v1/account/saved-searches",
  summary: "The account's saved searches",
  description: "Every saved search of the account. Free.",
  auth: "key",
  input: z.strictObject({}),
  output: { data: z.array(SavedSearchSchema) },
  responseType: "saved_searches",
  apiVersion: "1",
  cost: 0,
  async run(ctx) {
    return { data: (await ctx.services.alerts.listSavedSearches(accountOf(ctx))).map(savedSearchView) };
  },
});
