/**
 * EU vessel designations.
 *
 * The EU publishes no machine-readable vessel list: Annex XLII of Regulation
 * 833/2014 (and the DPRK vessel annexes of Regulation 2017/1509) exist as tables
 * in the Official Journal. This parser reads those tables in tabular CSV form,
 * one row per annex entry (columns celex|amendedCelex, amendmentCelex, recordId,
 * programKey, annex, measure, startDate, reason, schema, name, alias,
 * previousName, imoNumber, mmsi, flag, notes), and the few vessels present in
 * the consolidated financial sanctions list XML (FSF, `<export>`), where
 * there is no vessel subject type and ships must be recognised.
 */
import {
  type Designation,
  type DesignationInput,
  isoDate,
  makeDesignation,
  parseDayFirstDate,
  SanctionsParseError,
  splitImoValue,
  uniqueStrings,
} from "../../../domain/sanctions/designation.ts";
import { celexToAct, eurLexUrl, measureKey } from "../../../domain/sanctions/measures.ts";
import {
  attr,
  child,
  children,
  decodeText,
  describeFormat,
  detectFormat,
  firstWins,
  headerIndex,
  headerKey,
  type ParseOptions,
  parseCsvRows,
  parseXml,
  type SanctionsInput,
  type SourceFile,
  text,
  texts,
  toSourceFiles,
} from "./common.ts";

const LIST = "eu";
export const EU_FSF_URL = "https://webgate.ec.europa.eu/fsd/fsf/public/files/xmlFullSanctionsList_1_1/content?token=dG9rZW4tMjAxNw";

/**
 * FSF entries known to be ships although the FSF types them as enterprises
 * (DPRK Annex XV.F: Unica, New Konk), by EU reference number.
 */
export const EU_FSF_KNOWN_VESSELS = ["EU.9442.82", "EU.9443.81"] as const;

export type EuParseOptions = ParseOptions & {
  /** FSF euReferenceNumbers to treat as vessels in addition to EU_FSF_KNOWN_VESSELS. */
  fsfVesselReferences?: readonly string[];
};

export { celexToAct, eurLexUrl };

/**
 * Splits trailing parentheses off an annex name: "STORMBRINGER (ex KRITI VIGOR)"
 * gives a former name; "Chong Bong (Greenlight) (Blue Nouvelle)" gives aliases
 * (the DPRK annexes put other names of the ship there without saying which).
 */
