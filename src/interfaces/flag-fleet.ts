/** What the loaded sources say about the ships under one flag. */
export interface FlagFleet {
  /** Per source: ships it places under the flag, counted by the type it gives (null: no type). */
  bySource: { source: string; total: number; byType: { type: string | null; count: number }[] }[];
  /** Per sanctions list: its active designations of ships under the flag. */
  designated: { list: string; vessels: { recordId: string; name: string; imos: number[]; mmsis: number[] }[] }[];
}

export interface FlagFleetReader {
  /** `iso2` upper case. Lists and sources with no ship under the flag are left out. */
  of(iso2: string): Promise<FlagFleet>;
}
