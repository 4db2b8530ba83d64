import type { z } from "zod";
import { defineOperation, type Operation, type TopSchemas } from "./operation.ts";

/**
 * An operation on the account's own things (webhooks, deliveries, zones, follows, saved
 * searches): every one needs a key, is free and is in API version 1, so that is said here
 * once instead of in each of them.
 */
export function defineAccountOperation<S extends z.ZodObject, D extends z.ZodType, T extends TopSchemas = Record<never, z.ZodType>, B extends z.ZodObject | undefined = undefined>(
  op: Omit<Operation<S, B, D, T>, "auth" | "cost" | "apiVersion">,
): Operation<S, B, D, T> {
  return defineOperation<S, D, T, B>({ ...op, auth: "key", apiVersion: "1", cost: 0 });
}
