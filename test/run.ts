/**
 * `npm test`: every test file, the slowest first. node:test runs files in name order, and
 * four at a time a long file that starts last (a browser suite, the OFAC history) finishes
 * alone while the other three slots sit idle; started first, it runs beside the short ones.
 * The order is `test/slowest-first.txt` (measured; the rest follow in name order), the same
 * global setup, concurrency and timeout as before.
 *
 *   npm test                         # the whole suite
 *   npm test -- test/cli/*.test.ts   # some files (in the order given)
 *   MDS_TEST_TIMES=times.json npm test   # also writes each file's wall time, to refresh the list
 */
import { globSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { run } from "node:test";
import { spec } from "node:test/reporters";

const ROOT = join(import.meta.dirname, "..");
// npm runs scripts in the package's folder; INIT_CWD is where `npm test` was typed.
const given = process.argv.slice(2).map((f) => relative(ROOT, resolve(process.env.INIT_CWD ?? process.cwd(), f)));
const all = given.length > 0 ? given : globSync("test/**/*.test.ts", { cwd: ROOT }).sort();
const slowest = readFileSync(join(ROOT, "test/slowest-first.txt"), "utf8")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l !== "" && !l.startsWith("#"));
const files = given.length > 0 ? all : [...slowest.filter((f) => all.includes(f)), ...all.filter((f) => !slowest.includes(f))];

const seen = new Map<string, { first: number; last: number }>();
// `globalSetupPath` is Node 24's (the pinned runtime); the installed type definitions predate it.
const options: NonNullable<Parameters<typeof run>[0]> & { globalSetupPath: string } = {
  files: files.map((f) => join(ROOT, f)),
  cwd: ROOT,
  concurrency: Number(process.env.MDS_TEST_CONCURRENCY ?? 4),
  timeout: 120_000,
  globalSetupPath: join(ROOT, "test/global-setup.ts"),
};
const stream = run(options);
stream.on("test:fail", (e) => {
  // A todo or a skipped test is not a failure; everything else that fails fails the run.
  if (!e.todo && !e.skip) process.exitCode = 1;
});
// A file's wall time: from its first test taken off the queue to its last result.
for (const kind of ["test:dequeue", "test:pass", "test:fail"] as const) {
  stream.on(kind, (e: { file?: string }) => {
    if (!e.file) return;
    const t = seen.get(e.file) ?? { first: Date.now(), last: Date.now() };
    t.last = Date.now();
    seen.set(e.file, t);
  });
}
stream.on("end", () => {
  const out = process.env.MDS_TEST_TIMES;
  if (!out) return;
  const times = [...seen].map(([file, t]) => ({ file: relative(ROOT, file), seconds: (t.last - t.first) / 1000 })).sort((a, b) => b.seconds - a.seconds);
  writeFileSync(out, JSON.stringify(times, null, 1));
});
stream.compose(spec).pipe(process.stdout);
