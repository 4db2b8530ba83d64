import type { z } from "zod";
import type { Rights } from "../domain/rights/caller-rights.ts";
import type { WithheldEntry } from "../domain/rights/sourced.ts";
import type { ListVersionUsed } from "../domain/screenings/receipt.ts";
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
  /**
   * The credits the call turned out to cost, when only run() can tell and it is fewer than
   * `cost` reserved (a watchlist page reserves its `limit` and screens what is left of the
   * list): the difference is given back. Ignored when it is not below the reservation.
   */
  charge?: number;
  /**
   * The sanctions list versions the answer rests on: what the receipt of an operation with
   * `receipt: "screening"` records (execute() refuses to answer such an operation without them).
   * `listVersionsUsed()` (screening-receipt.ts) makes them from the states the run read.
   */
  listVersions?: ListVersionUsed[];
}

/**
 * Credits one call costs. A number is a flat price (0 is free); `{ per: "ids" }` is one credit
 * per element of that list parameter; a function is for costs that depend on the input
 * otherwise (`now` for a track window ending now). An AppError thrown by a function fails the
 * call before anything is charged.
 */
export type Cost<I> = number | { per: ListKeys<I> } | CostFunction<I>;

/** Declared as a method so that an operation with its own input still counts as an Operation (parameters of methods are compared both ways). */
type CostFunction<I> = { price(input: I, now: number): number }["price"];

/** The input fields that parse into arrays (any name, for an operation whose input is not known). */
type ListKeys<I> = string extends keyof I ? string : { [K in keyof I]-?: I[K] extends readonly unknown[] ? K : never }[keyof I] & string;

export type PlanFeature = "privateFeed";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The parsed JSON body's fields, merged into the input; nothing for operations without a body. */
export type BodyOf<B> = B extends z.ZodObject ? z.infer<B> : unknown;

/** The schemas of the extra top-level fields of an answer, by name. */
export type TopSchemas = Record<string, z.ZodType>;

/**
 * One API operation. `D` and `T` are the schemas of its answer's `data` and top-level
 * fields: execute() types its answer by them, so every face reads the operation's own types.
 */
export interface Operation<
  S extends z.ZodObject = z.ZodObject,
  B extends z.ZodObject | undefined = z.ZodObject | undefined,
  D extends z.ZodType = z.ZodType,
  T extends TopSchemas = TopSchemas,
> {
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
  /** The JSON request body (POST, PUT, PATCH), validated on its own and merged into the input; its fields never come from the query. */
  body?: B;
  /** The `data` (and extra top-level fields) of a successful answer: its type, OpenAPI and the MCP output schema. */
  output: { data: D; top?: T };
  responseType: string;
  apiVersion: "1" | "preview";
  paged?: boolean;
  /** Credits one call costs: data where it can be (see Cost), a function only where the input decides. */
  cost: Cost<z.infer<S>>;
  /**
   * `screening`: every successful, charged answer gets a `screeningId` at the top, and execute()
   * keeps a signed receipt of the answer as the caller received it (GET /api/v1/screenings/{id},
   * docs/screening-receipts.md). run() must then return `listVersions`.
   */
  receipt?: "screening";
  run(ctx: OperationContext, input: z.infer<S> & BodyOf<B>): Promise<OperationResult>;
}

/** Keeps the input and output types of each operation while the registry holds them side by side. */
export function defineOperation<S extends z.ZodObject, D extends z.ZodType, T extends TopSchemas = Record<never, z.ZodType>, B extends z.ZodObject | undefined = undefined>(
  op: Operation<S, B, D, T>,
): Operation<S, B, D, T> {
  return op;
}
