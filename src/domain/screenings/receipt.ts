import { z } from "zod";
import { randomBase62 } from "../secrets.ts";
import { SANCTIONS_LISTS } from "../sanctions/designation.ts";

/**
 * A screening receipt: what a screening answered, to whom, when and against which list
 * versions, signed by the service (docs/screening-receipts.md). Declared once here; the
 * operation's output schema, the store's rows and the signer's input are all this shape.
 */

/** Names this shape and its canonical form; a receipt of another shape would get another name. */
export const RECEIPT_FORMAT = "mds.screening-receipt/1";

/** `scr_` and 22 base62 characters (about 131 bits): random, so an id says nothing of any other. */
export const SCREENING_ID_PATTERN = /^scr_[0-9A-Za-z]{22}$/;

export const SCREENING_ID_RULE = "must be a screening id: scr_ followed by 22 letters and digits, as a screening answer's `screeningId` gives it";

export function newScreeningId(): string {
  return `scr_${randomBase62(22)}`;
}

export const ListVersionUsedSchema = z.object({
  list: z.enum(SANCTIONS_LISTS).describe("The list family, as `lists=` names it."),
  versionId: z.number().int().nullable().describe("The stored version the screening read; null when the list was never loaded (nothing of it was checked)."),
  asOf: z.string().nullable().describe("The day that version stands for (yyyy-mm-dd)."),
  importedAt: z.string().nullable().describe("When that version was imported (ISO 8601)."),
  extract: z.boolean().describe("True when the version is a dated extract of the list, not the list as published: a no-match on it clears nothing."),
});

export type ListVersionUsed = z.infer<typeof ListVersionUsedSchema>;

/** Everything that is signed: the receipt without its `signature`. */
export const ReceiptBodySchema = z.object({
  format: z.literal(RECEIPT_FORMAT),
  screeningId: z.string(),
  screenedAt: z.string().describe("When the screening was answered (ISO 8601, UTC)."),
  operation: z.object({ id: z.string(), method: z.string(), path: z.string() }).describe("The operation that answered, as in the OpenAPI document."),
  input: z.record(z.string(), z.unknown()).describe("The parameters as the caller gave them (path, query and body), before they were parsed."),
  requestedBy: z
    .object({
      accountId: z.string(),
      credentialId: z.string().describe("The API key id (`key_...`), or `grant:<id>` for an MCP client connected through OAuth; never a secret."),
    })
    .describe("The account that screened, and the credential it used."),
  listVersions: z.array(ListVersionUsedSchema).describe("Every requested list with the version the answer rests on."),
  answer: z.record(z.string(), z.unknown()).describe("The answer exactly as the caller received it (the REST envelope, the MCP structured content without `commercialScope`), after source rights were applied."),
});

export type ReceiptBody = z.infer<typeof ReceiptBodySchema>;

export const ReceiptSignatureSchema = z.object({
  alg: z.literal("EdDSA").describe("Ed25519 (RFC 8032), as JOSE names it."),
  kid: z.string().describe("The key that signed: a `kid` of the key set at /.well-known/screening-keys.json."),
  canonicalization: z.literal("RFC 8785").describe("The receipt without `signature`, canonicalized by RFC 8785 (JCS), as UTF-8, is what was signed."),
  value: z.string().describe("The 64-byte signature, base64url without padding."),
});

export type ReceiptSignature = z.infer<typeof ReceiptSignatureSchema>;

export const SignedReceiptSchema = ReceiptBodySchema.extend({ signature: ReceiptSignatureSchema });

export type SignedReceipt = z.infer<typeof SignedReceiptSchema>;
