import { z } from "zod";
import { AppError } from "../domain/errors.ts";
import { wreckPagePath } from "../domain/pages/page-paths.ts";
import { sourced } from "../domain/rights/sourced.ts";
import { type Wreck, WreckDepthSchema, WreckSchema } from "../domain/wrecks/wreck.ts";
import { CoordinatesSchema } from "./envelope-schemas.ts";
import { defineOperation, type OperationContext } from "./operation.ts";

const WRECK_ID_RULE = "must be a wreck id (digits, e.g. 14296), the page form `{id}-{slug}` (e.g. 14296-algeria) or a legacy slug `{slug}-{id}` (e.g. algeria-14296)";

/**
 * The forms a wreck is addressed by. The page URL is `/wreck/{id}-{slug}`; older links
 * put the id last (`algeria-14296`), and both must keep working, so both are kept here
 * and the store decides which record exists.
 */
type WreckRef = { leading: number | null; trailing: number | null; text: string };

const wreckIdParam = z.string().transform((v, ctx): WreckRef => {
  const text = v.trim().toLowerCase();
  if (text.length > 120 || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(text)) {
    ctx.addIssue({ code: "custom", message: WRECK_ID_RULE });
    return z.NEVER;
  }
  const leading = /^(\d{1,9})(?:-|$)/.exec(text)?.[1];
  const trailing = /-(\d{1,9})$/.exec(text)?.[1];
  if (leading === undefined && trailing === undefined) {
    ctx.addIssue({ code: "custom", message: WRECK_ID_RULE });
    return z.NEVER;
  }
  return { leading: leading === undefined ? null : Number(leading), trailing: trailing === undefined ? null : Number(trailing), text };
});

/** The name part of the slug: the page URL puts it after the id. */
function nameSlugOf(w: Wreck): string {
  return w.slug.slice(0, w.slug.length - `-${w.id}`.length);
}

/**
 * Page form first, unless the text is exactly a record's legacy slug: a vessel named with
 * digits ("31") makes a legacy slug that starts like a page-form id ("31-5678").
 */
async function resolve(ctx: OperationContext, ref: WreckRef): Promise<Wreck | null> {
  const byTrailing = ref.trailing !== null && ref.trailing !== ref.leading ? await ctx.services.wrecks.get(ref.trailing) : null;
  if (byTrailing && byTrailing.slug === ref.text) return byTrailing;
  const byLeading = ref.leading !== null ? await ctx.services.wrecks.get(ref.leading) : null;
  return byLeading ?? byTrailing;
}

export const wrecksGet = defineOperation({
  id: "wrecks.get",
  method: "GET",
  path: "/api/v1/wrecks/{id}",
  summary: "A wreck's page",
  description:
    "One wreck of the NOAA AWOIS record set (US waters): name, feature type, coordinates with their position quality, depth as published and in metres, year sunk and the survey history text. " +
    "`id` is the AWOIS record number as in the page URL `/wreck/{id}-{slug}`; the page form and a legacy slug `{slug}-{id}` resolve too.",
  auth: "optional",
  input: z.strictObject({ id: wreckIdParam.describe("The wreck id, e.g. 14296, or the page form 14296-algeria, or a legacy slug algeria-14296.") }),
  output: {
    top: { id: z.string(), api: z.string(), page: z.string(), generatedAt: z.string() },
    data: z.object({
      identity: WreckSchema.pick({ name: true, featureType: true, yearSunk: true }).nullable(),
      coordinates: CoordinatesSchema.extend({ positionQuality: WreckSchema.shape.positionQuality }).nullable(),
      depth: WreckDepthSchema.extend({ metres: z.number().nullable() }).nullable(),
      history: z.string().nullable(),
    }),
  },
  responseType: "wreck",
  apiVersion: "preview",
  cost: 1,
  async run(ctx, input) {
    const w = await resolve(ctx, input.id);
    if (!w) throw new AppError("not_found", `No wreck with id ${JSON.stringify(input.id.text)}.`);
    const id = String(w.id);
    const source = [w.source];
    return {
      top: { id, api: `${ctx.baseUrl}/api/v1/wrecks/${id}`, page: `${ctx.baseUrl}${wreckPagePath(id, nameSlugOf(w))}`, generatedAt: new Date(ctx.now).toISOString() },
      data: {
        // On a page a withheld section stays as a null key, so clients see that it exists.
        identity: sourced("identity", source, { name: w.name, featureType: w.featureType, yearSunk: w.yearSunk }, { whenWithheld: "null", leaf: true }),
        coordinates: sourced("coordinates", source, { lat: w.lat, lon: w.lon, source: w.source, positionQuality: w.positionQuality }, { whenWithheld: "null", leaf: true }),
        depth: w.depth ? sourced("depth", source, { ...w.depth, metres: w.depthM }, { whenWithheld: "null", leaf: true }) : null,
        history: w.history === null ? null : sourced("history", source, w.history, { whenWithheld: "null", leaf: true }),
      },
    };
  },
});
