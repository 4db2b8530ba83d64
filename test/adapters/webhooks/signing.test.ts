/** Signatures (spec 6.3 in docs/spec-excerpts.md; docs/webhook-testing.md checklist S-1, S-3, S-4, S-9; Q-3). */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";
import Stripe from "stripe";
import { newWebhookSecret, signatureHeader, signPayload, verifySignature } from "../../../src/domain/webhooks/signature.ts";
import { requireOpenssl } from "../../helpers/webhooks.ts";

const stripe = new Stripe("sk_test_unused_for_webhook_verification");
const SECRET = "whsec_2Nw5Q8yXb3RkT7mVh1cJ9pLz4sDfGa6E";
const T = 1_795_176_000;
const BODY = '{"id":"evt_1","type":"alert.sanctions","text":"Ärzte – ✓"}';

describe("webhook signatures", () => {
  it("S-1: matches the golden vector (computed with openssl dgst -hmac): lowercase hex, no spaces", () => {
    assert.equal(signPayload(SECRET, T, BODY), "ad42d650569fec926198b9513315f08c774ea6ae6c6fe45cd381c7561d62de6b");
    const header = signatureHeader([SECRET], T, BODY);
    assert.equal(header, `t=${T},v1=ad42d650569fec926198b9513315f08c774ea6ae6c6fe45cd381c7561d62de6b`);
    assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it("S-1: openssl, node:crypto and stripe-node agree on a body with multi-byte UTF-8 and U+2028", () => {
    const openssl = requireOpenssl();
    const body = '{"id":"evt_2","text":"line\u2028sep Ünïcödé 🚢"}';
    const out = execFileSync(openssl, ["dgst", "-sha256", "-hmac", SECRET, "-hex"], { input: Buffer.from(`${T}.${body}`, "utf8") }).toString();
    assert.equal(out.trim().split("= ")[1], signPayload(SECRET, T, body));
    assert.doesNotThrow(() => stripe.webhooks.constructEvent(Buffer.from(body, "utf8"), signatureHeader([SECRET], T, body), SECRET, 300, undefined, T * 1000));
  });

  it("S-4: the signature covers the exact bytes: re-serialised JSON and changed whitespace fail", () => {
    const body = '{ "id": "evt_3",  "b": 1, "a": "\u2028x" }';
    const header = signatureHeader([SECRET], T, body);
    assert.ok(verifySignature(header, body, SECRET, T).ok);
    const reserialised = JSON.stringify(JSON.parse(body));
    assert.deepEqual(verifySignature(header, reserialised, SECRET, T), { ok: false, reason: "no_match" });
    assert.throws(() => stripe.webhooks.constructEvent(reserialised, header, SECRET, 300, undefined, T * 1000), /No signatures found/);
    assert.deepEqual(verifySignature(header, body.replace("evt_3", "evt_4"), SECRET, T), { ok: false, reason: "no_match" });
  });

  it("S-3 / spec 6.3: 300 s window; the reference verifier also refuses timestamps from the future, stripe-node does not", () => {
    const header = signatureHeader([SECRET], T, BODY);
    const at = (s: number) => verifySignature(header, BODY, SECRET, T + s);
    assert.ok(at(0).ok);
    assert.ok(at(300).ok);
    assert.deepEqual(at(301), { ok: false, reason: "too_old" });
    assert.ok(at(-300).ok);
    assert.deepEqual(at(-301), { ok: false, reason: "too_new" });
    // a worker clock 2 s off either way passes.
    assert.ok(at(2).ok && at(-2).ok);
    assert.doesNotThrow(() => stripe.webhooks.constructEvent(BODY, header, SECRET, 300, undefined, (T + 300) * 1000));
    assert.throws(() => stripe.webhooks.constructEvent(BODY, header, SECRET, 300, undefined, (T + 301) * 1000), /tolerance/);
    assert.doesNotThrow(() => stripe.webhooks.constructEvent(BODY, header, SECRET, 300, undefined, (T - 3600) * 1000), "stripe-node accepts future timestamps");
  });

  it("S-9: during rotation two v1 entries, new first; stripe-node verifies with either secret, and with neither fails", () => {
    const next = newWebhookSecret();
    const header = signatureHeader([next, SECRET], T, BODY);
    assert.match(header, /^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    for (const s of [next, SECRET]) {
      assert.doesNotThrow(() => stripe.webhooks.constructEvent(BODY, header, s, 300, undefined, T * 1000));
      assert.ok(verifySignature(header, BODY, s, T).ok);
    }
    assert.throws(() => stripe.webhooks.constructEvent(BODY, header, newWebhookSecret(), 300, undefined, T * 1000));
  });

  it("S-10: secrets are whsec_ plus 32 base62 characters (about 190 bits), all different", () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => newWebhookSecret()));
    assert.equal(secrets.size, 1000);
    for (const s of secrets) assert.match(s, /^whsec_[0-9A-Za-z]{32}$/);
  });

  it("malformed headers are refused, not thrown on", () => {
    for (const h of ["", "t=abc,v1=00", "v1=" + "0".repeat(64), `t=${T}`, `t=${T},v1=${"A".repeat(64)}`, `t=${T}, v1=${signPayload(SECRET, T, BODY)}`]) {
      assert.equal(verifySignature(h, BODY, SECRET, T).ok, false, h);
    }
  });
});
