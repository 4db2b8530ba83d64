// Robustness: the decoder never throws, never emits a corrupted message from a
// corrupted sentence, and accounts for every line in stats().
import assert from "node:assert/strict";
import { test } from "node:test";
import { type AisDecoder, createAisDecoder, type DecodedAisMessage, EVENT_REASONS } from "../../../src/domain/ais/index.ts";
import { frame, prng, tagBlock } from "../../helpers/ais-sentences.ts";

const AT = 1_700_000_000_000;
const REAL: string[] = [
  "!AIVDM,1,1,,B,13U4vF0P001d<UnEeSmQ>gv`04hd,0*4C",
  "!AIVDM,1,1,,A,B3KLehP0B@LTN6`Vl;rrBE063P06,0*5A",
  "!AIVDM,1,1,,A,K3KLehP0rPTJ10Qr,0*2A",
  "!AIVDM,1,1,,B,;4R33:1uUK2F`q?mOt@@GoQ00000,0*5D,s28089,d-103,T39.44353985,x147521,r08TPHI1,1242958962",
  "!AIVDM,2,1,6,A,53R=aR800001=SC?7@1HE8LTp40000000000000l0`?2453a052Dm23B@@00,0*72",
  "!AIVDM,2,2,6,A,00000000002,2*20",
  "!AIVDM,2,1,5,B,ENk`sBG37a:@84Ra1Rh4W62b@61=8Ab37o5n,0*1A",
  "!AIVDM,2,2,5,B,000003vP08=P,0*50",
  "\\s:station1,c:1700000000*71\\!AIVDM,1,1,,B,13U4vF0P001d<UnEeSmQ>gv`04hd,0*4C",
];

/** Every field of a message is null, a boolean, a string or a finite number. */
function assertSane(m: DecodedAisMessage, line: string): void {
  assert.ok(Number.isInteger(m.type) && m.type >= 0 && m.type < 64, line);
  assert.ok(Number.isInteger(m.mmsi) && m.mmsi >= 0 && m.mmsi < 2 ** 30, line);
  for (const [k, v] of Object.entries(m)) {
    const ok = v === null || typeof v === "boolean" || typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
    assert.ok(ok, `${k}=${String(v)} in ${JSON.stringify(line)}`);
  }
}

function feedChecked(dec: AisDecoder, line: string, t: number, source = "g"): DecodedAisMessage | null {
  let m: DecodedAisMessage | null = null;
  assert.doesNotThrow(() => {
    m = dec.feed(line, { source, receivedAt: t });
  }, JSON.stringify(line.slice(0, 200)));
  if (m !== null) assertSane(m, line);
  return m;
}

function assertAccounted(dec: AisDecoder): void {
  const st = dec.stats();
  assert.equal(st.lines, st.messages + st.fragments + st.rejected);
  let lineReasons = 0;
  for (const [r, n] of Object.entries(st.reasons)) if (!EVENT_REASONS.has(r as never)) lineReasons += n;
  assert.equal(lineReasons, st.rejected);
}

test("random bytes and random code units", () => {
  const rnd = prng(1);
  const dec = createAisDecoder({ maxPending: 100 });
  for (let i = 0; i < 20000; i++) {
    const len = Math.floor(rnd() * 120);
    const wide = i % 4 === 0;
    let s = "";
    for (let k = 0; k < len; k++) s += String.fromCharCode(Math.floor(rnd() * (wide ? 0x10000 : 256)));
    // Bias some lines toward the start of a sentence so the deeper checks run.
    if (i % 3 === 0) s = "!AIVDM," + s;
    if (i % 7 === 0) s = "\\" + s;
    feedChecked(dec, s, AT + i);
  }
  assertAccounted(dec);
  assert.ok(dec.stats().rejected > 19000);
});

test("random well-framed sentences (valid checksum, random fields)", () => {
  const rnd = prng(2);
  const pick = (chars: string): string => chars[Math.floor(rnd() * chars.length)]!;
  const armorChars = "0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVW`abcdefghijklmnopqrstuvw";
  const dec = createAisDecoder({ maxPending: 50, fragmentTimeoutMs: 1000 });
  let emitted = 0;
  for (let i = 0; i < 20000; i++) {
    const total = pick("1112239x0");
    const num = pick("112349");
    const seq = pick("  0123456789x");
    const chan = pick("AB12 ");
    const fill = pick("0000012345679x");
    let payload = "";
    const plen = Math.floor(rnd() * 90);
    for (let k = 0; k < plen; k++) payload += rnd() < 0.995 ? pick(armorChars) : pick("xyz!*,\\$");
    const body = `${pick("AASB")}${pick("IBAI")}${rnd() < 0.95 ? "VDM" : "VDO"},${total},${num},${seq.trim()},${chan.trim()},${payload},${fill}`;
    const line = (rnd() < 0.1 ? tagBlock(`g:${num}-${total}-${Math.floor(rnd() * 3)},s:r${Math.floor(rnd() * 3)}`) : "") + frame(body);
    if (feedChecked(dec, line, AT + i * 50, `src${Math.floor(rnd() * 3)}`) !== null) emitted++;
  }
  assertAccounted(dec);
  // Random payloads are mostly longer than a position report may be: those reached the type decoder too.
  const reachedTypes = emitted + dec.stats().reasons.illegal_length;
  assert.ok(reachedTypes > 1000, `only ${reachedTypes} random messages reached the type decoders`);
  assert.ok(dec.stats().pending <= 50);
});

