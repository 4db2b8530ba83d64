import type { Gate } from "./gates.ts";

/** A waterway on the chokepoint monitor: a PortWatch chokepoint, or an extra gate the operator added as data. */
export interface Waterway {
  /** `chokepoint1`..`chokepoint28` (PortWatch), or the service's own id (`kiel-canal`). */
  id: string;
  name: string;
  slug: string;
  /** PortWatch's representative point; null for extra waterways. */
  point: { lat: number; lon: number } | null;
  /** Whether IMF PortWatch lists it (its id and name are PortWatch's). */
  portwatch: boolean;
  gate: Gate;
  /** How the gate was drawn: NE (Natural Earth boundary), P (published polygon axis), H (headlands), E (estimated). */
  gateStatus: "NE" | "P" | "H" | "E";
  gateDrawn: string;
}
