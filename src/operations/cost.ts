import type { Operation } from "./operation.ts";

/** The credits a call with this (parsed) input costs. */
export function costOf(op: Operation, input: Record<string, unknown>, now: number): number {
  const cost = op.cost as number | { per: string } | ((input: Record<string, unknown>, now: number) => number);
  if (typeof cost === "number") return cost;
  if (typeof cost === "function") return cost(input, now);
  const items = input[cost.per];
  return Array.isArray(items) ? items.length : 0;
}

/** The price as the API document and the tool descriptions state it. */
export type CostDescription = { kind: "flat"; credits: number } | { kind: "per"; param: string } | { kind: "input" };

export function describeCost(op: Operation): CostDescription {
  const cost = op.cost as number | { per: string } | ((input: never, now: number) => number);
  if (typeof cost === "number") return { kind: "flat", credits: cost };
  if (typeof cost === "function") return { kind: "input" };
  return { kind: "per", param: cost.per };
}
