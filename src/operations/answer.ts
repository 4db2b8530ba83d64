import type { z } from "zod";
import type { AppError } from "../domain/errors.ts";
import type { Source } from "../domain/rights/source.ts";
import type { WithheldEntry } from "../domain/rights/sourced.ts";
import { asAppError } from "./call.ts";
import type { Operation, TopSchemas } from "./operation.ts";

/** The per-second budget after this call: what REST sends as X-RateLimit-*, MCP leaves out. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Until the budget refills, in milliseconds. */
  resetMs: number;
}

/** What this call did to the account's monthly credits. */
export interface CreditsState {
  /** Credits charged for this call (0 on any failure). */
  cost: number;
  /** Left to the account this month; null when the call touched no balance (free, no key, failed before charging). */
  remaining: number | null;
}

/** What a call cost and what is left, for each face to show its own way (headers, `_meta`, nothing). */
export interface Metering {
  requestId: string;
  /** Null when the call failed before the limiter was asked (authentication, plan gate). */
  rateLimit: RateLimitState | null;
  credits: CreditsState;
  /** Seconds to wait before trying again, on rate_limited. */
  retryAfter: number | null;
  /** Why parts were withheld, per source, for the audit log. */
  denials: { source: string; why: string }[];
}

/**
 * A successful call, typed by its operation: the data and top-level fields as the rights
 * filter left them, what it withheld, the sources of what it kept, and the cursor of the next
 * page. No face's form is in it: REST makes the envelope and the `next` link from it, MCP its
 * structured content, the pages their HTML, the command line its lines.
 */
export interface Answer<D = unknown, T = Record<string, unknown>> {
  ok: true;
  data: D;
  top: T;
  withheld: WithheldEntry[];
  /** The sources of what was kept, in first-seen order: attribution and licences come from them. */
  sources: Source[];
  /**
   * The source identifiers of what was kept, as the facts themselves name them (`station:12`,
   * never the entry `station` that governs a private station), each followed by the feed that
   * governs a feed's station (`digitraffic-marine`): what the envelope's `sources` lists, so
   * a client can match a row's `source` to it.
   */
  sourceIds: string[];
  nextCursor: string | null;
  metering: Metering;
}

/** A call that failed: the error from the one table, and what the call still did to the limits. */
export interface Failure {
  ok: false;
  error: AppError;
  metering: Metering;
}

export type Result<D = unknown, T = Record<string, unknown>> = Answer<D, T> | Failure;

/** The data of an operation's successful answer, from its output schema. */
export type DataOf<Op> = Op extends Operation<infer _S, infer _B, infer D, infer _T> ? z.output<D> : never;

/** The top-level fields of an operation's successful answer, from its output schema. */
export type TopOf<Op> = Op extends Operation<infer _S, infer _B, infer _D, infer T> ? TopValues<T> : never;

export type TopValues<T extends TopSchemas> = { [K in keyof T]: z.output<T[K]> };

/** The answer type of one operation. */
export type ResultOf<Op> = Result<DataOf<Op>, TopOf<Op>>;

/** A call that failed before the pipeline ran (authentication): nothing charged, no budget touched. */
export function failure(e: unknown, requestId: string): Failure {
  return { ok: false, error: asAppError(e), metering: { requestId, rateLimit: null, credits: { cost: 0, remaining: null }, retryAfter: null, denials: [] } };
}
