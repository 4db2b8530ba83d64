/**
 * OFAC's SDN.CSV (12 columns, no header) with ALT.CSV (aliases) and SDN_COMMENTS.CSV
 * (remarks beyond 1000 characters, which can hold the IMO/MMSI) -> vessel designations.
 */
import { type Designation, type ExternalId, makeDesignation, parseTonnage, parseYear } from "../../../../domain/sanctions/designation.ts";
import { UnreadFields } from "../unread-fields.ts";
import { type Classified, LIST, OFAC_DETAILS_URL, ofacCsvRows } from "./shared.ts";

/** OFAC's null marker is "-0-" (with a trailing space in the real file). */
function field(value: string | undefined): string | null {
  const s = (value ?? "").trim();
  return s === "" || s === "-0-" ? null : s;
}

/** "SDGT] [IFSR" -> ["SDGT", "IFSR"]: the CSV strips the outer brackets of a bracketed list. */
export function splitOfacPrograms(value: string | null): string[] {
  if (value === null) return [];
  return value
    .split(/\]\s*\[/)
    .map((p) => p.replace(/^\[|\]$/g, "").trim())
    .filter((p) => p !== "");
}

type RemarkFacts = {
  imoValues: string[];
  mmsiValues: string[];
  aliases: string[];
  formerNames: string[];
  formerFlags: string[];
  owners: string[];
  measures: string[];
  externalIds: ExternalId[];
  yearBuilt: number | null;
  /** Remark tokens no rule reads (they stay in the designation's remarks), for the import's warning. */
  unread: string[];
};

/**
 * Reads the semicolon-separated "features" of a vessel's remarks. IMO and MMSI
 * exist only here in the CSV. A registration number that is not IMO-shaped
 * ("15411 (Malta)", "RS 150443 (Russia)") is kept as an external id, not an IMO.
 */
