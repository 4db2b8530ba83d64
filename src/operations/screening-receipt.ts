import { z } from "zod";
import type { SanctionsListKey } from "../domain/sanctions/designation.ts";
import { canonicalJson } from "../domain/screenings/canonical-json.ts";
import { RECEIPT_FORMAT, type ListVersionUsed, type ReceiptBody } from "../domain/screenings/receipt.ts";
import type { SanctionsListState } from "../interfaces/sanctions.ts";
import type { Answer } from "./answer.ts";
import type { Call } from "./call.ts";
import { envelopeOf } from "./envelope.ts";
import type { Operation } from "./operation.ts";
import type { Billing } from "./principal.ts";
import type { Services } from "./services.ts";

/**
 * The receipt of a screening answer (operations with `receipt: "screening"`): execute() calls
 * keepReceipt() once the answer is final and charged, so the receipt holds exactly what the
 * caller is sent. Written before the answer leaves: a receipt that cannot be kept fails the call
 * (and refunds it) rather than leaving an answer whose `screeningId` names nothing.
 */

/** The top-level field every answer of such an operation carries (OpenAPI, MCP output schema). */
export const SCREENING_ID_FIELD = {
  screeningId: z
    .string()
    .optional()
    .describe(
      "The id of this answer's signed receipt: GET /api/v1/screenings/{screeningId} returns the same answer later, with the list versions used and an Ed25519 signature (docs/screening-receipts.md). Present on every answer that was charged.",
    ),
};

/** The versions of the requested lists a run read: one entry per list, in the order asked. */
export function listVersionsUsed(states: readonly SanctionsListState[], lists: readonly SanctionsListKey[]): ListVersionUsed[] {
  return lists.map((list) => {
    const s = states.find((st) => st.list === list);
    return {
      list,
      versionId: s?.versionId ?? null,
      asOf: s?.asOf ?? null,
      importedAt: s?.importedAt != null ? new Date(s.importedAt).toISOString() : null,
      extract: s?.extract ?? false,
    };
  });
}

export interface ReceiptFacts {
  op: Operation;
  call: Call;
  /** The final answer, `screeningId` already at its top. */
  answer: Answer;
  screeningId: string;
  billing: Billing;
  listVersions: ListVersionUsed[] | undefined;
  screenedAt: number;
}

/** Signs and stores the receipt of an answer. */
export async function keepReceipt(services: Services, f: ReceiptFacts): Promise<void> {
  // A screening operation that does not say which versions it read is a bug, not an answer to keep.
  if (!f.listVersions) throw new Error(`operation ${f.op.id} has receipt: "screening" but its run() returned no listVersions`);
  const body: ReceiptBody = {
    format: RECEIPT_FORMAT,
    screeningId: f.screeningId,
    screenedAt: new Date(f.screenedAt).toISOString(),
    operation: { id: f.op.id, method: f.op.method, path: f.op.path },
    input: { ...f.call.query, ...f.call.params, ...(f.op.body && f.call.body !== undefined ? { body: f.call.body } : {}) },
    requestedBy: { accountId: f.billing.accountId, credentialId: f.billing.credentialId },
    listVersions: f.listVersions,
    // The envelope REST serializes (MCP sends the same object with commercialScope added); its canonical form is that of the JSON sent.
    answer: envelopeOf(f.op, f.answer, f.call),
  };
  // Canonicalized once: the text is what is signed and what is stored.
  const canonical = canonicalJson(body);
  const signature = await services.receiptSigner.sign(canonical);
  await services.screenings.record(body, canonical, signature);
}
