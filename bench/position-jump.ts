// What judging each fix against its ship's last one (src/domain/tracks/position-jump.ts)
// costs next to decoding the line it came from, side by side in one run.
//
//   npx node bench/position-jump.ts [--fixes 1000000] [--vessels 20000] [--rounds 3]
//
// Input: Class A reports of `--vessels` ships, each sailing 12 kn east, one report every
// 10 s, encoded with src/domain/ais/encode.ts. Per round: the decoder reads every line,
// then the jump filter judges every decoded fix; ns per line/fix, medians over rounds.

import { createAisDecoder } from "../src/domain/ais/index.ts";
import { encodePositionA, toSentences } from "../src/domain/ais/encode.ts";
import { JumpFilter } from "../src/domain/tracks/position-jump.ts";

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? (process.argv[i + 1] as string) : dflt;
}

const total = Number(arg("fixes", "1000000"));
const vessels = Number(arg("vessels", "20000"));
const rounds = Number(arg("rounds", "3"));
const T0 = Date.parse("2026-11-20T00:00:00Z");

const lines: string[] = [];
for (let i = 0; i < total; i++) {
  const v = i % vessels;
  const k = Math.floor(i / vessels);
  // 12 kn east at 55 N: 12 / (60 * cos 55) degrees of longitude an hour.
  const lon = 10 + (v % 100) / 10 + ((k * 10) / 3600) * (12 / (60 * Math.cos((55 * Math.PI) / 180)));
  lines.push(toSentences(encodePositionA({ mmsi: 200_000_000 + v, lat: 55 + Math.floor(v / 100) / 100, lon, sog: 12, cog: 90, heading: 90, navStatus: 0, second: 0 }), { time: T0 + k * 10_000 })[0]!);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const decodeNs: number[] = [];
const judgeNs: number[] = [];
let flagged = 0;
for (let r = 0; r < rounds; r++) {
  const decoder = createAisDecoder();
  const fixes: { key: string; lat: number; lon: number; time: number }[] = [];
  let t = performance.now();
  for (const l of lines) {
    const m = decoder.feed(l, { source: "bench", receivedAt: T0 });
    if (m !== null && m.type === 1 && m.lat !== null && m.lon !== null && m.time !== null) fixes.push({ key: `1:${m.mmsi}`, lat: m.lat, lon: m.lon, time: m.time });
  }
  decodeNs.push(((performance.now() - t) * 1e6) / lines.length);
  const filter = new JumpFilter();
  flagged = 0;
  t = performance.now();
  for (const f of fixes) if (!filter.accept(f.key, f)) flagged++;
  judgeNs.push(((performance.now() - t) * 1e6) / fixes.length);
}
const w = (s: string) => process.stdout.write(`${s}\n`);
w(`node ${process.version}; ${total.toLocaleString("en")} fixes of ${vessels.toLocaleString("en")} ships, ${rounds} rounds (medians)`);
w("");
w("| step | ns per fix | share of decoding |");
w("|---|---|---|");
w(`| decode the line (baseline) | ${median(decodeNs).toFixed(0)} | 100% |`);
w(`| judge the fix against the ship's last one | ${median(judgeNs).toFixed(0)} | ${((median(judgeNs) / median(decodeNs)) * 100).toFixed(0)}% |`);
w("");
w(`fixes flagged as jumps: ${flagged} (a ship at 12 kn never jumps)`);
