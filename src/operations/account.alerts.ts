import { z } from "zod";
import { alertLimits } from "../domain/alerts/limits.ts";
import { validatePolygon } from "../domain/alerts/geometry.ts";
import { AppError, invalidParameter } from "../domain/errors.ts";
import { parseImo, parseMmsi, parseUnlocode } from "../domain/identifiers.ts";
import type { Follow, SavedSearch, Zone } from "../ports/alerts.ts";
import { formatId } from "../domain/ids.ts";
import { accountOf, DeletedSchema, idParam, iso, limitReached, nameField, notFound } from "./account.common.ts";
import { defineOperation } from "./operation.ts";

/**
 * What an account's alerts are about: zones (named polygons; a vessel entering one raises
 * `alert.zone_enter`), follows (vessels by IMO or MMSI, whose new sanctions listings raise
 * `alert.sanctions`; ports by UN/LOCODE) and saved searches. Limits per plan are in
 * domain/alerts/limits.ts. Free of credits; another account's object is a plain 404.
 */

const ZoneSchema = z.object({
  id: z.string(),
  name: z.string(),
  geometry: z.object({ type: z.literal("Polygon"), coordinates: z.array(z.array(z.array(z.number()))) }),
  bbox: z.array(z.number()),
  createdAt: z.string(),
});

function zoneView(z: Zone) {
  return {
    id: formatId("zone", z.id),
    name: z.name,
    geometry: z.geometry,
    bbox: [z.bbox.minLon, z.bbox.minLat, z.bbox.maxLon, z.bbox.maxLat],
    createdAt: iso(z.createdAt)!,
  };
}

const FollowSchema = z.object({
  id: z.string(),
  kind: z.enum(["vessel", "port"]),
  imo: z.number().int().nullable(),
  mmsi: z.number().int().nullable(),
  unlocode: z.string().nullable(),
  createdAt: z.string(),
});

function followView(f: Follow) {
  return { id: formatId("follow", f.id), kind: f.kind, imo: f.imo, mmsi: f.mmsi, unlocode: f.unlocode, createdAt: iso(f.createdAt)! };
}

const SavedSearchSchema = z.object({ id: z.string(), name: z.string(), q: z.string(), kind: z.string().nullable(), createdAt: z.string() });

function searchView(s: SavedSearch) {
  return { id: formatId("search", s.id), name: s.name, q: s.q, kind: s.kind, createdAt: iso(s.createdAt)! };
}

const geometryField = z.unknown().transform((v, ctx) => {
  const r = validatePolygon(v);
  if (!r.ok) {
    ctx.addIssue({ code: "custom", message: r.message });
    return z.NEVER;
  }
  return r;
});

export const zonesCreate = defineOperation({
  id: "account.zones.create",
  method: "POST",
  path: "/api/v1/account/zones",
  summary: "Add a zone",
  description:
    "A named zone: a GeoJSON Polygon in longitude/latitude (closed rings, no self-intersection, holes allowed, at most 1,000 positions and 30 degrees either way). A vessel seen by " +
    "your own (or shared) stations entering it raises `alert.zone_enter`. Free.",
  auth: "key",
  input: z.strictObject({}),
  body: z.strictObject({ name: nameField(100), geometry: geometryField }),
  output: { data: ZoneSchema },
  responseType: "zone",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    const accountId = accountOf(ctx);
    const limit = alertLimits(ctx.principal.entitlements).zones;
    const r = await ctx.services.alerts.addZone(accountId, { name: input.name, geometry: input.geometry.polygon, bbox: input.geometry.bbox }, limit, ctx.now);
    if (!r.ok) throw limitReached("zones", r.reason === "limit" ? r.limit : limit);
    ctx.services.alertsRuntime.zonesChanged(accountId);
    return { data: zoneView(r.value) };
  },
});

export const zonesList = defineOperation({
  id: "account.zones.list",
  method: "GET",
  path: "/api/v1/account/zones",
  summary: "The account's zones",
  description: "Every zone of the account with its polygon and bounding box. Free.",
  auth: "key",
  input: z.strictObject({}),
  output: { data: z.array(ZoneSchema) },
  responseType: "zones",
  apiVersion: "1",
  cost: 0,
  async run(ctx) {
    return { data: (await ctx.services.alerts.listZones(accountOf(ctx))).map(zoneView) };
  },
});

export const zonesDelete = defineOperation({
  id: "account.zones.delete",
  method: "DELETE",
  path: "/api/v1/account/zones/{id}",
  summary: "Delete a zone",
  description: "Deletes a zone; it raises no more alerts. Free.",
  auth: "key",
  input: z.strictObject({ id: idParam("zone") }),
  output: { data: DeletedSchema },
  responseType: "deleted",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    const accountId = accountOf(ctx);
    if (!(await ctx.services.alerts.deleteZone(accountId, input.id))) throw notFound("zone", formatId("zone", input.id));
    ctx.services.alertsRuntime.zonesChanged(accountId);
    return { data: { id: formatId("zone", input.id), deleted: true as const } };
  },
});

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

