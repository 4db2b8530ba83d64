import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FastifyBaseLogger } from "fastify";
import { AppError } from "../../../src/domain/errors.ts";
import { logFailure } from "../../../src/adapters/shared/failure-log.ts";

/** A logger that keeps what it was given, by level. */
function recorder() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => lines.push({ level, fields, message });
  return { lines, log: { error: at("error"), warn: at("warn"), info: at("info"), debug: at("debug") } as unknown as FastifyBaseLogger };
}

describe("failure log levels", () => {
  const context = { op: "screen", requestId: "req-1", via: "rest" as const };

  for (const [code, level] of [
    ["invalid_parameter", "info"],
    ["not_found", "info"],
    ["rate_limited", "info"],
    ["sanctions_unavailable", "info"],
    ["service_unavailable", "error"],
    ["archive_unavailable", "error"],
    ["internal_error", "error"],
  ] as const) {
    it(`${code} is logged at ${level}`, () => {
      const r = recorder();
      logFailure(r.log, new AppError(code), context);
      assert.equal(r.lines.length, 1);
      assert.equal(r.lines[0]!.level, level);
      assert.equal(r.lines[0]!.fields["requestId"], "req-1");
      assert.equal(r.lines[0]!.fields["code"], code);
      // Only a fault carries the error itself (and with it its stack).
      assert.equal("err" in r.lines[0]!.fields, level === "error");
    });
  }

  it("a fault logs its cause, with the stack of where it broke", () => {
    const r = recorder();
    const cause = new Error("connection refused");
    const wrapped = new AppError("internal_error");
    // As asAppError (operations/call.ts) wraps an unexpected throw.
    wrapped.cause = cause;
    logFailure(r.log, wrapped, context);
    assert.equal(r.lines[0]!.fields["err"], cause);
  });
});
