import type { Port } from "../../../domain/ports/port.ts";

/** What the ports import produces: one record per UN/LOCODE with the port function. */

export type CoordSource = "unlocode" | "wpi" | "natural_earth" | "geoapify";

/** Harbour facts of the World Port Index row matched on UN/LOCODE. Measurements in metres; null when WPI gives none. */
export type WpiFacts = {
  number: number;
  name: string;
  alternateName: string | null;
  regionName: string | null;
  countryName: string | null;
  waterBody: string | null;
  harborSize: string | null;
  harborType: string | null;
  harborUse: string | null;
  shelter: string | null;
  tidalRangeM: number | null;
  entranceWidthM: number | null;
  channelDepthM: number | null;
  anchorageDepthM: number | null;
  cargoPierDepthM: number | null;
  oilTerminalDepthM: number | null;
  lngTerminalDepthM: number | null;
  maxVesselLengthM: number | null;
  maxVesselBeamM: number | null;
  maxVesselDraftM: number | null;
  offshoreMaxVesselLengthM: number | null;
  offshoreMaxVesselBeamM: number | null;
  offshoreMaxVesselDraftM: number | null;
  firstPortOfEntry: boolean | null;
  pilotageCompulsory: boolean | null;
  tugsAvailable: boolean | null;
  /** Facility columns WPI answers "Yes", e.g. ["wharves", "container", "ro-ro"]. */
  facilities: string[];
  repairs: string | null;
  dryDock: string | null;
  railway: string | null;
  sailingDirections: string | null;
  lat: number | null;
  lon: number | null;
  /** Other WPI ports that carry the same UN/LOCODE (WPI has 29 such codes). */
  otherNumbers: number[];
};

/**
 * A port as the import builds it: the service's Port (domain/ports/port.ts) with its
 * `details` spread out and its coded fields narrowed, plus what the import tells of the
 * row's provenance. `toPort` folds it into the Port the store keeps.
 */
export type PortRecord = Omit<Port, "edition" | "coordSource" | "wpi" | "details"> & {
  /** Names of the other rows UNECE lists under the same code (bilingual names). */
  alternateNames: string[];
  /** UNECE Remarks column (2018-1 rows only), e.g. "USE BR PEC". */
  remarks: string | null;
  /** Which file the row came from. */
  edition: "2018-1" | "2024";
  /**
   * What the 2024 file says about this code: still a port, no longer a port, not in
   * the file at all, only in damaged rows, or reused for another place. Null when no
   * 2024 data was given. ("absent" needs the 2024 rows of every 2018-1 port code,
   * which the bundled subset has; with only the port-function rows it means
   * "absent or no longer a port".)
   */
  in2024: "port" | "not-a-port" | "absent" | "damaged" | "different-location" | null;
  coordSource: CoordSource | null;
  /** For coordSource "unlocode": the edition whose coordinates were used. */
  coordEdition: "2018-1" | "2024" | null;
  wpi: WpiFacts | null;
  /**
   * Locations of the same country with exactly this name but without the port function
   * (e.g. CNSHA, Shanghai's airport code, for the port CNSGH): a request for one of them
   * is answered with this port's code.
   */
  sameNameLocations: NonNullable<Port["details"]["sameNameLocations"]>;
  /** Human-readable caveats: rejected or corrected coordinates, repaired names, deletion marks. */
  notes: string[];
};

/** The Port the store keeps: provenance dropped, names, remarks and caveats folded into `details`. */
export function toPort(p: PortRecord): Port {
  const { alternateNames, remarks, notes, sameNameLocations, in2024: _in2024, coordEdition: _coordEdition, wpi, ...port } = p;
  return { ...port, wpi, details: { alternateNames, remarks, notes, sameNameLocations } };
}

export type PortsInput = {
  /** UNECE 2018-1 code list CSV (with the header row, or UNECE's headerless 12-column layout). */
  unlocode2018: Buffer;
  /** The 2024 geoapify export (whole file or any subset of its rows, same columns). */
  unlocode2024?: Buffer;
  /** NGA World Port Index "UpdatedPub150.csv". */
  wpi?: Buffer;
  /** UNECE subdivision codes (SUCountry, SUCode, SUName, SUType). */
  subdivisions?: Buffer;
  /** Natural Earth 1:10m ports GeoJSON: coordinates for ports that have none from UN/LOCODE or WPI. */
  naturalEarth?: Buffer;
};
