// AIS decoder throughput, side by side in one run: this project's decoder against the two
// npm decoders that install here (docs/ais-decoding.md), on the same lines, same process.
//
//   npx node bench/ais-decoders.ts [--sentences 300000] [--runs 7]
//
// Input: a realistic receiver mix built from the real sentences of the test vectors
// (test/fixtures/ais): per 20 messages, 16 Class A position reports (types 1-3), 2 Class B
// (type 18), 1 static report (type 5, two sentences) and 1 type 24 part, repeated to the
// target count. Only plain `!AIVDM` sentences (no tag blocks, no trailers) are used, since
// both npm decoders reject those outright; the comparison is on what all three accept.
// Each decoder gets a fresh instance per run and must build its message objects; the
// figures are sentences per second, median and best of the measured rounds.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createAisDecoder } from "../src/domain/ais/index.ts";

const require = createRequire(import.meta.url);
const { AisDecode } = require("ggencoder") as { AisDecode: new (line: string, session: object) => { valid: boolean; mmsi?: number } };
const AisStreamDecoder = (require("ais-stream-decoder") as { default: new (o: object) => any }).default;

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? (process.argv[i + 1] as string) : dflt;
}
const target = Number(arg("sentences", "300000"));
const runs = Number(arg("runs", "7"));

const FIXTURES = new URL("../test/fixtures/ais/", import.meta.url);
const FILES = ["gpsd_sample_aivdm.jsonl", "gpsd_daemon_ais_nmea.jsonl", "gpsd_daemon_ais_18_27.jsonl", "gpsd_daemon_ais_raw_messages.jsonl", "libais_test_data.jsonl", "pyais_test_decode.jsonl"];
const PLAIN = /^!AIVDM,\d,\d,\d?,[AB12]?,[0-9:;<=>?@A-W`a-w]+,[0-5]\*[0-9A-F]{2}$/;

interface Rec {
  nmea?: string[];
  expected?: { type?: number };
}
const pools = new Map<string, string[][]>([
  ["pos", []],
  ["b", []],
  ["static", []],
  ["24", []],
]);
for (const f of FILES) {
  for (const line of readFileSync(new URL(f, FIXTURES), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line) as Rec;
    const type = r.expected?.type;
    const nmea = r.nmea ?? [];
    if (nmea.length === 0 || !nmea.every((l) => PLAIN.test(l))) continue;
    if ((type === 1 || type === 2 || type === 3) && nmea.length === 1) pools.get("pos")!.push(nmea);
    else if (type === 18 && nmea.length === 1) pools.get("b")!.push(nmea);
    else if (type === 5 && nmea.length === 2) pools.get("static")!.push(nmea);
    // Type 24 records of gpsd are merged A+B pairs: two single-sentence messages.
    else if (type === 24) for (const l of nmea) pools.get("24")!.push([l]);
  }
}
const pattern = ["pos", "pos", "pos", "pos", "b", "pos", "pos", "pos", "pos", "static", "pos", "pos", "pos", "pos", "b", "pos", "pos", "pos", "pos", "24"];
const cursor = new Map<string, number>();
const lines: string[] = [];
for (let i = 0; lines.length < target; i++) {
  const kind = pattern[i % pattern.length]!;
  const pool = pools.get(kind)!;
  const k = cursor.get(kind) ?? 0;
  cursor.set(kind, k + 1);
  for (const l of pool[k % pool.length]!) lines.push(l);
}

interface Result {
  name: string;
  medianSec: number;
  bestSec: number;
  messages: number;
}

const WARMUP = 3;

/**
 * Round-robin: every round runs each decoder once, so that the VM's slow and fast
 * spells (2 shared vCPUs; docs/ais-decoding.md) fall on all of them alike.
 */
function measureAll(entries: [string, () => number][]): Result[] {
  const times = entries.map(() => [] as number[]);
  const messages = entries.map(() => 0);
  for (let r = 0; r < runs + WARMUP; r++) {
    entries.forEach(([, once], k) => {
      const t0 = process.hrtime.bigint();
      messages[k] = once();
      const sec = Number(process.hrtime.bigint() - t0) / 1e9;
      if (r >= WARMUP) times[k]!.push(sec);
    });
  }
  return entries.map(([name], k) => {
    const t = times[k]!.sort((a, b) => a - b);
    return { name, medianSec: t[Math.floor(t.length / 2)]!, bestSec: t[0]!, messages: messages[k]! };
  });
}

const ours = () => {
  const dec = createAisDecoder();
  const ctx = { source: "bench", receivedAt: 1_700_000_000_000 };
  let n = 0;
  for (let i = 0; i < lines.length; i++) if (dec.feed(lines[i]!, ctx) !== null) n++;
  return n;
};

const gg = () => {
  const session = {};
  let n = 0;
  for (let i = 0; i < lines.length; i++) {
    const m = new AisDecode(lines[i]!, session);
    if (m.valid) n++;
  }
  return n;
};

/** As a stream user would: write every line, count the messages it emits. */
const asdStream = () => {
  const dec = new AisStreamDecoder({ silent: true });
  let n = 0;
  dec.on("data", () => {
    n++;
  });
  for (let i = 0; i < lines.length; i++) dec.write(lines[i]!);
  return n;
};

/** Its transform called directly: the decoding work alone, without stream buffering. */
const asdDirect = () => {
  const dec = new AisStreamDecoder({ silent: true });
  let n = 0;
  dec.push = () => {
    n++;
    return true;
  };
  const done = () => {};
  for (let i = 0; i < lines.length; i++) dec._transform(lines[i]!, "utf8", done);
  return n;
};

const out = (s: string) => process.stdout.write(`${s}\n`);
out(`node ${process.version}; ${lines.length.toLocaleString("en")} sentences (${pools.get("pos")!.length} distinct type 1-3, ${pools.get("b")!.length} type 18, ${pools.get("static")!.length} type 5, ${pools.get("24")!.length} type 24); median of ${runs} rounds after ${WARMUP} warm-up rounds, decoders interleaved`);
const results = measureAll([
  ["mds (src/domain/ais)", ours],
  ["ggencoder 1.0.10", gg],
  ["ais-stream-decoder 2.1.2, stream write()", asdStream],
  ["ais-stream-decoder 2.1.2, _transform direct", asdDirect],
]);
const rate = (r: Result) => lines.length / r.medianSec;
const peer = Math.max(...results.slice(1).map(rate));
out("");
out("| decoder | messages | median s | sentences/s (median) | best |");
out("|---|---|---|---|---|");
for (const r of results) out(`| ${r.name} | ${r.messages.toLocaleString("en")} | ${r.medianSec.toFixed(3)} | ${Math.round(rate(r)).toLocaleString("en")} | ${Math.round(lines.length / r.bestSec).toLocaleString("en")} |`);
out("");
out(`mds vs the faster npm peer (medians): ${(rate(results[0]!) / peer).toFixed(1)}x (target >= 5x); mds median ${(rate(results[0]!) / 1e6).toFixed(2)}M, best ${(lines.length / results[0]!.bestSec / 1e6).toFixed(2)}M sentences/s (target >= 1.5M)`);
