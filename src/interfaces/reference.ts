import type { Port } from "../domain/ports/port.ts";
import type { Wreck } from "../domain/wrecks/wreck.ts";

/** Reference data the operations read: ports and flag registries. */
export type PortRow = Port;

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
  /** The countries (ISO 3166-1 alpha-2) the ITU allocated this Maritime Identification Digits prefix to; empty when none. */
  countriesOfMid(mid: number): Promise<string[]>;
  replaceAll(rows: FlagRow[]): Promise<void>;
}

export interface DatasetLog {
  get(id: string): Promise<{ rows: number; origin: string; importedAt: number } | null>;
  record(id: string, rows: number, origin: string, at: number): Promise<void>;
}

/** One wreck record (NOAA AWOIS), keyed by the source's record number. */
export type WreckRow = Wreck;

export interface WreckStore {
  get(id: number): Promise<WreckRow | null>;
  count(): Promise<number>;
  /** All or nothing: the old rows stay if any insert fails. */
  replaceAll(rows: WreckRow[], onBatch?: (rows: number) => void): Promise<void>;
}
