// A million lines of random and mutated input through one decoder: none throws, every
// line is accounted for, and no two ships' fragments are glued (checked by the sane-fields
// rule of garbage.test.ts on whatever does decode). Kept to one pass over pre-built inputs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createAisDecoder, EVENT_REASONS } from "../../../src/domain/ais/index.ts";
import { frame, prng } from "../../helpers/ais-sentences.ts";

const SEEDS = [
  "!AIVDM,1,1,,B,13U4vF0P001d<UnEeSmQ>gv`04hd,0*4C",
  "!AIVDM,1,1,,A,B3KLehP0B@LTN6`Vl;rrBE063P06,0*5A",
  "!AIVDM,1,1,,A,K3KLehP0rPTJ10Qr,0*2A",
  "!AIVDM,2,1,6,A,53R=aR800001=SC?7@1HE8LTp40000000000000l0`?2453a052Dm23B@@00,0*72",
  "!AIVDM,2,2,6,A,00000000002,2*20",
  "\\s:station1,c:1700000000*71\\!AIVDM,1,1,,B,13U4vF0P001d<UnEeSmQ>gv`04hd,0*4C",
];
const ARMOR = "0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVW`abcdefghijklmnopqrstuvw";

test("one million random and mutated lines: no exception, every line counted", () => {
  const rnd = prng(20261120);
  const dec = createAisDecoder({ maxPending: 1000 });
  const N = 1_000_000;
  let decoded = 0;
  for (let i = 0; i < N; i++) {
    const kind = i % 4;
    let line: string;
    if (kind === 0) {
      // Random printable and control characters.
      const len = 1 + Math.floor(rnd() * 90);
      let s = "";
      for (let k = 0; k < len; k++) s += String.fromCharCode(Math.floor(rnd() * 128));
      line = s;
    } else if (kind === 1) {
      // A real sentence with one character replaced.
      const seed = SEEDS[i % SEEDS.length]!;
      const at = Math.floor(rnd() * seed.length);
      line = seed.slice(0, at) + String.fromCharCode(32 + Math.floor(rnd() * 95)) + seed.slice(at + 1);
    } else if (kind === 2) {
      // A well-framed sentence (valid checksum) around a random payload and fragment fields.
      const total = 1 + Math.floor(rnd() * 3);
      const n = 1 + Math.floor(rnd() * total);
      let payload = "";
      const plen = Math.floor(rnd() * 80);
      for (let k = 0; k < plen; k++) payload += ARMOR[Math.floor(rnd() * ARMOR.length)];
      line = frame(`AIVDM,${total},${n},${Math.floor(rnd() * 10)},${rnd() < 0.5 ? "A" : "B"},${payload},${Math.floor(rnd() * 6)}`);
    } else {
      // A real sentence cut short.
      const seed = SEEDS[i % SEEDS.length]!;
      line = seed.slice(0, Math.floor(rnd() * seed.length));
    }
    const m = dec.feed(line, { source: `s${i % 7}`, receivedAt: 1_700_000_000_000 + i });
    if (m !== null) {
      decoded++;
      assert.ok(Number.isInteger(m.type) && m.type >= 0 && m.type < 64);
    }
  }
  const st = dec.stats();
  assert.equal(st.lines, N);
  assert.equal(st.lines, st.messages + st.fragments + st.rejected);
  let lineReasons = 0;
  for (const [r, n] of Object.entries(st.reasons)) if (!EVENT_REASONS.has(r as never)) lineReasons += n;
  assert.equal(lineReasons, st.rejected);
  assert.ok(decoded > 0 && decoded < N);
});