export function parseOfacRemarks(remarks: string | null): RemarkFacts {
  const facts: RemarkFacts = {
    imoValues: [],
    mmsiValues: [],
    aliases: [],
    formerNames: [],
    formerFlags: [],
    owners: [],
    measures: [],
    externalIds: [],
    yearBuilt: null,
    unread: [],
  };
  if (remarks === null) return facts;

  for (const m of remarks.matchAll(/\b([afn])\.k\.a\.,?\s+'(.+?)'(?=\s*(?:;|\.?\s*$|\.\s))/g)) {
    if (m[1] === "f") facts.formerNames.push(m[2]!);
    else facts.aliases.push(m[2]!);
  }

  const rules: [RegExp, (m: RegExpExecArray) => void][] = [
    [
      /^Vessel Registration Identification\s+(.+)$/i,
      (m) => {
        const value = m[1]!.trim();
        if (/^IMO/i.test(value) || /^\d{7}(?:\s*\(.*\))?$/.test(value)) facts.imoValues.push(value.replace(/\s*\(.*\)$/, ""));
        else facts.externalIds.push({ type: "Vessel Registration Identification", value });
      },
    ],
    [/^Identification Number\s+(IMO\s*\d+)/i, (m) => facts.imoValues.push(m[1]!)],
    [/^MMSI\s+(\d+)/i, (m) => facts.mmsiValues.push(m[1]!)],
    [
      /^Former Vessel Flag\s+(.+)$/i,
      (m) => {
        if (!/^None Identified$/i.test(m[1]!)) facts.formerFlags.push(m[1]!);
      },
    ],
    [
      /^Vessel Year of Build\s+(.+)$/i,
      (m) => {
        facts.yearBuilt = parseYear(m[1]);
      },
    ],
    [/^Linked To:\s*(.+)$/i, (m) => facts.owners.push(m[1]!)],
    [/^(Other Vessel (?:Flag|Call Sign|Type))\s+(.+)$/i, (m) => facts.externalIds.push({ type: m[1]!, value: m[2]! })],
    [
      /^(?:Secondary sanctions risk:|Additional Sanctions Information\b|Transactions Prohibited For Persons\b|PEESA Information:|Effective Date\b|Listing Date\b).*$/i,
      (m) => facts.measures.push(m[0]),
    ],
  ];
  for (const rawToken of remarks.split(/;\s*/)) {
    const token = rawToken.trim().replace(/\.$/, "").trim().replace(/^alt\.\s+/i, "");
    const rule = rules.find(([pattern]) => pattern.test(token));
    if (rule) rule[1](rule[0].exec(token)!);
    else if (token !== "" && !/^[afn]\.k\.a\.,?\s+'/.test(token)) facts.unread.push(token);
  }
  return facts;
}

/** The kind of a remark token for the warning: its words before the first value ("Vessel Length 244 m" -> "Vessel Length"). */
function tokenKind(token: string): string {
  return token.replace(/\s*[\d'"(:].*$/, "").slice(0, 60) || token.slice(0, 60);
}

/**
 * The rows of the SDN.CSV files that `wanted` picks (it sees every row), by ent_num, the first
 * of an ent_num only; each file read as a stream, so what is kept is what is picked.
 */
export async function pickSdnRows(sdn: Classified[], wanted: (row: string[]) => boolean): Promise<Map<string, string[]>> {
  const rows = new Map<string, string[]>();
  for (const s of sdn) {
    for await (const row of ofacCsvRows(s)) {
      const entNum = row[0]!.trim();
      if (wanted(row) && !rows.has(entNum)) rows.set(entNum, row);
    }
  }
  return rows;
}

/** SDN_COMMENTS.CSV: the continuation of each remark beyond 1000 characters, for the ent_nums asked for. */
export async function remarkSpills(comments: Classified[], of: ReadonlySet<string> | ReadonlyMap<string, unknown>): Promise<Map<string, string>> {
  const spill = new Map<string, string>();
  for (const c of comments) {
    for await (const row of ofacCsvRows(c)) {
      const ent = row[0]!.trim();
      if (of.has(ent)) spill.set(ent, (spill.get(ent) ?? "") + (row[1] ?? ""));
    }
  }
  return spill;
}

/** Vessel designations of the SDN.CSV files, completed by ALT.CSV and SDN_COMMENTS.CSV; only vessels' rows are kept. */
export async function fromSdnCsv(sdn: Classified[], alt: Classified[], comments: Classified[], unread = new UnreadFields("vessel remark")): Promise<Designation[]> {
  // A first read picks the vessels (a few percent of the rows); the companion files are then
  // read for those alone.
  const vessels = await pickSdnRows(sdn, (row) => (field(row[2]) ?? "").toLowerCase() === "vessel");
  const spill = await remarkSpills(comments, vessels);

  const alternates = new Map<string, { type: string; name: string }[]>();
  for (const a of alt) {
    for await (const row of ofacCsvRows(a)) {
      const ent = row[0]!.trim();
      const name = field(row[3]);
      if (name === null || !vessels.has(ent)) continue;
      const list = alternates.get(ent) ?? [];
      list.push({ type: (field(row[2]) ?? "aka").toLowerCase(), name });
      alternates.set(ent, list);
    }
  }

  const out: Designation[] = [];
  for (const [entNum, row] of vessels) {
    // Remarks beyond 1000 characters continue in SDN_COMMENTS.CSV mid-word or right after a
    // space: join the untrimmed halves without a separator.
    const head = field(row[11]) === null ? "" : (row[11] ?? "");
    const remarks = field(`${head}${spill.get(entNum) ?? ""}`);
    const facts = parseOfacRemarks(remarks);
    for (const kind of new Set(facts.unread.map(tokenKind))) unread.saw(`"${kind}"`);
    const alts = alternates.get(entNum) ?? [];
    const owner = field(row[10]);
    out.push(
      makeDesignation({
        list: LIST,
        recordId: entNum,
        name: field(row[1]) ?? "",
        programs: splitOfacPrograms(field(row[3])),
        aliases: [...facts.aliases, ...alts.filter((a) => a.type !== "fka").map((a) => a.name)],
        formerNames: [...facts.formerNames, ...alts.filter((a) => a.type === "fka").map((a) => a.name)],
        imoValues: facts.imoValues,
        mmsiValues: facts.mmsiValues,
        callSign: field(row[5]),
        vesselType: field(row[6]),
        tonnage: parseTonnage(field(row[7])),
        grossTonnage: parseTonnage(field(row[8])),
        flag: field(row[9]),
        formerFlags: facts.formerFlags,
        yearBuilt: facts.yearBuilt,
        owners: [...(owner === null ? [] : [owner]), ...facts.owners],
        measures: facts.measures,
        externalIds: facts.externalIds,
        remarks,
        sourceUrl: OFAC_DETAILS_URL + entNum,
      }),
    );
  }
  return out;
}
