/**
 * What a vessel says of itself over AIS (static reports, or a feed's metadata). Fields a
 * report does not carry are undefined and leave the stored value as it was.
 */
export interface VesselIdentityFields {
  /** Only check-digit-valid IMO numbers; anything else is stored as null. */
  imo?: number | null;
  name?: string | null;
  callsign?: string | null;
  shipType?: number | null;
  toBow?: number | null;
  toStern?: number | null;
  toPort?: number | null;
  toStarboard?: number | null;
  draught?: number | null;
  destination?: string | null;
  /** As broadcast, without a year: `MM-DDTHH:MMZ`, null when not available. */
  eta?: string | null;
}