export const followsCreate = defineOperation({
  id: "account.follows.create",
  method: "POST",
  path: "/api/v1/account/follows",
  summary: "Follow a vessel or port",
  description:
    "Follows a vessel by `imo` (checksum-valid) or `mmsi`, or a port by `unlocode`. A followed vessel newly listed on a sanctions list raises `alert.sanctions`. " +
    "Following the same identifier twice answers the existing follow. Free.",
  auth: "key",
  input: z.strictObject({}),
  body: followBody,
  output: { data: FollowSchema },
  responseType: "follow",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    const accountId = accountOf(ctx);
    const limit = alertLimits(ctx.principal.entitlements).follows;
    const r = await ctx.services.alerts.addFollow(accountId, followOf(input), limit, ctx.now);
    if (r.ok) return { data: followView(r.value) };
    if (r.reason === "duplicate") return { data: followView(r.existing) };
    throw limitReached("follows", r.limit);
  },
});

export const followsList = defineOperation({
  id: "account.follows.list",
  method: "GET",
  path: "/api/v1/account/follows",
  summary: "The account's follows",
  description: "Every vessel and port the account follows. Free.",
  auth: "key",
  input: z.strictObject({}),
  output: { data: z.array(FollowSchema) },
  responseType: "follows",
  apiVersion: "1",
  cost: 0,
  async run(ctx) {
    return { data: (await ctx.services.alerts.listFollows(accountOf(ctx))).map(followView) };
  },
});

export const followsDelete = defineOperation({
  id: "account.follows.delete",
  method: "DELETE",
  path: "/api/v1/account/follows/{id}",
  summary: "Stop following",
  description: "Deletes a follow. Free.",
  auth: "key",
  input: z.strictObject({ id: idParam("follow") }),
  output: { data: DeletedSchema },
  responseType: "deleted",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    if (!(await ctx.services.alerts.deleteFollow(accountOf(ctx), input.id))) throw notFound("follow", formatId("follow", input.id));
    return { data: { id: formatId("follow", input.id), deleted: true as const } };
  },
});

export const savedSearchesCreate = defineOperation({
  id: "account.saved-searches.create",
  method: "POST",
  path: "/api/v1/account/saved-searches",
  summary: "Save a search",
  description: "Stores a named search (`q` 2 to 100 characters, optional `kind`). Free.",
  auth: "key",
  input: z.strictObject({}),
  body: z.strictObject({
    name: nameField(100),
    q: z.string().trim().min(2, { error: "must be 2 to 100 characters" }).max(100, { error: "must be 2 to 100 characters" }),
    kind: z.string().regex(/^[a-z_]+(,[a-z_]+)*$/, { error: "must be a comma list of kinds, e.g. vessel,port" }).max(100).optional(),
  }),
  output: { data: SavedSearchSchema },
  responseType: "saved_search",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    const limit = alertLimits(ctx.principal.entitlements).savedSearches;
    const r = await ctx.services.alerts.addSavedSearch(accountOf(ctx), { name: input.name, q: input.q, kind: input.kind ?? null }, limit, ctx.now);
    if (!r.ok) throw r.reason === "limit" ? limitReached("saved searches", r.limit) : new AppError("conflict");
    return { data: searchView(r.value) };
  },
});

export const savedSearchesList = defineOperation({
  id: "account.saved-searches.list",
  method: "GET",
  path: "/api/v1/account/saved-searches",
  summary: "The account's saved searches",
  description: "Every saved search of the account. Free.",
  auth: "key",
  input: z.strictObject({}),
  output: { data: z.array(SavedSearchSchema) },
  responseType: "saved_searches",
  apiVersion: "1",
  cost: 0,
  async run(ctx) {
    return { data: (await ctx.services.alerts.listSavedSearches(accountOf(ctx))).map(searchView) };
  },
});

export const savedSearchesDelete = defineOperation({
  id: "account.saved-searches.delete",
  method: "DELETE",
  path: "/api/v1/account/saved-searches/{id}",
  summary: "Delete a saved search",
  description: "Deletes a saved search. Free.",
  auth: "key",
  input: z.strictObject({ id: idParam("search") }),
  output: { data: DeletedSchema },
  responseType: "deleted",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    if (!(await ctx.services.alerts.deleteSavedSearch(accountOf(ctx), input.id))) throw notFound("saved search", formatId("search", input.id));
    return { data: { id: formatId("search", input.id), deleted: true as const } };
  },
});

export const ALERT_OPERATIONS = [zonesCreate, zonesList, zonesDelete, followsCreate, followsList, followsDelete, savedSearchesCreate, savedSearchesList, savedSearchesDelete];
