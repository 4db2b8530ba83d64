import type { Inspection } from "../domain/inspections/inspection.ts";

export interface InspectionStore {
  /** Replaces every row of one source, all or nothing. */
  replaceSource(source: string, rows: readonly Inspection[]): Promise<void>;
  /** A ship's inspections, newest first, each with the source it was filed under. */
  forVessel(imo: number): Promise<(Inspection & { source: string })[]>;
}
