import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ReceiptSigner } from "../../interfaces/screenings.ts";
import { errorBody } from "../../operations/envelope.ts";
import { asAppError } from "../../operations/call.ts";

/** Where the keys that sign screening receipts are published (docs/screening-receipts.md). */
export const SCREENING_KEYS_PATH = "/.well-known/screening-keys.json";

/**
 * The public keys of screening receipts as a JSON Web Key Set (RFC 7517; OKP/Ed25519 keys per
 * RFC 8037), public and unmetered like the OAuth metadata: an auditor needs no account to check
 * a receipt. Every key that signed a stored receipt is listed, the current one first.
 */
export function registerScreeningKeysRoute(app: FastifyInstance, signer: ReceiptSigner, baseOf: (req: FastifyRequest) => string): void {
  app.get(SCREENING_KEYS_PATH, async (req, reply) => {
    try {
      const keys = await signer.publicKeys();
      // Keys change only by rotation, which keeps the old ones listed: caching for minutes loses nothing.
      return reply.header("cache-control", "public, max-age=300").header("content-type", "application/json; charset=utf-8").send(JSON.stringify({ keys }));
    } catch (e) {
      const error = asAppError(e);
      req.log.error({ err: e }, "the screening keys could not be read");
      return reply.code(error.status).send(errorBody(error, { baseUrl: baseOf(req), requestId: req.id }));
    }
  });
}

/** The key set's entry in the OpenAPI document, beside the operations. */
export const SCREENING_KEYS_OPENAPI = {
  get: {
    operationId: "screening-keys",
    summary: "The public keys that sign screening receipts (JWKS)",
    description: "A JSON Web Key Set of Ed25519 keys (`kty` OKP, `crv` Ed25519, `alg` EdDSA); a receipt's `signature.kid` names the key that signed it. Public: no key needed, no credits. See docs/screening-receipts.md.",
    security: [],
    responses: {
      "200": {
        description: "The key set",
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["keys"],
              properties: {
                keys: {
                  type: "array",
                  items: {
                    type: "object",
                    required: ["kty", "crv", "x", "kid", "alg", "use"],
                    properties: {
                      kty: { const: "OKP" },
                      crv: { const: "Ed25519" },
                      x: { type: "string", description: "The 32-byte public key, base64url" },
                      kid: { type: "string", description: "RFC 7638 thumbprint of the key" },
                      alg: { const: "EdDSA" },
                      use: { const: "sig" },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};
