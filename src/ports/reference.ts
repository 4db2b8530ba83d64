/** Reference data the operations read: ports and flag registries. */
export interface PortRow {
  unlocode: string;
  country: string;
  location: string;
  name: string;
  nameAscii: string;
  subdivision: string | null;
  subdivisionName: string | null;
  functions: string;
  functionNames: string[];
  status: string | null;
  iata: string | null;
  changed: string | null;
  edition: string;
  lat: number | null;
  lon: number | null;
  coordSource: string | null;
  wpi: Record<string, unknown> | null;
  details: {
    alternateNames: string[];
    remarks: string | null;
    notes: string[];
    /** Same-country locations of exactly this name without the port function (e.g. CNSHA for CNSGH). */
    sameNameLocations?: { unlocode: string; name: string; functionNames: string[] }[];
  };
}

/** A UN/LOCODE location that is not a port, and the ports of the same name in its country. */
export interface NonPortPlace {
  unlocode: string;
  name: string;
  functionNames: string[];
  ports: { unlocode: string; name: string }[];
}

export interface PortStore {
  /** Ports in UN/LOCODE order after `after` (exclusive), optionally of one country. */
  list(query: { country?: string; after?: string; limit: number }): Promise<PortRow[]>;
  get(unlocode: string): Promise<PortRow | null>;
  /** For a code that is a location without the port function: its name and the ports of the same name; null otherwise. */
  nonPortPlace(unlocode: string): Promise<NonPortPlace | null>;
  count(): Promise<number>;
  replaceAll(rows: PortRow[], onBatch?: (rows: number) => void): Promise<void>;
}

export interface FlagRow {
  iso2: string;
  name: string;
  record: Record<string, unknown>;
}

export interface FlagStore {
  get(iso2: string): Promise<FlagRow | null>;
  replaceAll(rows: FlagRow[]): Promise<void>;
}

export interface DatasetLog {
  get(id: string): Promise<{ rows: number; origin: string; importedAt: number } | null>;
  record(id: string, rows: number, origin: string, at: number): Promise<void>;
}

/** One wreck record (NOAA AWOIS), keyed by the source's record number. */
export interface WreckRow {
  id: number;
  /** `{name}-{id}`, e.g. `algeria-14296`; `wreck-{id}` when unnamed. The legacy URL form. */
  slug: string;
  name: string | null;
  featureType: string | null;
  lat: number;
  lon: number;
  positionQuality: string | null;
  /** As published: value below chart datum (negative when it dries), unit, and whether it is a wire-drag clearance. */
  depth: { value: number; unit: string | null; wireDragClearance: boolean } | null;
  depthM: number | null;
  yearSunk: number | null;
  history: string | null;
  /** The source id of the record, e.g. `noaa_awois`. */
  source: string;
}

export interface WreckStore {
  get(id: number): Promise<WreckRow | null>;
  count(): Promise<number>;
  /** All or nothing: the old rows stay if any insert fails. */
  replaceAll(rows: WreckRow[], onBatch?: (rows: number) => void): Promise<void>;
}