export function splitAnnexName(raw: string): { name: string; aliases: string[]; formerNames: string[] } {
  let name = raw.replace(/\s+/g, " ").trim();
  const aliases: string[] = [];
  const formerNames: string[] = [];
  for (;;) {
    const m = /^(.*\S)\s*\(([^()]+)\)?$/.exec(name);
    if (!m || !name.includes("(")) break;
    const inner = m[2]!.trim();
    const former = /^(?:ex|formerly|f\.k\.a\.|previously)[\s:.-]+(.+)$/i.exec(inner);
    if (former) formerNames.unshift(...former[1]!.split(/\s*;\s*|\s*,\s*/));
    else aliases.unshift(inner);
    name = m[1]!.trim();
  }
  return { name, aliases, formerNames };
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

const JOURNAL_REQUIRED = ["recordid", "annex", "name", "imonumber", "startdate"];
/** Every column the annex-table reader understands; any other is reported, and its values kept in `remarks`. */
const JOURNAL_KNOWN = new Set([...JOURNAL_REQUIRED, "celex", "amendedcelex", "amendmentcelex", "programkey", "measure", "reason", "schema", "alias", "previousname", "mmsi", "flag", "notes"]);

type JournalRow = { designation: Designation; amendment: string };

function fromJournalCsv(file: SourceFile, rows: string[][], warn: (message: string) => void): JournalRow[] {
  const index = headerIndex(rows[0]!);
  const unknown = rows[0]!.map((h, i) => ({ header: h.trim(), i })).filter(({ header }) => header !== "" && !JOURNAL_KNOWN.has(headerKey(header)));
  const missing = JOURNAL_REQUIRED.filter((c) => !index.has(c));
  if (missing.length > 0 || !(index.has("celex") || index.has("amendedcelex"))) {
    throw new SanctionsParseError(
      LIST,
      `${file.name} is CSV but not an EU annex table: missing columns ${[...missing, ...(index.has("celex") || index.has("amendedcelex") ? [] : ["celex"])].join(", ")}`,
    );
  }
  const get = (row: string[], column: string) => {
    const i = index.get(column);
    return i === undefined ? "" : (row[i] ?? "").trim();
  };
  const out: JournalRow[] = [];
  let rowsWithUnknown = 0;
  rows.slice(1).forEach((row, i) => {
    if (row.length !== rows[0]!.length) {
      throw new SanctionsParseError(LIST, `${file.name} line ${i + 2} has ${row.length} columns, expected ${rows[0]!.length}; the file may be truncated`);
    }
    const schema = get(row, "schema");
    if (schema !== "" && !/^vessel$/i.test(schema)) return;
    const celex = get(row, "amendedcelex") || get(row, "celex");
    const amendment = get(row, "amendmentcelex");
    const annex = get(row, "annex");
    const entry = get(row, "recordid");
    const { name, aliases, formerNames } = splitAnnexName(get(row, "name"));
    const imoRaw = get(row, "imonumber");
    const firstImo = splitImoValue(imoRaw).imos[0];
    const local = entry !== "" ? entry : firstImo !== undefined ? `imo-${firstImo}` : `name-${slug(name)}`;
    const act = celexToAct(celex);
    const program = annex ? `${act} Annex ${annex}` : act;
    const startDate = get(row, "startdate");
    // Fields this reader does not understand are kept, verbatim, in the remarks, and counted below.
    const extra = unknown.map(({ header, i: at }) => [header, (row[at] ?? "").trim()] as const).filter(([, v]) => v !== "");
    if (extra.length > 0) rowsWithUnknown++;
    const notes = [get(row, "notes"), ...extra.map(([h, v]) => `${h}: ${v}`)].filter((v) => v !== "").join("; ");
    const input: DesignationInput = {
      list: LIST,
      recordId: `${celex}/${annex}/${local}`,
      name,
      aliases: [...aliases, ...get(row, "alias").split(";")],
      formerNames: [...formerNames, ...get(row, "previousname").split(";")],
      program,
      programs: [program, get(row, "programkey")],
      imoValues: [imoRaw],
      mmsiValues: [get(row, "mmsi")],
      flag: get(row, "flag"),
      measures: [get(row, "measure")],
      reason: get(row, "reason"),
      remarks: notes,
      externalIds: [
        ...(entry !== "" ? [{ type: `${act} Annex ${annex} entry`, value: entry }] : []),
        ...(amendment !== "" ? [{ type: "Amending act", value: celexToAct(amendment) }] : []),
      ],
      listedAt: parseDayFirstDate(startDate),
      listedAtField: "Date of application",
      sourceUrl: eurLexUrl(amendment || celex),
    };
    out.push({ designation: makeDesignation(input), amendment });
  });
  if (unknown.length > 0) {
    warn(`${file.name}: ${unknown.length} column(s) not understood (${unknown.map((u) => u.header).join(", ")}); their values, in ${rowsWithUnknown} vessel row(s), are kept in remarks`);
  }
  return out;
}

/**
 * One designation per annex entry, the newest amendment's wording first, keeping every
 * measure: a vessel designated under two measures in one entry (two rows) keeps both, with
 * each measure's grounds, instead of the second row being dropped.
 */
function mergeEntries(rows: readonly Designation[]): Designation[] {
  const byRecord = new Map<string, Designation[]>();
  for (const d of rows) byRecord.set(d.recordId, [...(byRecord.get(d.recordId) ?? []), d]);
  return [...byRecord.values()].map((group) => {
    const [first, ...rest] = group as [Designation, ...Designation[]];
    const measures = group.flatMap((d) => d.measures).filter((m, i, all) => all.findIndex((o) => measureKey(o) === measureKey(m)) === i);
    if (rest.length === 0 || measures.length <= first.measures.length) return first;
    const reasonOf = new Map<string, string>();
    for (const d of group) for (const m of d.measures) if (d.reason && !reasonOf.has(m.text)) reasonOf.set(m.text, d.reason);
    const reasons = uniqueStrings(measures.map((m) => reasonOf.get(m.text)));
    const dates = group.map((d) => d.listedAt).filter((x): x is string => x !== null).sort();
    return {
      ...first,
      measures,
      reason: reasons.length > 1 ? measures.filter((m) => reasonOf.has(m.text)).map((m) => `${m.text}: ${reasonOf.get(m.text)}`).join(" | ") : first.reason,
      // The entry is listed from its earliest measure.
      listedAt: dates[0] ?? first.listedAt,
      programs: uniqueStrings(group.flatMap((d) => d.programs)),
      externalIds: [...first.externalIds, ...rest.flatMap((d) => d.externalIds).filter((e) => !first.externalIds.some((f) => f.type === e.type && f.value === e.value))],
    };
  });
}

const VESSEL_WORDS = /\b(vessel|tanker|ship|m\/v|m\.v\.|bulk carrier|cargo ship|oil tanker)\b/i;
const COMPANY_WORDS =
  /\b(ltd|limited|llc|l\.l\.c|inc|corp|corporation|company|co|s\.a|sa|gmbh|shipping|management|group|holding|holdings|trading|jsc|ojsc|pjsc|fze|pte|bank|agency|office)\b\.?/i;

function fromFsfXml(file: SourceFile, known: Set<string>): Designation[] {
  const { root, node } = parseXml(LIST, file);
  if (root !== "export") {
    throw new SanctionsParseError(LIST, `${file.name} is XML with root <${root}>, not the EU consolidated financial sanctions list (<export>)`);
  }
  const out: Designation[] = [];
  for (const entity of children(node, "sanctionEntity")) {
    const reference = attr(entity, "euReferenceNumber");
    const subject = child(entity, "subjectType");
    if (/^(person|P)$/i.test(attr(subject, "code")) || attr(subject, "classificationCode") === "P") continue;
    const names = children(entity, "nameAlias")
      .map((n) => attr(n, "wholeName"))
      .filter((s) => s !== "");
    const imoValues = children(entity, "identification")
      .filter((i) => /^imo$/i.test(attr(i, "identificationTypeCode")))
      .map((i) => attr(i, "number") || attr(i, "latinNumber"));
    const remarks = [...texts(entity, "remark"), attr(entity, "designationDetails")].filter((s) => s !== "").join(" ");
    const primary = names[0] ?? "";
    // An enterprise with an IMO number is usually a shipping company (company IMO numbers
    // look like ship IMOs); only explicit ship wording and a name that is not a company's
    // make it a vessel, unless it is a known case.
    const isVessel = known.has(reference) || (imoValues.length > 0 && VESSEL_WORDS.test(remarks) && !COMPANY_WORDS.test(primary));
    if (!isVessel) continue;
    const regulation = child(entity, "regulation");
    const designationDate = attr(entity, "designationDate");
    const dm = /^(\d{4})-(\d{2})-(\d{2})/.exec(designationDate);
    const entryIntoForce = /^(\d{4})-(\d{2})-(\d{2})/.exec(attr(regulation, "entryIntoForceDate"));
    const date = dm ?? entryIntoForce;
    const programme = attr(regulation, "programme");
    out.push(
      makeDesignation({
        list: LIST,
        recordId: `FSF/${reference || attr(entity, "logicalId")}`,
        name: primary,
        aliases: names.slice(1),
        program: programme ? `EU consolidated financial sanctions list, programme ${programme}` : "EU consolidated financial sanctions list",
        programs: [programme, attr(regulation, "numberTitle")],
        imoValues,
        measures: ["Asset freeze"],
        remarks,
        externalIds: [
          ...(reference ? [{ type: "EU reference number", value: reference }] : []),
          ...(attr(entity, "unitedNationId") ? [{ type: "UN id", value: attr(entity, "unitedNationId") }] : []),
        ],
        listedAt: date ? isoDate(Number(date[1]), Number(date[2]), Number(date[3])) : null,
        listedAtField: dm ? "designationDate" : "regulation entryIntoForceDate",
        sourceUrl: text(regulation, "publicationUrl") || EU_FSF_URL,
      }),
    );
  }
  return out;
}

/**
 * Parses EU publications (annex tables as CSV, FSF XML; any mix, by content)
 * into vessel designations. With a consolidated table and amending tables
 * together, the newest amendment's entry wins for the same annex entry.
 */
export function parseEu(input: SanctionsInput, options: EuParseOptions = {}): Designation[] {
  const files = toSourceFiles(input, LIST);
  if (files.length === 0) throw new SanctionsParseError(LIST, "no file supplied");
  const known = new Set<string>([...EU_FSF_KNOWN_VESSELS, ...(options.fsfVesselReferences ?? [])]);
  const journal: JournalRow[] = [];
  const fsf: Designation[] = [];
  for (const file of files) {
    const format = detectFormat(file.bytes);
    if (format === "xml") {
      fsf.push(...fromFsfXml(file, known));
    } else if (format === "csv") {
      const text = decodeText(LIST, file);
      const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
      const rows = parseCsvRows(LIST, file, text, firstLine.includes(";") && !firstLine.includes(",") ? ";" : ",");
      if (rows.length === 0) throw new SanctionsParseError(LIST, `${file.name} has no CSV header`);
      journal.push(...fromJournalCsv(file, rows, options.onWarning ?? (() => {})));
    } else {
      throw new SanctionsParseError(LIST, `${file.name} is ${describeFormat(format)}; expected an EU annex table (CSV) or the FSF XML`);
    }
  }
  // Newest amendment first, consolidated text last, so firstWins keeps the latest wording.
  journal.sort((a, b) => b.amendment.localeCompare(a.amendment));
  return firstWins([...mergeEntries(journal.map((j) => j.designation)), ...fsf]);
}
