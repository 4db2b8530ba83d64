import { z } from "zod";
import { validatePolygon } from "../domain/alerts/geometry.ts";
import { alertLimits } from "../domain/alerts/limits.ts";
import { accountOf, limitReached, nameField } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { zoneView, ZoneSchema } from "./projections/zone-view.ts";

const geometryField = z.unknown().transform((v, ctx) => {
  const r = validatePolygon(v);
  if (!r.ok) {
    ctx.addIssue({ code: "custom", message: r.message });
    return z.NEVER;
  }
  return r;
});

export const zonesCreate = defineAccountOperation({
  id: "account.zones.create",
  method: "POST",
  path: "/api/v1/account/zones",
  summary: "Add a zone",
  description:
    "A named zone: a GeoJSON Polygon in longitude/latitude (closed rings, no self-intersection, holes allowed, at most 1,000 positions and 30 degrees either way). A vessel seen by " +
    "your own (or shared) stations entering it raises `alert.zone_enter`. Free.",
  input: z.strictObject({}),
  body: z.strictObject({ name: nameField(100), geometry: geometryField }),
  output: { data: ZoneSchema },
  responseType: "zone",
  async run(ctx, input) {
    const accountId = accountOf(ctx);
    const limit = alertLimits(ctx.principal.entitlements).zones;
    const r = await ctx.services.alerts.addZone(accountId, { name: input.name, geometry: input.geometry.polygon, bbox: input.geometry.bbox }, limit, ctx.now);
    if (!r.ok) throw limitReached("zones", r.reason === "limit" ? r.limit : limit);
    ctx.services.alertsRuntime.zonesChanged(accountId);
    return { data: zoneView(r.value) };
  },
});
