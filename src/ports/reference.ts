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
  details: { alternateNames: string[]; remarks: string | null; notes: string[] };
}

export interface PortStore {
  /** Ports in UN/LOCODE order after `after` (exclusive), optionally of one country. */
  list(query: { country?: string; after?: string; limit: number }): Promise<PortRow[]>;
  get(unlocode: string): Promise<PortRow | null>;
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
