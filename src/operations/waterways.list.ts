import { z } from "zod";
import { windowCounts } from "../domain/derived/transit-counts.ts";
import { sourced } from "../domain/rights/sourced.ts";
import { defineOperation } from "./operation.ts";
import { confidenceOf, ConfidenceSchema, CountSchema, gateFacts, identityOf, inputsOf, InputsSchema, LONGEST_WINDOW_MS, METHOD, WaterwayIdentitySchema } from "./projections/waterways.ts";
import { visibleStations } from "./projections/visible-vessel.ts";

const DAY = 86_400_000;

const WaterwaySchema = WaterwayIdentitySchema.extend({
  counts: z.object({ asOf: z.string(), "24h": CountSchema, "7d": CountSchema, "30d": CountSchema }).nullable(),
  method: z.string(),
  version: z.string(),
  confidence: ConfidenceSchema.nullable(),
  inputs: InputsSchema,
});

export const waterwaysList = defineOperation({
  id: "waterways.list",
  method: "GET",
  path: "/api/v1/waterways",
  summary: "Chokepoints and their AIS transit counts",
  description:
    "Every canal and strait on the chokepoint monitor: the 28 IMF PortWatch chokepoints (their ids and names) and the extra waterways, each with the gate transits are counted at, " +
    "and the transits of the last 24 hours, 7 days and 30 days by direction and vessel category, counted from the positions of stations you own or that are shared " +
    "(a vessel at most once in 48 hours). Each carries method, version, confidence (from receiver coverage near the gate in the last 24 hours) and inputs (the sources behind the counts). " +
    "Counts are withheld when a source behind them does not permit API use. 1 credit.",
  auth: "key",
  input: z.strictObject({}),
  output: { data: z.array(WaterwaySchema) },
  responseType: "waterway_list",
  apiVersion: "1",
  cost: 1,
  async run(ctx) {
    const visible = await visibleStations(ctx);
    const now = ctx.now;
    const facts = await gateFacts(ctx, visible, now - LONGEST_WINDOW_MS, now - DAY);
    return {
      data: ctx.services.waterways.waterways.map((w) => {
        const inputs = inputsOf(facts, w);
        const directions = [w.gate.directions.leftToRight, w.gate.directions.rightToLeft];
        const counts = { asOf: new Date(now).toISOString(), ...windowCounts(facts.transits.get(w.id) ?? [], directions, facts.categories, now) };
        return {
          ...identityOf(ctx, w),
          counts: sourced("counts", inputs.sources, counts, { whenWithheld: "null", leaf: true }),
          ...METHOD,
          confidence: confidenceOf(facts, w.id, DAY, "24h"),
          inputs,
        };
      }),
    };
  },
});
