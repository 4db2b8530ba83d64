import { AppError } from "../domain/errors.ts";
import type { Operation } from "./operation.ts";
import type { Call } from "./call.ts";

/** The call's path, query and body against the operation's schemas; the first problem names its parameter and rule. */
export function parseInput(op: Operation, call: Call): Record<string, unknown> {
  const known = new Set(Object.keys(op.input.shape));
  for (const name of Object.keys(call.query)) {
    if (!known.has(name) || name in call.params) {
      throw new AppError("invalid_parameter", `Unknown parameter \`${name}\`; this operation takes ${[...known].filter((k) => !(k in call.params)).map((k) => `\`${k}\``).join(", ") || "no query parameters"}.`, {
        param: name,
        rule: "is not a parameter of this operation",
      });
    }
    if (Array.isArray(call.query[name])) {
      throw new AppError("invalid_parameter", `Parameter \`${name}\` is given more than once.`, { param: name, rule: "may appear only once" });
    }
  }
  const parsed = op.input.safeParse({ ...call.query, ...call.params });
  if (parsed.success) return op.body ? { ...(parsed.data as Record<string, unknown>), ...parseBody(op.body, call.body) } : noBody(call.body, parsed.data as Record<string, unknown>);
  const issue = parsed.error.issues[0]!;
  const param = String(issue.path[0] ?? "query");
  const rule = issue.code === "invalid_type" && issue.input === undefined ? "is required" : issue.message;
  throw new AppError("invalid_parameter", `Parameter \`${param}\` ${rule}.`, { param, rule });
}

/** Operations without a body accept none, or an empty JSON object (what many clients send with a bodiless POST). */
function noBody(body: unknown, input: Record<string, unknown>): Record<string, unknown> {
  const empty = body === undefined || body === null || body === "" || (typeof body === "object" && !Array.isArray(body) && Object.keys(body).length === 0);
  if (!empty) throw new AppError("invalid_parameter", "This operation takes no request body.", { param: "body", rule: "must be empty" });
  return input;
}

/** The JSON body against the operation's body schema; a problem names the field by its path (`geometry.coordinates`). */
function parseBody(schema: NonNullable<Operation["body"]>, body: unknown): Record<string, unknown> {
  // No body at all is an empty object: the schema then says which fields are required.
  if (body === undefined || body === null) body = {};
  if (typeof body !== "object" || Array.isArray(body)) {
    throw new AppError("invalid_parameter", "The request body must be a JSON object sent as `Content-Type: application/json`.", { param: "body", rule: "must be a JSON object" });
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const issue = parsed.error.issues[0]!;
  const param = issue.path.length > 0 ? issue.path.map(String).join(".") : "body";
  const rule = issue.code === "invalid_type" && issue.input === undefined ? "is required" : issue.message;
  throw new AppError("invalid_parameter", `Body field \`${param}\` ${rule}.`, { param, rule });
}
