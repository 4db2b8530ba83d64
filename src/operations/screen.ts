import { z } from "zod";
import { formatVesselId, parseVesselId } from "../domain/identifiers.ts";
import { defineOperation } from "./operation.ts";
import { listsParam, SCREEN_TOP, type ScreenQuery, ScreenResultSchema, screenVessels } from "./screening.ts";

const MAX_SCREEN_IDS = 50;

const idsParam = z.string().transform((v, ctx) => {
  const parts = v
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (parts.length === 0) {
    ctx.addIssue({ code: "custom", message: "must name at least one IMO number or mmsi- identifier" });
    return z.NEVER;
  }
  const out: ScreenQuery[] = [];
  const seen = new Set<string>();
  for (const text of parts) {
    const id = parseVesselId(text);
    if (!id) {
      ctx.addIssue({ code: "custom", message: `has \`${text.slice(0, 40)}\`, which is not a checksum-valid 7-digit IMO number or \`mmsi-\` followed by 9 digits` });
      return z.NEVER;
    }
    // The same vessel twice is answered, and charged, once.
    const key = formatVesselId(id);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ text, id });
  }
  if (out.length > MAX_SCREEN_IDS) {
    ctx.addIssue({ code: "custom", message: `names ${out.length} vessels; at most ${MAX_SCREEN_IDS} per call` });
    return z.NEVER;
  }
  return out;
});

export const screen = defineOperation({
  id: "screen",
  method: "GET",
  path: "/api/v1/screen",
  tool: "screen_vessels",
  summary: "Screen vessels against sanctions lists by IMO or MMSI",
  description:
    "Up to 50 vessels (checksum-valid IMO numbers or mmsi- identifiers) against the OFAC, UK, Canadian, EU and New Zealand lists: the active and past " +
    "designations carrying each identifier. Each designation names the list it is on (`list`, e.g. `ofac_sdn`; `family` is the key `lists` takes) and its " +
    "`measures` (asset freeze, port-access ban, ...) with each measure's legal basis. Identifier-only: names are never matched, and no match is not a clearance. " +
    "`sanctioned: false` is a clearance only where `certainty` is `clear`; `incomplete` means a requested list was an extract, never loaded, or withheld (see `listsChecked`). " +
    "Every answer carries a `screeningId`: its signed receipt, with the list versions used, is at `/api/v1/screenings/{screeningId}` (tool `get_screening`). 1 credit per vessel.",
  auth: "key",
  input: z.strictObject({
    ids: idsParam.describe(
      "Comma-separated vessels to screen, up to 50: checksum-valid 7-digit IMO numbers or `mmsi-` followed by the 9-digit MMSI, e.g. `9176187,mmsi-273456789`. Each costs 1 credit.",
    ),
    lists: listsParam,
  }),
  output: { top: SCREEN_TOP, data: z.array(ScreenResultSchema) },
  responseType: "screen",
  apiVersion: "1",
  cost: { per: "ids" },
  receipt: "screening",
  async run(ctx, input) {
    return screenVessels(ctx, input.ids, input.lists);
  },
});
