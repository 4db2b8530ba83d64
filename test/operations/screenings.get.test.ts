import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash, createPublicKey, verify } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { canonicalJson } from "../../src/domain/screenings/canonical-json.ts";
import { SqlReceiptSigner } from "../../src/adapters/storage/screenings/receipt-signer.ts";
import { loadSecretBox } from "../../src/adapters/storage/accounts/secret-keys.ts";
import { sweepReceipts } from "../../src/compose/receipt-sweep.ts";
import { billingPeriod } from "../../src/operations/billing-period.ts";
import { PLANS } from "../../src/domain/plans.ts";
import { execute } from "../../src/operations/execute.ts";
import { screen } from "../../src/operations/screen.ts";
import { PROJECT_ROOT } from "../../src/main.ts";
import { ENGINES, get, startTestService, type TestService } from "../helpers/service.ts";
import { importFile, OFAC_2024_05_03 } from "../helpers/sanctions.ts";

/**
 * A verifier written apart from the service: node:crypto, its own RFC 8785 canonicalization
 * (enough of it for JSON as parsed: sorted members, JSON.stringify's strings and numbers), the
 * key fetched over HTTP from the published address. It shares no code with the signer.
 */
function jcs(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(jcs).join(",")}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${jcs((v as Record<string, unknown>)[k])}`).join(",")}}`;
}

async function verifyReceipt(receiptText: string, keysUrl: string): Promise<boolean> {
  const receipt = JSON.parse(receiptText) as { signature: { alg: string; kid: string; canonicalization: string; value: string } } & Record<string, unknown>;
  const { keys } = (await (await fetch(keysUrl)).json()) as { keys: { kid: string; kty: string; crv: string; x: string }[] };
  const jwk = keys.find((k) => k.kid === receipt.signature.kid);
  if (!jwk || receipt.signature.alg !== "EdDSA" || receipt.signature.canonicalization !== "RFC 8785") return false;
  // The key id is the key's RFC 7638 thumbprint: checked too, so a key set cannot swap keys under a kid.
  const thumbprint = createHash("sha256").update(`{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}"}`).digest("base64url");
  if (thumbprint !== jwk.kid) return false;
  const { signature, ...signed } = receipt;
  const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: "jwk" });
  return verify(null, Buffer.from(jcs(signed), "utf8"), key, Buffer.from(signature.value, "base64url"));
}

async function receiptCount(t: TestService): Promise<number> {
  const r = await t.service.store.db.selectFrom("screening_receipts").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(r.n);
}

