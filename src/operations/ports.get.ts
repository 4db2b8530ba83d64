import { z } from "zod";
import { AppError } from "../domain/errors.ts";
import { portIdentity, PortIdentitySchema } from "../domain/ports/port.ts";
import { flagPagePath, portPagePath } from "../domain/pages/page-paths.ts";
import { sourced } from "../domain/rights/sourced.ts";
import { CoordinatesSchema } from "./envelope-schemas.ts";
import { visibleStations } from "./projections/visible-vessel.ts";
import { defineOperation } from "./operation.ts";
import { unlocodeParam } from "./params.ts";
import { coordinatesOf } from "./projections/port-coordinates.ts";

/** The page shows the latest calls of the last 30 days, newest first. */
const RECENT_CALLS = 10;
const RECENT_CALLS_MS = 30 * 86_400_000;

export const portsGet = defineOperation({
  id: "ports.get",
  method: "GET",
  path: "/api/v1/ports/{unlocode}",
  tool: "get_port",
  summary: "A port's page",
  description: "The port page of one UN/LOCODE (case-insensitive): identity, functions, coordinates with their source, and World Port Index harbour facts where known.",
  auth: "optional",
  input: z.strictObject({
    unlocode: unlocodeParam.describe("Five-character UN/LOCODE of the port, case-insensitive: two letters of country, then three letters or digits 2-9, e.g. NLRTM (Rotterdam)."),
  }),
  output: {
    top: { unlocode: z.string(), name: z.string().nullable(), country: z.string().nullable(), api: z.string(), page: z.string(), generatedAt: z.string() },
    data: z.object({
      identity: PortIdentitySchema.optional(),
      coordinates: CoordinatesSchema.nullable(),
      harbour: z.record(z.string(), z.unknown()).nullable(),
      flag: z.object({ iso2: z.string(), api: z.string(), page: z.string() }).nullable(),
      /** The latest calls derived from stations the caller may see (GET .../calls has them all). */
      recentCalls: z.array(z.object({ vessel: z.object({ mmsi: z.number().int() }), arrival: z.string(), departure: z.string().nullable(), source: z.string() })),
    }),
  },
  responseType: "port",
  apiVersion: "preview",
  cost: 1,
  async run(ctx, input) {
    const p = await ctx.services.ports.get(input.unlocode);
    if (!p) {
      const place = await ctx.services.ports.nonPortPlace(input.unlocode);
      if (place) {
        const functions = place.functionNames.length > 0 ? place.functionNames.join(", ") : "no function listed";
        const ports = place.ports.map((q) => `${q.unlocode} (${q.name})`).join(", ");
        throw new AppError(
          "not_found",
          `${input.unlocode} is ${place.name} in UN/LOCODE, a location without the port function (${functions}). ${place.ports.length === 1 ? "The port of the same place is" : "The ports of the same place are"} ${ports}.`,
        );
      }
      throw new AppError("not_found", `No port with UN/LOCODE ${input.unlocode}.`);
    }
    const visible = await visibleStations(ctx);
    const calls = (await ctx.services.derived.portCalls(p.unlocode, { visible, from: ctx.now - RECENT_CALLS_MS, to: ctx.now + 1, after: null, limit: 500 })).slice(-RECENT_CALLS).reverse();
    return {
      // Name and country are UN/LOCODE's facts: withheld (null) when its rights are.
      top: {
        unlocode: p.unlocode,
        name: sourced("identity", ["unlocode"], p.name, { whenWithheld: "null", leaf: true }),
        country: sourced("identity", ["unlocode"], p.country, { whenWithheld: "null", leaf: true }),
        api: `${ctx.baseUrl}/api/v1/ports/${p.unlocode}`,
        page: `${ctx.baseUrl}${portPagePath(p.unlocode)}`,
        generatedAt: new Date(ctx.now).toISOString() },
      data: {
        identity: sourced("identity", ["unlocode"], portIdentity(p), { leaf: true }),
        // On a page a withheld section stays as a null key, so clients see that it exists.
        coordinates: coordinatesOf(p, { countRows: false, whenWithheld: "null" }),
        harbour: p.wpi ? sourced("harbour", ["wpi"], p.wpi, { whenWithheld: "null", leaf: true }) : null,
        flag: sourced("identity", ["unlocode"], { iso2: p.country, api: `${ctx.baseUrl}/api/v1/flags/${p.country}`, page: `${ctx.baseUrl}${flagPagePath(p.country)}` }, { whenWithheld: "null", leaf: true }),
        recentCalls: calls.map((c) =>
          sourced(
            "recentCalls",
            [`station:${c.stationId}`],
            { vessel: { mmsi: c.mmsi }, arrival: new Date(c.arrival).toISOString(), departure: c.departure === null ? null : new Date(c.departure).toISOString(), source: `station:${c.stationId}` },
            { countRows: true, leaf: true },
          ),
        ),
      },
    };
  },
});

