import { z } from "zod";
import { AppError } from "../domain/errors.ts";
import { formatVesselId } from "../domain/identifiers.ts";
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
  description:
    "The flag registry of one country (ISO 3166-1 alpha-2, case-insensitive): the country, its Maritime Identification Digits (MMSI prefixes), flag-of-convenience status where known (ITF list; withheld where its source does not permit), a link to its ports, " +
    "the ships each loaded source places under the flag counted by type (MARAD for US; each sanctions list by the flag it publishes), and per sanctions list the ships under the flag it designates.",
  auth: "optional",
  input: z.strictObject({ iso2: iso2Param.describe("ISO 3166-1 alpha-2 country code, case-insensitive, e.g. PA.") }),
  output: {
    top: { iso2: z.string(), name: z.string().nullable(), api: z.string(), page: z.string(), generatedAt: z.string() },
    data: z.object({
      country: z.record(z.string(), z.unknown()).nullable(),
      mids: z.object({ mids: z.array(z.number().int()), allocatedTo: z.array(z.string()), ituCode: z.string().nullable(), allocations: z.array(z.unknown()) }).nullable(),
      flagOfConvenience: z.record(z.string(), z.unknown()).nullable(),
      ports: z.object({ api: z.string() }),
      /** Per source: the ships it places under this flag, counted by the type it gives. */
      vessels: z.array(z.object({ source: z.string(), total: z.number().int(), byType: z.array(z.object({ type: z.string().nullable(), count: z.number().int() })) })),
      /** Per sanctions list: its active designations of ships under this flag (the flag as the list publishes it). */
      sanctioned: z.array(
        z.object({
          list: z.string(),
          count: z.number().int(),
          vessels: z.array(z.object({ recordId: z.string(), name: z.string(), imo: z.number().int().nullable(), mmsi: z.number().int().nullable(), api: z.string().nullable() })),
        }),
      ),
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
    const fleet = await ctx.services.flagFleet.of(flag.iso2);
    return {
      // The country's name is ISO 3166's fact: withheld (null) when its rights are.
      top: { iso2: flag.iso2, name: sourced("country", ["iso3166"], flag.name, { whenWithheld: "null", leaf: true }), api: `${ctx.baseUrl}/api/v1/flags/${flag.iso2}`, page: `${ctx.baseUrl}${flagPagePath(flag.iso2)}`, generatedAt: new Date(ctx.now).toISOString() },
      data: {
        country: sourced("country", ["iso3166"], country, { whenWithheld: "null" }),
        mids: sourced("mids", ["itu_mid"], { mids, allocatedTo, ituCode: (r["ituCode"] as string | null) ?? null, allocations: Array.isArray(r["midAllocations"]) ? r["midAllocations"] : [] }, { whenWithheld: "null" }),
        flagOfConvenience: foc ? sourced("flagOfConvenience", ["itf_foc"], foc, { whenWithheld: "null" }) : null,
        ports: { api: `${ctx.baseUrl}/api/v1/ports?country=${flag.iso2}` },
        vessels: fleet.bySource.map((s) => sourced("vessels", [s.source], s, { countRows: true, leaf: true })),
        sanctioned: fleet.designated.map((l) =>
          sourced(
            "sanctioned",
            [l.list],
            {
              list: l.list,
              count: l.vessels.length,
              vessels: l.vessels.map((v) => {
                const imo = v.imos[0] ?? null;
                const mmsi = imo === null ? (v.mmsis[0] ?? null) : null;
                const id = imo !== null ? formatVesselId({ kind: "imo", imo }) : mmsi !== null ? formatVesselId({ kind: "mmsi", mmsi }) : null;
                return { recordId: v.recordId, name: v.name, imo, mmsi, api: id === null ? null : `${ctx.baseUrl}/api/v1/vessels/${id}` };
              }),
            },
            { countRows: true, leaf: true },
          ),
        ),
      },
    };
  },
});
