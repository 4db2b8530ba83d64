import { z } from "zod";
import { AppError } from "../domain/errors.ts";
import { SCREENING_ID_PATTERN, SCREENING_ID_RULE, SignedReceiptSchema } from "../domain/screenings/receipt.ts";
import { accountOf } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";

const screeningIdParam = z
  .string()
  .refine((v) => SCREENING_ID_PATTERN.test(v), { error: SCREENING_ID_RULE })
  .describe("The `screeningId` a screening answer carried, e.g. `scr_4Tq0cZpM1xYb2VnK8sR3wE`.");

export const screeningsGet = defineAccountOperation({
  id: "screenings.get",
  method: "GET",
  path: "/api/v1/screenings/{id}",
  tool: "get_screening",
  summary: "The signed receipt of an earlier screening",
  description:
    "A screening answer as the caller received it, with the sanctions list versions it rests on (list, version id, as-of date, extract or not), when it was answered, " +
    "the account and credential that asked, the operation and its parameters, and an Ed25519 signature over the receipt's RFC 8785 canonical form, verifiable with the " +
    "keys published at /.well-known/screening-keys.json (docs/screening-receipts.md). Only the account that screened can read it; another account's id is not found. " +
    "Receipts are kept for the deployment's retention period (SCREENING_RETENTION, 5 years by default). Free (rate limited).",
  input: z.strictObject({ id: screeningIdParam }),
  output: { data: SignedReceiptSchema },
  responseType: "screening_receipt",
  async run(ctx, input) {
    const receipt = await ctx.services.screenings.get(accountOf(ctx), input.id);
    // Another account's receipt is the same 404, built fresh, as one that never existed.
    if (!receipt) throw new AppError("not_found", `No screening ${input.id} in this account (receipts are kept for the retention period, then deleted).`);
    return { data: receipt };
  },
});
