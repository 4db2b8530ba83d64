import { z } from "zod";
import { AppError } from "../domain/errors.ts";
import { flagPagePath } from "../domain/pages/page-paths.ts";
import { sourced } from "../domain/rights/sourced.ts";
import { defineOperation } from "./operation.ts";
import { iso2Param } from "./params.ts";

const COUNTRY_FIELDS = ["iso2", "iso3", "numeric", "name", "commonName", "officialName", "region", "subRegion", "intermediateRegion", "independent", "sovereignty"] as const;

export const flagsGet = defineOperation({
  id: "flags.get",
  method: "GET",
  path: "/api/v1/flags/{iso2}",
  summary: "A flag registry's page",
  description: "The flag registry of one country (ISO 3166-1 alpha-2, case-insensitive): the country, its Maritime Identification Digits (MMSI prefixes), flag-of-convenience status where known, and a link to its ports.",
  auth: "optional",
  input: z.strictObject({ iso2: iso2Param.describe("ISO 3166-1 alpha-2 country code, case-insensitive, e.g. PA.") }),
  output: {
    top: { iso2: z.string(), name: z.string().nullable(), api: z.string(), page: z.string(), generatedAt: z.string() },
    data: z.object({
      country: z.record(z.string(), z.unknown()).nullable(),
      mids: z.object({ mids: z.array(z.number().int()), allocatedTo: z.array(z.string()), ituCode: z.string().nullable(), allocations: z.array(z.unknown()) }).nullable(),
      flagOfConvenience: z.record(z.string(), z.unknown()).nullable(),
      ports: z.object({ api: z.string() }),
    }),
  },
  responseType: "flag",
  apiVersion: "preview",
  cost: 1,
  async run(ctx, input) {
    const flag = await ctx.services.flags.get(input.iso2);
    if (!flag) throw new AppError("not_found", `No country or territory with ISO 3166-1 code ${input.iso2}.`);
    const r = flag.record;
    const country = Object.fromEntries(COUNTRY_FIELDS.filter((k) => r[k] !== undefined).map((k) => [k, r[k]]));
    const mids = Array.isArray(r["mids"]) ? (r["mids"] as number[]) : [];
    const allocatedTo = Array.isArray(r["midAllocatedTo"]) ? (r["midAllocatedTo"] as string[]) : [];
    const foc = r["flagOfConvenience"] as Record<string, unknown> | undefined;
    return {
      // The country's name is ISO 3166's fact: withheld (null) when its rights are.
      top: { iso2: flag.iso2, name: sourced("country", ["iso3166"], flag.name, { whenWithheld: "null", leaf: true }), api: `${ctx.baseUrl}/api/v1/flags/${flag.iso2}`, page: `${ctx.baseUrl}${flagPagePath(flag.iso2)}`, generatedAt: new Date(ctx.now).toISOString() },
      data: {
        country: sourced("country", ["iso3166"], country, { whenWithheld: "null" }),
        mids: sourced("mids", ["itu_mid"], { mids, allocatedTo, ituCode: (r["ituCode"] as string | null) ?? null, allocations: Array.isArray(r["midAllocations"]) ? r["midAllocations"] : [] }, { whenWithheld: "null" }),
        flagOfConvenience: foc ? sourced("flagOfConvenience", ["itf_foc"], foc, { whenWithheld: "null" }) : null,
        ports: { api: `${ctx.baseUrl}/api/v1/ports?country=${flag.iso2}` },
      },
    };
  },
});
