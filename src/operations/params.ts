import { parseIsoTime } from "../domain/tracks/window.ts";
import { z } from "zod";
import { invalidParameter } from "../domain/errors.ts";
import { parseIso2, parseUnlocode, parseVesselId, type VesselId } from "../domain/identifiers.ts";

/** Query and path values arrive as text; these schemas turn them into values or a rule to quote. */
export function intParam(min: number, max: number, fallback?: number) {
  const rule = `must be a whole number from ${min} to ${max}`;
  const base = z
    .string({ error: rule })
    .regex(/^-?\d+$/, { error: rule })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: rule }).max(max, { error: rule }));
  return fallback === undefined ? base : base.optional().transform((v) => v ?? fallback);
}

export const unlocodeParam = z
  .string()
  .transform((v, ctx) => {
    const code = parseUnlocode(v);
    if (!code) {
      ctx.addIssue({ code: "custom", message: "must be a five-character UN/LOCODE: two letters of country then three letters or digits 2-9, e.g. NLRTM" });
      return z.NEVER;
    }
    return code;
  });

export const iso2Param = z.string().transform((v, ctx) => {
  const code = parseIso2(v);
  if (!code) {
    ctx.addIssue({ code: "custom", message: "must be an ISO 3166-1 alpha-2 country code, two letters, e.g. NL" });
    return z.NEVER;
  }
  return code;
});

/** What a cursor parameter is, in the words of both faces (REST's `next` URL carries the same value). */
export const CURSOR_DESCRIPTION = "Opaque cursor to continue a list: the `nextCursor` of the previous answer. Leave out for the first page.";

export const cursorParam = z.string().min(1, { error: "must be the cursor from a previous page's `next` URL" }).max(512, { error: "is too long to be a cursor" });

/** Cursors are opaque to clients: base64url of a small JSON object. */
export function encodeCursor(value: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

export function decodeCursor<T extends Record<string, unknown>>(text: string, shape: z.ZodType<T>): T {
  try {
    const parsed = shape.safeParse(JSON.parse(Buffer.from(text, "base64url").toString("utf8")));
    if (parsed.success) return parsed.data;
  } catch {
    // fall through: any undecodable text is the same client error
  }
  throw invalidParameter("cursor", "is not a cursor this endpoint issued; use the `next` URL of the previous page");
}

export const VESSEL_ID_RULE = "must be a checksum-valid 7-digit IMO number (e.g. 9074729) or `mmsi-` followed by the 9-digit MMSI (e.g. mmsi-244123456)";

export const vesselIdParam = z.string().transform((v, ctx): VesselId => {
  const id = parseVesselId(v);
  if (!id) {
    ctx.addIssue({ code: "custom", message: VESSEL_ID_RULE });
    return z.NEVER;
  }
  return id;
}).describe("The vessel: a checksum-valid 7-digit IMO number (e.g. 9176187), or `mmsi-` followed by the 9-digit MMSI for craft without an IMO (e.g. mmsi-244123456).");

/** An ISO 8601 timestamp with a zone, or a date, as epoch ms (windows of tracks and port calls). */
export const timeParam = z.string().transform((v, ctx) => {
  const t = parseIsoTime(v);
  if (t === null) {
    ctx.addIssue({ code: "custom", message: "must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-19T06:00:00Z, or a date, e.g. 2026-11-19" });
    return z.NEVER;
  }
  return t;
});
