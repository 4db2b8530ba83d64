import { z } from "zod";
import { alertLimits } from "../domain/alerts/limits.ts";
import { AppError } from "../domain/errors.ts";
import { accountOf, limitReached, nameField } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { savedSearchView, SavedSearchSchema } from "./projections/saved-search-view.ts";

export const savedSearchesCreate = defineAccountOperation({
  id: "account.saved-searches.create",
  method: "POST",
  path: "/api/v1/account/saved-searches",
  summary: "Save a search",
  description: "Stores a named search (`q` 2 to 100 characters, optional `kind`). Free.",
  input: z.strictObject({}),
  body: z.strictObject({
    name: nameField(100),
    q: z.string().trim().min(2, { error: "must be 2 to 100 characters" }).max(100, { error: "must be 2 to 100 characters" }),
    kind: z.string().regex(/^[a-z_]+(,[a-z_]+)*$/, { error: "must be a comma list of kinds, e.g. vessel,port" }).max(100).optional(),
  }),
  output: { data: SavedSearchSchema },
  responseType: "saved_search",
  async run(ctx, input) {
    const limit = alertLimits(ctx.principal.entitlements).savedSearches;
    const r = await ctx.services.alerts.addSavedSearch(accountOf(ctx), { name: input.name, q: input.q, kind: input.kind ?? null }, limit, ctx.now);
    if (!r.ok) throw r.reason === "limit" ? limitReached("saved searches", r.limit) : new AppError("conflict");
    return { data: savedSearchView(r.value) };
  },
});
