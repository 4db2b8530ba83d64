import fastJsonStringify from "fast-json-stringify";
import type { Operation } from "../src/operations/operation.ts";
import { jsonSchemaOf, type JsonSchema, responseSchema } from "../src/operations/response-schema.ts";
import { serializableSchema } from "./serializable-schema.ts";

/**
 * The envelope's own fields in the order envelopeOf() writes them: the operation's top-level
 * fields come between `apiVersion` and `count`. The compiled serializer writes declared
 * properties in schema order, so the same order gives the same bytes as JSON.stringify.
 */
const HEAD = ["type", "apiVersion"];
const TAIL = ["count", "next", "data", "withheld", "attribution", "license", "sources"];

/**
 * Success bodies written by a serializer compiled once per operation from its output schema
 * (fast-json-stringify, Fastify's own) instead of JSON.stringify. The schema is first made safe
 * to trust (serializable-schema.ts): a value that does not fit it makes the compiled code
 * throw, and that body is written by JSON.stringify instead, so the answer a client reads never
 * depends on which one wrote it.
 *
 * Not on REST's path (src/adapters/http/result-reply.ts uses JSON.stringify): on Node 24
 * JSON.stringify wrote a port page's envelope faster than this, and no slower than
 * fast-json-stringify without the type guards (bench/envelope-serializers.ts, bench/README.md
 * "SQLite per-call profile and compiled serializers"). So it lives with the benches, kept with
 * its equality test (test/bench/) for the measurement to be repeated on a later Node or a
 * larger body.
 */
export class EnvelopeSerializers {
  readonly #compiled = new Map<string, (body: unknown) => string>();

  stringify(op: Operation, body: Record<string, unknown>): string {
    let write = this.#compiled.get(op.id);
    if (write === undefined) {
      write = compile(op);
      this.#compiled.set(op.id, write);
    }
    try {
      return write(body);
    } catch {
      return JSON.stringify(body);
    }
  }
}

/** The compiled writer of one operation's envelope; JSON.stringify when its schema cannot be compiled. */
export function compile(op: Operation): (body: unknown) => string {
  try {
    return fastJsonStringify(envelopeSchema(op) as unknown as Parameters<typeof fastJsonStringify>[0]) as (body: unknown) => string;
  } catch {
    return JSON.stringify;
  }
}

/** The operation's response schema, made serializable, with the envelope's fields in the order envelopeOf() writes them. */
export function envelopeSchema(op: Operation): JsonSchema {
  const schema = serializableSchema(jsonSchemaOf(responseSchema(op), "output"));
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(properties);
  const top = names.filter((n) => !HEAD.includes(n) && !TAIL.includes(n));
  const ordered: Record<string, JsonSchema> = {};
  for (const n of [...HEAD, ...top, ...TAIL]) if (n in properties) ordered[n] = properties[n]!;
  return { ...schema, type: "object", properties: ordered };
}
