/** What the OFAC readers share: the list key, the details link, dates and identity documents. */
import { type ExternalId, isoDate } from "../../../../domain/sanctions/designation.ts";
import { type SourceFile, text, type XmlNode } from "../common.ts";

export const LIST = "ofac";
export const OFAC_DETAILS_URL = "https://sanctionssearch.ofac.treas.gov/Details.aspx?id=";

export type OfacFileKind = "sdn-csv" | "alt-csv" | "add-csv" | "comments-csv" | "legacy-xml" | "advanced-xml" | "enhanced-xml";

/** One publication file, recognised by content, with its CSV records or its XML root. */
export type Classified = { file: SourceFile; kind: OfacFileKind; rows?: string[][]; xml?: XmlNode };

/** A listing date found for an entity, and the field it was read from. */
export type ListingDate = { date: string; field: string };

/** Earliest Year/Month/Day below a node, as an ISO date. */
export function ymd(node: unknown): string | null {
  const year = Number(text(node, "Year"));
  const month = Number(text(node, "Month") || "1");
  const day = Number(text(node, "Day") || "1");
  return isoDate(year, month, day);
}

/** The earliest of the dates given, ignoring nulls. */
export function earliest(dates: (string | null)[]): string | null {
  const valid = dates.filter((d): d is string => d !== null).sort();
  return valid[0] ?? null;
}

/**
 * Files one identity document of a vessel: an MMSI, an IMO number (IMO-prefixed, or
 * seven digits given as the registration), or another identifier kept as it is.
 */
export function fileIdentityDocument(
  type: string,
  value: string,
  into: { imoValues: string[]; mmsiValues: string[]; externalIds: ExternalId[] },
): void {
  if (/^MMSI$/i.test(type)) into.mmsiValues.push(value);
  else if (/\bIMO\s*\d/i.test(value) || (/^Vessel Registration Identification$/i.test(type) && /^\d{7}$/.test(value))) into.imoValues.push(value);
  else into.externalIds.push({ type: type || "Identification", value });
}
