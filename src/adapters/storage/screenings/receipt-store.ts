import type { Kysely } from "kysely";
import type { ReceiptBody, ReceiptSignature, SignedReceipt } from "../../../domain/screenings/receipt.ts";
import type { ScreeningReceiptStore } from "../../../interfaces/screenings.ts";
import type { Database } from "../schema.ts";

/** Screening receipts in the main store, both engines: the signed body as JSON text, keyed by id and read only with the account that screened. */
export class SqlScreeningReceiptStore implements ScreeningReceiptStore {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async record(body: ReceiptBody, canonicalBody: string, signature: ReceiptSignature): Promise<void> {
    await this.#db
      .insertInto("screening_receipts")
      .values({ id: body.screeningId, account_id: body.requestedBy.accountId, screened_at: Date.parse(body.screenedAt), body: canonicalBody, kid: signature.kid, signature: signature.value })
      .execute();
  }

  async get(accountId: string, screeningId: string): Promise<SignedReceipt | null> {
    const r = await this.#db.selectFrom("screening_receipts").select(["body", "kid", "signature"]).where("id", "=", screeningId).where("account_id", "=", accountId).executeTakeFirst();
    if (!r) return null;
    return { ...(JSON.parse(r.body) as Omit<SignedReceipt, "signature">), signature: { alg: "EdDSA", kid: r.kid, canonicalization: "RFC 8785", value: r.signature } };
  }

  async deleteScreenedBefore(cutoff: number): Promise<number> {
    const r = await this.#db.deleteFrom("screening_receipts").where("screened_at", "<", cutoff).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
