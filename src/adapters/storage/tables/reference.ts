/** Reference data the importers replace whole: ports, wrecks, flags, companies, inspections, and the log of what was imported. */

export interface PortsTable {
  unlocode: string;
  country: string;
  location: string;
  name: string;
  name_ascii: string;
  subdivision: string | null;
  subdivision_name: string | null;
  functions: string;
  function_names: string;
  status: string | null;
  iata: string | null;
  changed: string | null;
  edition: string;
  lat: number | null;
  lon: number | null;
  coord_source: string | null;
  wpi: string | null;
  /** Alternate names, remarks, caveats of the row, as JSON. */
  details: string;
}

/** One NOAA AWOIS record (migration 0010); `record` holds its facts as JSON. */
export interface WrecksTable {
  id: number;
  slug: string;
  name: string | null;
  lat: number;
  lon: number;
  source: string;
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
