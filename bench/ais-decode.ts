// AIS decoder throughput: sentences per second on one core.
//
//   npx node bench/ais-decode.ts [--sentences 300000] [--runs 7] [--compare path/to/bench_results.jsonl]
//
// Inputs are built from the real sentences of the test vectors (test/fixtures/ais):
// - "vectors": every record's sentences in file order (gpsd + libais + pyais), repeated
//   until the target count; heavy in types 5/8/21/24, like the notes' "real_300k";
// - "position-mix": the single-sentence position reports (1/2/3/18/27) of the vectors
//   with one two-part type 5 per 33 messages (~3%), like the notes' "synthetic 300k" mix.
// Each run feeds every line through one decoder (fresh per run) and counts messages.
// The figures of other decoders, when a bench_results.jsonl is given, come from another
// run on another day (Node 20); compare orders of magnitude, not percent.

import { existsSync, readFileSync } from "node:fs";
import { createAisDecoder } from "../src/domain/ais/index.ts";

const FIXTURES = new URL("../test/fixtures/ais/", import.meta.url);
const RECORD_FILES = [
  "gpsd_sample_aivdm.jsonl",
  "gpsd_daemon_ais_nmea_type6_fid55.jsonl",
  "gpsd_daemon_ais_nmea.jsonl",
  "gpsd_daemon_ais_raw_messages.jsonl",
  "gpsd_daemon_ais_18_27.jsonl",
  "gpsd_daemon_ais_unpack_sixbit.jsonl",
  "libais_test_data.jsonl",
  "libais_typeexamples.jsonl",
  "libais_tagblock.jsonl",
  "pyais_test_decode.jsonl",
];

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? (process.argv[i + 1] as string) : dflt;
}

const target = Number(arg("sentences", "300000"));
const runs = Number(arg("runs", "7"));
const comparePath = arg("compare", "");

interface Rec {
  nmea?: string[];
  expected?: { type?: number };
}

function records(): Rec[] {
  const out: Rec[] = [];
  for (const f of RECORD_FILES) {
    for (const line of readFileSync(new URL(f, FIXTURES), "utf8").split("\n")) {
      if (line.trim() !== "") out.push(JSON.parse(line) as Rec);
    }
  }
  return out;
}

function repeatTo(groups: string[][], n: number): string[] {
  const out: string[] = [];
  while (out.length < n) for (const g of groups) for (const l of g) out.push(l);
  return out;
}

const recs = records();
const allGroups = recs.map((r) => r.nmea ?? []).filter((g) => g.length > 0);
const positions = recs.filter(
  (r) => r.nmea?.length === 1 && [1, 2, 3, 18, 27].includes(r.expected?.type ?? -1) && !r.nmea[0]!.startsWith("\\"),
);
const statics = recs.filter((r) => r.nmea?.length === 2 && r.expected?.type === 5);
const mixGroups: string[][] = [];
for (let i = 0, k = 0; i < positions.length; i++) {
  mixGroups.push(positions[i]!.nmea!);
  if (i % 32 === 31) mixGroups.push(statics[k++ % statics.length]!.nmea!);
}

const datasets: Array<{ name: string; lines: string[] }> = [
  { name: "vectors", lines: repeatTo(allGroups, target) },
  { name: "position-mix", lines: repeatTo(mixGroups, target) },
];

function runOnce(lines: string[]): { sec: number; messages: number; rejected: number } {
  const dec = createAisDecoder({ fragmentTimeoutMs: 60_000 });
  const ctx = { source: "bench", receivedAt: 1_700_000_000_000 };
  let messages = 0;
  let sink = 0;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < lines.length; i++) {
    const m = dec.feed(lines[i]!, ctx);
    if (m !== null) {
      messages++;
      sink += m.mmsi;
    }
  }
  const sec = Number(process.hrtime.bigint() - t0) / 1e9;
  if (sink === -1) process.stdout.write("");
  return { sec, messages, rejected: dec.stats().rejected };
}

const write = (s: string): void => {
  process.stdout.write(s + "\n");
};

write(`node ${process.version}, ${runs} runs per dataset (first 2 runs are warm-up and not counted)`);
const results: Record<string, number> = {};
for (const ds of datasets) {
  const times: number[] = [];
  let last = { sec: 0, messages: 0, rejected: 0 };
  for (let r = 0; r < runs + 2; r++) {
    last = runOnce(ds.lines);
    if (r >= 2) times.push(last.sec);
  }
  times.sort((a, b) => a - b);
  const best = times[0]!;
  const median = times[Math.floor(times.length / 2)]!;
  const rss = Math.round(process.memoryUsage().rss / 1e6);
  results[ds.name] = ds.lines.length / median;
  write(
    `${ds.name.padEnd(13)} sentences=${ds.lines.length} messages=${last.messages} rejected=${last.rejected} ` +
      `best=${best.toFixed(3)}s median=${median.toFixed(3)}s ` +
      `-> ${Math.round(ds.lines.length / best).toLocaleString("en")} sentences/s best, ` +
      `${Math.round(ds.lines.length / median).toLocaleString("en")} median, rss ${rss} MB`,
  );
}

if (comparePath !== "" && existsSync(comparePath)) {
  write("\nother decoders (bench_results.jsonl: other run, Node 20), median sentences/s:");
  const mine: Record<string, string> = { "synth_300k.nmea": "position-mix", "real_300k.nmea": "vectors" };
  for (const line of readFileSync(comparePath, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line) as { file: string; decoder: string; sentencesPerSecMedian: number };
    const ours = results[mine[r.file] ?? ""];
    const ratio = ours === undefined ? "" : ` (this decoder ${(ours / r.sentencesPerSecMedian).toFixed(2)}x on ${mine[r.file]})`;
    write(`  ${r.file.padEnd(16)} ${r.decoder.padEnd(24)} ${Math.round(r.sentencesPerSecMedian).toLocaleString("en")}${ratio}`);
  }
}
