import { z } from "zod";
import { alertLimits } from "../domain/alerts/limits.ts";
import { invalidParameter } from "../domain/errors.ts";
import { parseImo, parseMmsi, parseUnlocode } from "../domain/identifiers.ts";
import type { Follow } from "../interfaces/alerts.ts";
import { accountOf, limitReached } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { followView, FollowSchema } from "./projections/follow-view.ts";

const followBody = z.strictObject({
  imo: z.union([z.string(), z.number()], { error: "must be an IMO number" }).optional(),
  mmsi: z.union([z.string(), z.number()], { error: "must be an MMSI" }).optional(),
  unlocode: z.string({ error: "must be a UN/LOCODE" }).optional(),
});

/** Exactly one identifier, each checked by its own rule. */
function followOf(b: z.infer<typeof followBody>): Pick<Follow, "kind" | "imo" | "mmsi" | "unlocode"> {
  const given = [b.imo, b.mmsi, b.unlocode].filter((v) => v !== undefined).length;
  if (given !== 1) throw invalidParameter("body", "must carry exactly one of imo, mmsi, unlocode");
  if (b.imo !== undefined) {
    const imo = parseImo(b.imo);
    if (imo === null) throw invalidParameter("imo", "must be a 7-digit IMO number with a valid check digit");
    return { kind: "vessel", imo, mmsi: null, unlocode: null };
  }
  if (b.mmsi !== undefined) {
    const mmsi = parseMmsi(b.mmsi);
    if (mmsi === null) throw invalidParameter("mmsi", "must be a 9-digit MMSI");
    return { kind: "vessel", imo: null, mmsi, unlocode: null };
  }
  const unlocode = parseUnlocode(b.unlocode);
  if (unlocode === null) throw invalidParameter("unlocode", "must be a five-character UN/LOCODE, e.g. NLRTM");
  return { kind: "port", imo: null, mmsi: null, unlocode };
}

export const followsCreate = defineAccountOperation({
  id: "account.follows.create",
  method: "POST",
  path: "/api/v1/account/follows",
  summary: "Follow a vessel or port",
  description:
    "Follows a vessel by `imo` (checksum-valid) or `mmsi`, or a port by `unlocode`. A followed vessel newly listed on a sanctions list raises `alert.sanctions`. " +
    "Following the same identifier twice answers the existing follow. Free.",
  input: z.strictObject({}),
  body: followBody,
  output: { data: FollowSchema },
  responseType: "follow",
  async run(ctx, input) {
    const accountId = accountOf(ctx);
    const limit = alertLimits(ctx.principal.entitlements).follows;
    const r = await ctx.services.alerts.addFollow(accountId, followOf(input), limit, ctx.now);
    if (r.ok) return { data: followView(r.value) };
    if (r.reason === "duplicate") return { data: followView(r.existing) };
    throw limitReached("follows", r.limit);
  },
});