for (const engine of ENGINES) {
  describe(`screening receipts: /screen's screeningId and GET /api/v1/screenings/{id} (${engine})`, () => {
    let t: TestService;
    let base: string;
    let mine: { key: string; keyId: string; accountId: string };
    let other: { key: string; keyId: string; accountId: string };
    before(async () => {
      t = await startTestService({ engine, withData: false });
      await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
      mine = await t.key("growth", "screener");
      other = await t.key("growth", "someone else");
      base = await t.service.app.listen({ port: 0, host: "127.0.0.1" });
    });
    after(() => t.close());

    it("a screening answer carries a screeningId, and the receipt holds that answer, the versions, the time, the caller and the input", async () => {
      const screened = await get(t, "/api/v1/screen?ids=9187629,9074729&lists=ofac,uk", mine.key);
      assert.equal(screened.status, 200);
      const id = screened.body.screeningId as string;
      assert.match(id, /^scr_[0-9A-Za-z]{22}$/);
      assert.deepEqual(Object.keys(screened.body).slice(2, 4), ["screeningId", "method"], "at the top, before the screening's own fields");

      const r = await get(t, `/api/v1/screenings/${id}`, mine.key);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.headers["x-credits-cost"], "0");
      assert.equal(r.body.type, "screening_receipt");
      const receipt = r.body.data;
      assert.deepEqual(receipt.answer, screened.body, "the answer exactly as it was sent");
      assert.equal(receipt.screeningId, id);
      assert.equal(receipt.format, "mds.screening-receipt/1");
      assert.equal(receipt.screenedAt, new Date(t.clock.now()).toISOString());
      assert.deepEqual(receipt.operation, { id: "screen", method: "GET", path: "/api/v1/screen" });
      assert.deepEqual(receipt.input, { ids: "9187629,9074729", lists: "ofac,uk" });
      assert.deepEqual(receipt.requestedBy, { accountId: mine.accountId, credentialId: mine.keyId });
      const ofacVersion = (await t.service.services.sanctions.listStates()).find((s) => s.list === "ofac")!;
      assert.deepEqual(receipt.listVersions, [
        { list: "ofac", versionId: ofacVersion.versionId, asOf: "2024-05-03", importedAt: new Date(ofacVersion.importedAt!).toISOString(), extract: false },
        { list: "uk", versionId: null, asOf: null, importedAt: null, extract: false },
      ]);
      assert.ok(Number.isInteger(ofacVersion.versionId));
      assert.equal(receipt.signature.alg, "EdDSA");
      assert.equal(receipt.signature.canonicalization, "RFC 8785");
    });

    it("a receipt verifies with the key published at /.well-known/screening-keys.json, and fails after one byte of it is changed", async () => {
      const id = (await get(t, "/api/v1/screen?ids=9187629", mine.key)).body.screeningId;
      const res = await fetch(`${base}/api/v1/screenings/${id}`, { headers: { authorization: `Bearer ${mine.key}` } });
      const envelope = (await res.json()) as { data: unknown };
      const receiptText = JSON.stringify(envelope.data, null, 2);
      const keysUrl = `${base}/.well-known/screening-keys.json`;
      assert.equal(await verifyReceipt(receiptText, keysUrl), true);

      // One byte: the answer's count of sanctioned vessels, 1 -> 0.
      const at = receiptText.indexOf('"sanctionedCount": 1');
      assert.ok(at > 0);
      const changed = Buffer.from(receiptText, "utf8");
      const digit = at + '"sanctionedCount": '.length;
      changed[digit] = "0".charCodeAt(0);
      assert.equal(changed.filter((b, i) => b !== Buffer.from(receiptText)[i]).length, 1);
      assert.equal(await verifyReceipt(changed.toString("utf8"), keysUrl), false);
      // And one byte of the time, and one of the signature itself.
      assert.equal(await verifyReceipt(receiptText.replace(/"screenedAt": "(\d)/, (_m, d: string) => `"screenedAt": "${(Number(d) + 1) % 10}`), keysUrl), false);
      assert.equal(await verifyReceipt(receiptText.replace(/"value": "(.)/, (_m, c: string) => `"value": "${c === "A" ? "B" : "A"}`), keysUrl), false);
    });

    it("the verifier docs/screening-receipts.md gives, run as written, says valid, and INVALID once the receipt is changed", async () => {
      const doc = readFileSync(join(PROJECT_ROOT, "docs/screening-receipts.md"), "utf8");
      const script = /```js\n([\s\S]*?)```/.exec(doc)![1]!;
      const dir = mkdtempSync(join(tmpdir(), "mds-verify-"));
      try {
        writeFileSync(join(dir, "verify.mjs"), script);
        const id = (await get(t, "/api/v1/screen?ids=9187629", mine.key)).body.screeningId;
        const receipt = (await get(t, `/api/v1/screenings/${id}`, mine.key)).body.data;
        writeFileSync(join(dir, "receipt.json"), JSON.stringify(receipt));
        writeFileSync(join(dir, "changed.json"), JSON.stringify({ ...receipt, screenedAt: "2020-01-01T00:00:00.000Z" }));
        const run = async (file: string) => (await promisify(execFile)(process.execPath, [join(dir, "verify.mjs"), join(dir, file), base])).stdout.trim();
        assert.equal(await run("receipt.json"), "valid");
        assert.equal(await run("changed.json"), "INVALID: the receipt was changed");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("the key set is public, one Ed25519 key whose private half is stored sealed", async () => {
      const res = await fetch(`${base}/.well-known/screening-keys.json`);
      assert.equal(res.status, 200);
      const { keys } = (await res.json()) as { keys: Record<string, string>[] };
      assert.equal(keys.length, 1);
      assert.deepEqual(Object.keys(keys[0]!).sort(), ["alg", "crv", "kid", "kty", "use", "x"]);
      assert.deepEqual([keys[0]!.kty, keys[0]!.crv, keys[0]!.alg, keys[0]!.use], ["OKP", "Ed25519", "EdDSA", "sig"]);
      assert.equal(Buffer.from(keys[0]!.x!, "base64url").length, 32);
      const row = await t.service.store.db.selectFrom("screening_keys").selectAll().executeTakeFirstOrThrow();
      assert.match(row.private_key, /^v1:[0-9a-f]{8}:/, "sealed by the secrets key");
      const doc = (await get(t, "/api/v1/openapi.json")).body;
      assert.ok(doc.paths["/.well-known/screening-keys.json"].get);
      assert.ok(doc.paths["/api/v1/screenings/{id}"].get);
      assert.ok(doc.paths["/api/v1/screen"].get.responses["200"].content["application/json"].schema.properties.screeningId);
    });

    it("another account cannot read a receipt: the same 404 as an id that never existed", async () => {
      const id = (await get(t, "/api/v1/screen?ids=9187629", mine.key)).body.screeningId;
      const theirs = await get(t, `/api/v1/screenings/${id}`, other.key);
      const never = await get(t, "/api/v1/screenings/scr_0000000000000000000000", other.key);
      assert.equal(theirs.status, 404);
      assert.equal(theirs.body.error.code, "not_found");
      assert.equal(never.status, 404);
      assert.equal(theirs.body.error.message.replace(id, "ID"), never.body.error.message.replace("scr_0000000000000000000000", "ID"));
      assert.equal((await get(t, `/api/v1/screenings/${id}`)).status, 401, "no key at all");
    });

    it("garbage ids are refused with 400 naming the parameter and the rule", async () => {
      for (const bad of ["abc", "scr_", "scr_short", "scr_000000000000000000000-", "SCR_0000000000000000000000", "scr_00000000000000000000000", "wh_12", "%00", "scr_%E2%82%AC000000000000000000000", "'%20OR%201=1"]) {
        const r = await get(t, `/api/v1/screenings/${bad}`, mine.key);
        assert.equal(r.status, 400, bad);
        assert.equal(r.body.error.code, "invalid_parameter", bad);
        assert.equal(r.body.error.param, "id", bad);
        assert.match(r.body.error.rule, /^must be a screening id: scr_ followed by 22 letters and digits/, bad);
      }
      const unknown = await get(t, "/api/v1/screenings/scr_0000000000000000000000?extra=1", mine.key);
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error.param, "extra");
    });

    it("only a successful, charged answer gets a receipt: refused input, exhausted credits and a free page view keep none", async () => {
      const before = await receiptCount(t);
      assert.equal((await get(t, "/api/v1/screen?ids=9074728", mine.key)).status, 400);
      const poor = await t.key("sandbox", "poor");
      await t.service.services.ledger.setUsed(poor.accountId, billingPeriod(t.clock.now()), PLANS.sandbox.monthlyCredits);
      const exhausted = await get(t, "/api/v1/screen?ids=9187629", poor.key);
      assert.equal(exhausted.body.error.code, "credits_exhausted");
      assert.equal(exhausted.body.screeningId, undefined);
      assert.equal(await receiptCount(t), before);
      // A page view (the `web` use) is not metered in credits, so it is not a charged screening.
      const principal = await t.service.pipeline.auth.authenticate(`Bearer ${mine.key}`, true, "127.0.0.1");
      const page = await execute(t.service.pipeline, screen, principal, { params: {}, query: { ids: "9187629" }, baseUrl: "http://x", requestId: "req_page", use: "web" });
      assert.ok(page.ok);
      assert.equal(page.metering.credits.cost, 0);
      assert.equal((page.top as Record<string, unknown>).screeningId, undefined);
      assert.equal(await receiptCount(t), before);
      const ok = await get(t, "/api/v1/screen?ids=9187629", mine.key);
      assert.equal(ok.status, 200);
      assert.equal(await receiptCount(t), before + 1);
    });

    it("an operation with receipt: \"screening\" whose run names no list versions fails, refunded and without a receipt, instead of keeping half a receipt", async () => {
      const before = await receiptCount(t);
      const forgetful = { ...screen, run: async (...a: Parameters<typeof screen.run>) => ({ ...(await screen.run(...a)), listVersions: undefined }) };
      const principal = await t.service.pipeline.auth.authenticate(`Bearer ${mine.key}`, true, "127.0.0.1");
      const used = async () => (await get(t, "/api/v1/usage", mine.key)).body.data.credits.used as number;
      const usedBefore = await used();
      const r = await execute(t.service.pipeline, forgetful, principal, { params: {}, query: { ids: "9187629" }, baseUrl: "http://x", requestId: "req_forgetful" });
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.error.code, "internal_error");
      assert.equal(r.metering.credits.cost, 0);
      assert.equal(await used(), usedBefore);
      assert.equal(await receiptCount(t), before);
    });

    it("receipts past SCREENING_RETENTION (5 years by default) are swept; younger ones stay", async () => {
      const old = (await get(t, "/api/v1/screen?ids=9187629", mine.key)).body.screeningId;
      t.clock.t += 2 * 365 * 86_400_000;
      const young = (await get(t, "/api/v1/screen?ids=9187629", mine.key)).body.screeningId;
      t.clock.t += 3 * 365 * 86_400_000 + 2 * 86_400_000;
      assert.ok((await sweepReceipts(t.service)) >= 1);
      assert.equal((await get(t, `/api/v1/screenings/${old}`, mine.key)).status, 404);
      assert.equal((await get(t, `/api/v1/screenings/${young}`, mine.key)).status, 200);
    });
  });

  describe(`the receipt key is made once per deployment (${engine})`, () => {
    let t: TestService;
    before(async () => {
      t = await startTestService({ engine, withData: false });
    });
    after(() => t.close());

    it("processes making the first key at once end up signing with one key", async () => {
      const box = loadSecretBox({ secretsKey: undefined, secretsKeyPrevious: undefined, dataDir: t.service.config.dataDir });
      const signers = [0, 1, 2].map(() => new SqlReceiptSigner(t.service.store.db, box, t.clock));
      const sets = await Promise.all(signers.map((s) => s.publicKeys()));
      for (const set of sets) assert.deepEqual(set, sets[0]);
      assert.equal(sets[0]!.length, 1);
      const body = { format: "mds.screening-receipt/1" as const, screeningId: "scr_0000000000000000000000", screenedAt: "2026-11-20T12:00:00.000Z", operation: { id: "screen", method: "GET", path: "/api/v1/screen" }, input: {}, requestedBy: { accountId: "acc_x", credentialId: "key_x" }, listVersions: [], answer: {} };
      const kids = await Promise.all([...signers, t.service.services.receiptSigner].map(async (s) => (await s.sign(canonicalJson(body))).kid));
      assert.deepEqual(new Set(kids), new Set([sets[0]![0]!.kid]));
    });
  });
}
