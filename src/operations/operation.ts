import type { z } from "zod";
import type { Rights } from "../domain/rights/caller-rights.ts";
import type { WithheldEntry } from "../domain/rights/sourced.ts";
import type { Principal } from "./principal.ts";
import type { Services } from "./services.ts";

export interface OperationContext {
  services: Services;
  principal: Principal;
  now: number;
  /** Public base URL, for `api` and `page` links. */
  baseUrl: string;
  /** The use the answer is judged for (the rights filter's): REST and MCP are `api`, the public pages `web`. */
  use: "api" | "web";
  /** The rights of this caller for this use: the only way an operation asks whether a source may be shown. */
  rights: Rights;
}

/** What run() returns; the pipeline filters it by rights and wraps it in the envelope. */
export interface OperationResult {
  /** The payload; may hold `sourced()` parts. */
  data: unknown;
  /** Extra top-level fields of the envelope (identifiers, `page`, `window`, ...); may hold `sourced()` parts. */
  top?: Record<string, unknown>;
  /** The cursor of the next page, when there is one. */
  nextCursor?: string | null;
  /** Entries the operation withholds by rule (not by source rights), e.g. fields never shown in hits. */
  withheld?: WithheldEntry[];
}

/**
 * Credits one call costs. A number is a flat price (0 is free); `{ per: "ids" }` is one credit
 * per element of that list parameter; a function is for costs that depend on the input
 * otherwise (`now` for a track window ending now). An AppError thrown by a function fails the
 * call before anything is charged.
 */
export type Cost<I> = number | { per: ListKeys<I> } | ((input: I, now: number) => number);

/** The input fields that parse into arrays. */
type ListKeys<I> = { [K in keyof I]-?: I[K] extends readonly unknown[] ? K : never }[keyof I] & string;

export type PlanFeature = "privateFeed";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** The parsed JSON body's fields, merged into the input; nothing for operations without a body. */
export type BodyOf<B> = B extends z.ZodObject ? z.infer<B> : unknown;

export interface Operation<S extends z.ZodObject = z.ZodObject, B extends z.ZodObject | undefined = z.ZodObject | undefined> {
  /** `<resource>.<verb>`: also the name of the file. */
  id: string;
  method: HttpMethod;
  /** Path template under the base URL, with `{param}` placeholders. */
  path: string;
  /** The MCP tool generated from this operation, when it has one. */
  tool?: string;
  summary: string;
  description: string;
  auth: "key" | "optional";
  feature?: PlanFeature;
  /** Path and query parameters together. */
  input: S;
  /** The JSON request body (POST, PATCH), validated on its own and merged into the input; its fields never come from the query. */
  body?: B;
  /** The `data` (and extra top-level fields) of a successful answer, for OpenAPI and tests. */
  output: { data: z.ZodType; top?: Record<string, z.ZodType> };
  responseType: string;
  apiVersion: "1" | "preview";
  paged?: boolean;
  /** Credits one call costs: data where it can be (see Cost), a function only where the input decides. */
  cost: Cost<z.infer<S>>;
  run(ctx: OperationContext, input: z.infer<S> & BodyOf<B>): Promise<OperationResult>;
}

/** Keeps the input type of each operation while the registry holds them side by side. */
export function defineOperation<S extends z.ZodObject, B extends z.ZodObject | undefined = undefined>(op: Operation<S, B>): Operation<S, B> {
  return op;
}
