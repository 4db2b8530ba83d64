/** Screening receipts and the key that signs them (migration 0026). */

export interface ScreeningReceiptsTable {
  /** `scr_...`, random (domain/screenings/receipt.ts). */
  id: string;
  account_id: string;
  /** Epoch ms: what the retention sweep compares. */
  screened_at: number;
  /** The receipt body's canonical text (RFC 8785): exactly the text that was signed. */
  body: string;
  kid: string;
  /** base64url Ed25519 signature over the body's RFC 8785 form. */
  signature: string;
}

export interface ScreeningKeysTable {
  /** 1 for the deployment's first key; a rotation would add the next number. The primary key makes "made once" hold across processes. */
  generation: number;
  kid: string;
  /** The 32-byte public key, base64url (JWK `x`). */
  public_key: string;
  /** The PKCS#8 private key (base64), sealed by the secrets key (secret-box.ts): a copy of the database alone cannot sign. */
  private_key: string;
  created_at: number;
}
