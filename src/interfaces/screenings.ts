import type { ReceiptBody, ReceiptSignature, SignedReceipt } from "../domain/screenings/receipt.ts";

/** The public half of a receipt signing key, as a JSON Web Key (RFC 8037: OKP, Ed25519). */
export interface ReceiptPublicKey {
  kty: "OKP";
  crv: "Ed25519";
  /** The 32-byte public key, base64url. */
  x: string;
  kid: string;
  alg: "EdDSA";
  use: "sig";
}

/**
 * The deployment's receipt signing key: made once, shared by every process (the database
 * holds it, sealed), never leaving the service but as its public half.
 */
export interface ReceiptSigner {
  /** Signs a receipt body's canonical form (RFC 8785 text, domain/screenings/canonical-json.ts) with the current key. */
  sign(canonicalBody: string): Promise<ReceiptSignature>;
  /** Every key a stored receipt may have been signed with, current first: the published key set. */
  publicKeys(): Promise<ReceiptPublicKey[]>;
}

/** Screening receipts, kept for the retention period and read back only by the account that screened. */
export interface ScreeningReceiptStore {
  /** Keeps a receipt: its body, that body's canonical text (what was signed, stored as it is) and the signature. */
  record(body: ReceiptBody, canonicalBody: string, signature: ReceiptSignature): Promise<void>;
  /** Null both when there is no such receipt and when it is another account's: nothing tells them apart. */
  get(accountId: string, screeningId: string): Promise<SignedReceipt | null>;
  /** Deletes the receipts screened before `cutoff` (epoch ms); returns how many. */
  deleteScreenedBefore(cutoff: number): Promise<number>;
}