test("every prefix (truncation) of real sentences", () => {
  const dec = createAisDecoder();
  for (const s of REAL) {
    for (let n = 0; n <= s.length; n++) feedChecked(dec, s.slice(0, n), AT);
  }
  assertAccounted(dec);
});

test("huge lines", () => {
  const dec = createAisDecoder();
  const big = 1_000_000;
  const lines = [
    "A".repeat(big),
    "!".repeat(big),
    "\\".repeat(big),
    ",".repeat(big),
    "*".repeat(big),
    frame(`AIVDM,1,1,,A,${"1".repeat(big)},0`),
    frame(`AIVDM,1,1,,A,${"w".repeat(400)},0`),
    "\\" + "s:x,".repeat(big / 4) + "*00\\" + REAL[0],
    REAL[0] + ",".repeat(big),
    `${" ".repeat(big)}${REAL[0]}${" ".repeat(big)}`,
  ];
  for (const l of lines) feedChecked(dec, l, AT);
  assertAccounted(dec);
  const st = dec.stats();
  assert.equal(st.reasons.line_too_long, 2);
  // The real sentence behind whitespace, after a bad tag block or before a comma
  // trailer still decodes; 400 'w' are a (meaningless) type 63 message.
  assert.deepEqual(st.byType, { "1": 3, "63": 1 });
});

test("every single-character mutation of real sentences", () => {
  const replacements: string[] = [];
  for (let c = 32; c < 127; c++) replacements.push(String.fromCharCode(c));
  replacements.push("\u0000", "\r", "\n", "\t", "\u007f", "\u00e9", "\uffff", "\ud800", "");
  let total = 0;
  let accepted = 0;
  for (const [idx, s] of REAL.entries()) {
    // Fragment 1 is followed by its intact fragment 2; fragment 2 is preceded by its intact fragment 1.
    const first = s.includes(",2,1,");
    const second = s.includes(",2,2,");
    const next = first ? REAL[idx + 1]! : null;
    const prev = second ? REAL[idx - 1]! : null;
    const bang = s.indexOf("!");
    const star = s.indexOf("*", bang);
    const refDec = createAisDecoder();
    if (prev !== null) refDec.feed(prev, { source: "r", receivedAt: AT });
    let ref = refDec.feed(s, { source: "r", receivedAt: AT });
    if (next !== null) ref = refDec.feed(next, { source: "r", receivedAt: AT });
    assert.ok(ref !== null, s);
    const dec = createAisDecoder();
    for (let i = 0; i < s.length; i++) {
      for (const r of replacements) {
        if (r === s[i]) continue;
        const mutated = s.slice(0, i) + r + s.slice(i + 1);
        total++;
        // A fresh key per mutation so buffered fragments never interact.
        const source = `m${total}`;
        if (prev !== null) feedChecked(dec, prev, AT, source);
        let m = feedChecked(dec, mutated, AT, source);
        if (next !== null && m === null) m = feedChecked(dec, next, AT, source);
        if (m === null) continue;
        accepted++;
        const where = `${JSON.stringify(mutated)} (index ${i})`;
        if (i < bang) {
          // Inside the tag block: the sentence is intact; the tags are dropped.
          assert.equal(m.mmsi, ref.mmsi, where);
          assert.ok(m.station === null || m.station === ref.station, where);
          continue;
        }
        // Between '!' and '*' every change alters the checksum: nothing may pass.
        assert.ok(i > star, `corrupted sentence accepted: ${where}`);
        if (i <= star + 2) {
          // The checksum digits: only a change of letter case keeps the value.
          assert.equal(r.toUpperCase(), s[i]!.toUpperCase(), where);
        }
        assert.deepEqual({ ...m, source: null }, { ...ref, source: null }, where);
      }
    }
    assertAccounted(dec);
  }
  assert.ok(total > 5000);
  assert.ok(accepted > 0);
});
