import type { Port } from "../../../domain/ports/port.ts";
import type { Wreck } from "../../../domain/wrecks/wreck.ts";
import type { Columns } from "./columns.ts";

/** Reference data the importers replace whole: ports, wrecks, flags, companies, inspections, and the log of what was imported. */

/** The domain's Port, with its lists and objects as JSON. */
export interface PortsTable extends Columns<Omit<Port, "functionNames" | "wpi" | "details">> {
  function_names: string;
  wpi: string | null;
  /** Alternate names, remarks, caveats of the row, as JSON. */
  details: string;
}

/** One NOAA AWOIS record (migration 0010); `record` holds the rest of the domain's Wreck as JSON. */
export interface WrecksTable extends Columns<Pick<Wreck, "id" | "slug" | "name" | "lat" | "lon" | "source">> {
  record: string;
}

export interface FlagsTable {
  iso2: string;
  name: string;
  record: string;
}

/** What each bundled or imported dataset holds, so a first start knows what to import. */
export interface DatasetsTable {
  id: string;
  rows: number;
  origin: string;
  imported_at: number;
}

/** One company record as one source states it; `record` holds aliases, country, address and designations as JSON. */
export interface CompanyRecordsTable {
  source: string;
  key: string;
  entity_id: string;
  name: string;
  norm: string;
  company_imo: string | null;
  lei: string | null;
  record: string;
}

/** Search terms of a company record's names: the normalised name from each word's start; rank 0 the name's start. */
export interface CompanyNameTermsTable {
  term: string;
  rank: number;
  source: string;
  key: string;
}

/** A ship one company record ties to the company, with the role and the quoted source field. */
export interface CompanyFleetTable {
  source: string;
  key: string;
  imo: number | null;
  mmsi: number | null;
  vessel_name: string | null;
  role: string;
  evidence: string;
}

/** One inspection of a ship from an operator's import. */
export interface InspectionsTable {
  source: string;
  imo: number;
  date: string;
  type: string;
  port: string;
  authority: string;
  origin: string;
}
