/**
 * Writing an operation's envelope: JSON.stringify against a serializer compiled from its output
 * schema (bench/envelope-serializer.ts, with its type guards), and against
 * fast-json-stringify fed the output schema as zod gives it (nullable as anyOf, no guards).
 * Rounds alternate between the three; µs per body, medians of the rounds.
 *
 *   npx node bench/envelope-serializers.ts [port-page.json]
 *
 * The port page is the operation's made-up example unless a saved answer of
 * GET /api/v1/ports/{unlocode} is given (the real one carries World Port Index facts).
 */
import { readFileSync } from "node:fs";
import fastJsonStringify from "fast-json-stringify";
import { compile, envelopeSchema } from "./envelope-serializer.ts";
import { exampleOf } from "../src/adapters/web/schema-example.ts";
import type { Operation } from "../src/operations/operation.ts";
import { OPERATIONS } from "../src/operations/registry.ts";
import { jsonSchemaOf, responseSchema } from "../src/operations/response-schema.ts";
import { percentile } from "./percentile.ts";

const ROUNDS = 7;
const CALLS = 50_000;
const portPage = process.argv[2] ? (JSON.parse(readFileSync(process.argv[2], "utf8")) as unknown) : null;

/** zod's JSON Schema in the envelope's order, as a first try would hand it to fast-json-stringify. */
function plain(op: Operation): (body: unknown) => string {
  const schema = jsonSchemaOf(responseSchema(op), "output");
  const ordered = envelopeSchema(op).properties as Record<string, unknown>;
  const properties = schema.properties as Record<string, unknown>;
  return fastJsonStringify({ ...schema, properties: Object.fromEntries(Object.keys(ordered).map((k) => [k, properties[k]])) } as unknown as Parameters<typeof fastJsonStringify>[0]) as (body: unknown) => string;
}

function time(write: (body: unknown) => string, body: unknown): number {
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) write(body);
  return ((performance.now() - started) * 1000) / CALLS;
}

console.log("| operation | body bytes | JSON.stringify µs | compiled, guarded µs | fast-json-stringify of zod's schema µs |");
console.log("|---|---|---|---|---|");
for (const id of ["ports.get", "vessels.get", "ports.list", "search"]) {
  const op = OPERATIONS.find((o) => o.id === id)!;
  const body = id === "ports.get" && portPage ? portPage : exampleOf(jsonSchemaOf(responseSchema(op), "output"));
  const writers = [JSON.stringify as (b: unknown) => string, compile(op), plain(op)];
  const times: number[][] = writers.map(() => []);
  for (let r = 0; r < ROUNDS; r++) writers.forEach((w, i) => times[i]!.push(time(w, body)));
  console.log(`| ${id} | ${JSON.stringify(body).length} | ${times.map((t) => percentile(t, 50).toFixed(2)).join(" | ")} |`);
}
