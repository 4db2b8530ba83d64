/** OFAC's legacy SDN.XML (`<sdnList>`) -> vessel designations. */
import { type Designation, type DesignationInput, makeDesignation, parseTonnage, parseYear } from "../../../../domain/sanctions/designation.ts";
import { child, children, text, texts, type XmlNode } from "../common.ts";
import { LIST, OFAC_DETAILS_URL } from "./shared.ts";

export function fromLegacyXml(xml: XmlNode): Designation[] {
  const out: Designation[] = [];
  for (const entry of children(xml, "sdnEntry")) {
    if (text(entry, "sdnType").toLowerCase() !== "vessel") continue;
    const uid = text(entry, "uid");
    if (uid === "") continue;
    const info = child(entry, "vesselInfo");
    const input: DesignationInput & { imoValues: string[]; mmsiValues: string[] } = {
      list: LIST,
      recordId: uid,
      name: [text(entry, "firstName"), text(entry, "lastName")].filter((s) => s !== "").join(" "),
      programs: texts(child(entry, "programList"), "program"),
      aliases: [],
      formerNames: [],
      imoValues: [],
      mmsiValues: [],
      formerFlags: [],
      externalIds: [],
      callSign: text(info, "callSign"),
      vesselType: text(info, "vesselType"),
      flag: text(info, "vesselFlag"),
      owners: texts(info, "vesselOwner"),
      tonnage: parseTonnage(text(info, "tonnage")),
      grossTonnage: parseTonnage(text(info, "grossRegisteredTonnage")),
      remarks: text(entry, "remarks"),
      sourceUrl: OFAC_DETAILS_URL + uid,
    };
    for (const aka of children(child(entry, "akaList"), "aka")) {
      const name = [text(aka, "firstName"), text(aka, "lastName")].filter((s) => s !== "").join(" ");
      if (/^f\.?k\.?a/i.test(text(aka, "type"))) input.formerNames!.push(name);
      else input.aliases!.push(name);
    }
    for (const id of children(child(entry, "idList"), "id")) {
      const type = text(id, "idType");
      const value = text(id, "idNumber");
      if (value === "") continue;
      if (/^MMSI$/i.test(type)) input.mmsiValues.push(value);
      else if (/^(Vessel Registration Identification|Identification Number)$/i.test(type) && /^(IMO\b|\d{7}\b)/i.test(value)) input.imoValues.push(value);
      else if (/^Former Vessel Flag$/i.test(type)) input.formerFlags!.push(value);
      else if (/^Vessel Year of Build$/i.test(type)) input.yearBuilt = parseYear(value);
      else input.externalIds!.push({ type, value });
    }
    out.push(makeDesignation(input));
  }
  return out;
}
