import { z } from "zod";
import { accountOf } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { savedSearchView, SavedSearchSchema } from "./projections/saved-search-view.ts";

export const savedSearchesList = defineAccountOperation({
  id: "account.saved-searches.list",
  method: "GET",
  path: "/api/v1/account/saved-searches",
  summary: "The account's saved searches",
  description: "Every saved search of the account. Free.",
  input: z.strictObject({}),
  output: { data: z.array(SavedSearchSchema) },
  responseType: "saved_searches",
  async run(ctx) {
    return { data: (await ctx.services.alerts.listSavedSearches(accountOf(ctx))).map(savedSearchView) };
  },
});
