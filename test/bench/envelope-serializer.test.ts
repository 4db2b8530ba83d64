import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { compile, EnvelopeSerializers } from "../../bench/envelope-serializer.ts";
import { exampleOf } from "../../src/adapters/web/schema-example.ts";
import type { Source } from "../../src/domain/rights/source.ts";
import type { Answer } from "../../src/operations/answer.ts";
import { envelopeOf } from "../../src/operations/envelope.ts";
import type { Operation } from "../../src/operations/operation.ts";
import { OPERATIONS } from "../../src/operations/registry.ts";
import { jsonSchemaOf, responseSchema } from "../../src/operations/response-schema.ts";
import { HOSTILE_VALUES } from "../../scripts/hostile-values.ts";
import { startTestService, type TestService } from "../helpers/service.ts";

/**
 * A serializer compiled from an operation's output schema must write exactly what
 * JSON.stringify writes: the same bytes, for every operation's example answer and for the
 * answers of a sample of the hostile run's requests, and nothing lost or coerced when an
 * answer does not fit its schema.
 */

const ENVELOPE_FIELDS = new Set(["type", "apiVersion", "count", "next", "data", "withheld", "attribution", "license", "sources"]);

/** The operation's example answer (the API reference's), built into the envelope the way REST builds it. */
function exampleEnvelope(op: Operation): Record<string, unknown> {
  const example = exampleOf(jsonSchemaOf(responseSchema(op), "output")) as Record<string, unknown>;
  const top = Object.fromEntries(Object.entries(example).filter(([k]) => !ENVELOPE_FIELDS.has(k)));
  const sources = (example.sources as string[]).map((id) => ({ id, attribution: `${id} attribution`, license: `${id} licence` }) as unknown as Source);
  const answer: Answer = {
    ok: true,
    data: example.data,
    top,
    withheld: example.withheld as Answer["withheld"],
    sources,
    sourceIds: example.sources as string[],
    nextCursor: op.paged ? "cursor-1" : null,
    metering: { requestId: "req_1", rateLimit: null, credits: { cost: 0, remaining: null }, retryAfter: null, denials: [] },
  };
  return envelopeOf(op, answer, { params: {}, query: {}, baseUrl: "http://localhost", requestId: "req_1" });
}

describe("compiled envelope serializers", () => {
  it("compile for every operation, and write each one's example answer byte for byte as JSON.stringify does", () => {
    for (const op of OPERATIONS) {
      const write = compile(op);
      assert.notEqual(write, JSON.stringify, `${op.id} compiles`);
      const envelope = exampleEnvelope(op);
      assert.equal(write(envelope), JSON.stringify(envelope), op.id);
    }
  });

  it("keep a property the schema does not declare (written after the declared ones, so compared parsed)", () => {
    const op = OPERATIONS.find((o) => o.id === "ports.get")!;
    const envelope = exampleEnvelope(op);
    (envelope.data as Record<string, unknown>).undeclared = { nested: [1, "two", null] };
    envelope.alsoUndeclared = "kept";
    const written = new EnvelopeSerializers().stringify(op, envelope);
    assert.deepEqual(JSON.parse(written), JSON.parse(JSON.stringify(envelope)));
  });

  it("write a value of another type than declared as JSON.stringify does, never coerced", () => {
    const op = OPERATIONS.find((o) => o.id === "ports.get")!;
    for (const odd of [42, 1.5, true, { a: 1 }, [1], null, Number.NaN, Number.POSITIVE_INFINITY]) {
      const envelope = exampleEnvelope(op);
      envelope.unlocode = odd;
      (envelope.data as { recentCalls: unknown[] }).recentCalls = [{ vessel: { mmsi: 1.5 }, arrival: odd, departure: odd, source: "station:1" }];
      assert.equal(new EnvelopeSerializers().stringify(op, envelope), JSON.stringify(envelope), String(odd));
    }
  });
});

describe("compiled envelope serializers on the hostile run's requests", () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(async () => {
    await t.close();
  });

  it("write every answer of a sample of them byte for byte as JSON.stringify does", async () => {
    const key = (await t.key("scale")).key;
    const answers: { op: Operation; body: Record<string, unknown> }[] = [];
    // Plausible values first, so that most calls answer; then the hostile run's values.
    const values = ["NLRTM", "9175793", "230123456", "mmsi-230123456", "NL", "rotterdam", "tanker", "5", ...HOSTILE_VALUES.slice(0, 20)];
    for (const op of OPERATIONS.filter((o) => o.method === "GET")) {
      const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const query = Object.keys(op.input.shape).filter((n) => !names.includes(n));
      for (const [i, v] of values.entries()) {
        const path = op.path.replace(/\{(\w+)\}/g, () => encodeURIComponent(v));
        // The value in one query parameter at a time, the others left out.
        const q = query.length > 0 && i % 2 === 1 ? `?${new URLSearchParams({ [query[i % query.length]!]: v }).toString()}` : "";
        // A second per request on the test clock, so the key's rate limit never answers instead.
        t.clock.t += 1_000;
        const r = await t.service.app.inject({ method: "GET", url: `${path}${q}`, headers: { authorization: `Bearer ${key}` } });
        // The answer as REST sent it: the same JSON values the operation answered.
        if (r.statusCode === 200) answers.push({ op, body: r.json() });
      }
    }
    const answered = new Set(answers.map((w) => w.op.id));
    assert.ok(answers.length >= 100 && answered.size >= 10, `enough answers to judge: ${answers.length} from ${answered.size} operations`);
    for (const { op, body } of answers) assert.equal(new EnvelopeSerializers().stringify(op, body), JSON.stringify(body), op.id);
  });
});
