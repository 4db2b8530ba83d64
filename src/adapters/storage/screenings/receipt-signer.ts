import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import type { Kysely } from "kysely";
import type { ReceiptSignature } from "../../../domain/screenings/receipt.ts";
import type { Clock } from "../../../interfaces/clock.ts";
import type { ReceiptPublicKey, ReceiptSigner } from "../../../interfaces/screenings.ts";
import type { SecretBox } from "../accounts/secret-box.ts";
import type { Database, ScreeningKeysTable } from "../schema.ts";

/**
 * The deployment's Ed25519 receipt key, made on first use and kept in the database so every
 * process (API instances, workers, the command line) signs with the same one. Its private half
 * is sealed by the secrets key (SECRETS_KEY or DATA_DIR/secrets.key), like webhook secrets: a
 * copy of the database alone cannot forge a receipt.
 *
 * Two processes making the first key at once both insert generation 1; the primary key keeps
 * one, and both read back and use that one. Rotation is not built yet: a rotation would insert
 * the next generation, and the older keys stay published so old receipts still verify.
 */
export class SqlReceiptSigner implements ReceiptSigner {
  readonly #db: Kysely<Database>;
  readonly #box: SecretBox;
  readonly #clock: Clock;
  #current: Promise<{ kid: string; key: KeyObject }> | null = null;

  constructor(db: Kysely<Database>, box: SecretBox, clock: Clock) {
    this.#db = db;
    this.#box = box;
    this.#clock = clock;
  }

  async sign(canonicalBody: string): Promise<ReceiptSignature> {
    const { kid, key } = await this.#key();
    // RFC 8785 3.2.4: the canonical text is signed as UTF-8.
    return { alg: "EdDSA", kid, canonicalization: "RFC 8785", value: sign(null, Buffer.from(canonicalBody, "utf8"), key).toString("base64url") };
  }

  async publicKeys(): Promise<ReceiptPublicKey[]> {
    // The set is never empty: an auditor who fetches it before the first screening gets the key that will sign it.
    await this.#key();
    const rows = await this.#db.selectFrom("screening_keys").select(["kid", "public_key"]).orderBy("generation", "desc").execute();
    return rows.map((r) => publicJwk(r.public_key, r.kid));
  }

  /** The current key, read (or made) once per process; a failed read is tried again on the next call. */
  #key(): Promise<{ kid: string; key: KeyObject }> {
    this.#current ??= this.#load().catch((e: unknown) => {
      this.#current = null;
      throw e;
    });
    return this.#current;
  }

  async #load(): Promise<{ kid: string; key: KeyObject }> {
    let row = await this.#latest();
    if (!row) {
      await this.#db.insertInto("screening_keys").values(newKeyRow(this.#box, this.#clock.now(), 1)).onConflict((oc) => oc.column("generation").doNothing()).execute();
      row = await this.#latest();
      if (!row) throw new Error("the receipt signing key could not be stored");
    }
    // Sealed under a previous secrets key (a rotation of SECRETS_KEY): sealed again under the current one.
    const resealed = this.#box.reseal(row.private_key);
    if (resealed !== row.private_key) await this.#db.updateTable("screening_keys").set({ private_key: resealed }).where("generation", "=", row.generation).execute();
    const key = createPrivateKey({ key: Buffer.from(this.#box.open(row.private_key), "base64"), format: "der", type: "pkcs8" });
    return { kid: row.kid, key };
  }

  #latest(): Promise<ScreeningKeysTable | undefined> {
    return this.#db.selectFrom("screening_keys").selectAll().orderBy("generation", "desc").limit(1).executeTakeFirst();
  }
}

function newKeyRow(box: SecretBox, now: number, generation: number): ScreeningKeysTable {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const x = publicKey.export({ format: "jwk" }).x!;
  return {
    generation,
    kid: thumbprint(x),
    public_key: x,
    private_key: box.seal(privateKey.export({ format: "der", type: "pkcs8" }).toString("base64")),
    created_at: now,
  };
}

/** RFC 7638 JWK thumbprint of an Ed25519 key (RFC 8037 3.1 lists its members: crv, kty, x): anyone holding the key can recompute its id. */
function thumbprint(x: string): string {
  return createHash("sha256").update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest("base64url");
}

function publicJwk(x: string, kid: string): ReceiptPublicKey {
  return { kty: "OKP", crv: "Ed25519", x, kid, alg: "EdDSA", use: "sig" };
}
