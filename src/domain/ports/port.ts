import { z } from "zod";

/**
 * A UN/LOCODE location with the port function, as the service keeps it: the one
 * declaration of a port. The store's rows, the importer's records and the API's
 * port answers are derived from it.
 */
export const PortSchema = z.object({
  unlocode: z.string(),
  country: z.string(),
  location: z.string(),
  name: z.string(),
  nameAscii: z.string(),
  subdivision: z.string().nullable(),
  subdivisionName: z.string().nullable(),
  /** UNECE function classifier string, e.g. "1-3-----". */
  functions: z.string(),
  functionNames: z.array(z.string()),
  status: z.string().nullable(),
  iata: z.string().nullable(),
  /** UNECE Date column, YYMM, of the last change (2018-1 rows only; the 2024 export dropped it). */
  changed: z.string().nullable(),
  /** Which UN/LOCODE file the row came from: "2018-1" or "2024". */
  edition: z.string(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  /** Where the coordinates come from: "unlocode", "wpi", "natural_earth" or "geoapify". */
  coordSource: z.string().nullable(),
  /** Harbour facts of the World Port Index row matched on UN/LOCODE. */
  wpi: z.record(z.string(), z.unknown()).nullable(),
  details: z.object({
    alternateNames: z.array(z.string()),
    remarks: z.string().nullable(),
    notes: z.array(z.string()),
    /** Same-country locations of exactly this name without the port function (e.g. CNSHA for CNSGH). */
    sameNameLocations: z.array(z.object({ unlocode: z.string(), name: z.string(), functionNames: z.array(z.string()) })).optional(),
  }),
});

export type Port = z.infer<typeof PortSchema>;

/** What UN/LOCODE says a port is: the identity section of a port's page. */
export const PortIdentitySchema = PortSchema.pick({
  name: true,
  nameAscii: true,
  subdivision: true,
  subdivisionName: true,
  functions: true,
  functionNames: true,
  status: true,
  iata: true,
  changed: true,
  edition: true,
});

export type PortIdentity = z.infer<typeof PortIdentitySchema>;

/** The identity section of a port, in the order the page shows it. */
export function portIdentity(p: PortIdentity): PortIdentity {
  return {
    name: p.name,
    nameAscii: p.nameAscii,
    subdivision: p.subdivision,
    subdivisionName: p.subdivisionName,
    functions: p.functions,
    functionNames: p.functionNames,
    status: p.status,
    iata: p.iata,
    changed: p.changed,
    edition: p.edition,
  };
}
