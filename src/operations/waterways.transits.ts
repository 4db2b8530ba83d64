import { z } from "zod";
import { AppError } from "../domain/errors.ts";
import { dailySeries } from "../domain/derived/transit-counts.ts";
import { sourced } from "../domain/rights/sourced.ts";
import { defineOperation } from "./operation.ts";
import { intParam } from "./params.ts";
import { confidenceOf, ConfidenceSchema, CountSchema, gateFacts, identityOf, inputsOf, InputsSchema, METHOD, WaterwayIdentitySchema } from "./projections/waterways.ts";
import { visibleStations } from "./projections/visible-vessel.ts";

const DAY = 86_400_000;

export const waterwaysTransits = defineOperation({
  id: "waterways.transits",
  method: "GET",
  path: "/api/v1/waterways/{id}/transits",
  tool: "get_chokepoint_transits",
  summary: "Daily transits of one chokepoint",
  description:
    "The daily transit series of one waterway (a PortWatch id such as `chokepoint9`, or an extra waterway's id such as `kiel-canal`, as `GET /api/v1/waterways` lists them) " +
    "over the last `days` UTC days (1 to 90, default 30, today included), by direction and vessel category, counted from the positions of stations you own or that are shared " +
    "(a vessel at most once in 48 hours), with method, version, confidence and inputs over the same window. Withheld when a source behind the counts does not permit API use. 1 credit.",
  auth: "key",
  input: z.strictObject({
    id: z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/, "must be a waterway id as GET /api/v1/waterways lists it, e.g. chokepoint9")
      .describe("The waterway: e.g. chokepoint9 (Dover Strait) or kiel-canal."),
    days: intParam(1, 90, 30).describe("UTC days of the series, ending today."),
  }),
  output: {
    top: WaterwayIdentitySchema.shape,
    data: z.object({
      series: z.array(CountSchema.extend({ date: z.string() })).nullable(),
      method: z.string(),
      version: z.string(),
      confidence: ConfidenceSchema.nullable(),
      inputs: InputsSchema,
    }),
  },
  responseType: "waterway_transits",
  apiVersion: "1",
  cost: 1,
  async run(ctx, input) {
    const w = ctx.services.waterways.waterways.find((x) => x.id === input.id);
    if (!w) throw new AppError("not_found", `No waterway ${input.id}; GET /api/v1/waterways lists them (chokepoint1 to chokepoint28 and the extra ones).`);
    const visible = await visibleStations(ctx);
    const to = (Math.floor(ctx.now / DAY) + 1) * DAY;
    const from = to - input.days * DAY;
    const facts = await gateFacts(ctx, visible, from, from, w.id);
    const inputs = inputsOf(facts, w);
    const series = dailySeries(facts.transits.get(w.id) ?? [], [w.gate.directions.leftToRight, w.gate.directions.rightToLeft], facts.categories, from, to);
    return {
      top: identityOf(ctx, w),
      data: {
        series: sourced("counts", inputs.sources, series, { whenWithheld: "null", leaf: true }),
        ...METHOD,
        confidence: confidenceOf(facts, w.id, Math.min(to, ctx.now) - from, `${input.days}d`),
        inputs,
      },
    };
  },
});
