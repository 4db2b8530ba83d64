/**
 * The measures a designation imposes on a ship (asset freeze, port-access ban...), each with
 * the legal instrument the list names for it. `text` is always the list's own words; `type`
 * sorts them into a small vocabulary a client can act on; `legalBasis` is what the
 * publication (or a documented fixed fact of the list, see docs/sanctions.md) names, or null.
 *
 * Measures are derived from the measure texts a publication gives and the record's own
 * fields (list, record id, programmes) by one function, so a record stored before measures
 * were objects reads exactly as a fresh import of the same publication would give it.
 */
import { z } from "zod";

export const MEASURE_TYPES = [
  /** Freezing or blocking of the ship as property, no funds or resources made available (OFAC blocking, EU/UK/NZ asset freeze). */
  "asset_freeze",
  /** Prohibition of entry into ports, locks or waters. */
  "port_access_ban",
  /** Restrictions on the ship's transport and movements and on shipping services to it (EU "Transportation restrictions", NZ "Ship Ban"). */
  "transport_ban",
  /** Prohibition of providing services (NZ "Service Prohibition", EU "Services ban", UK trust services). */
  "services_ban",
  /** Financial restrictions beyond an asset freeze (EU "Financial restrictions", NZ "Dealing with Securities"). */
  "financial_restrictions",
  /** Exposure of third parties to secondary sanctions for dealing with the ship (OFAC remarks). */
  "secondary_sanctions_risk",
  /** Anything else the list states, kept in its own words. */
  "other",
] as const;
export type MeasureType = (typeof MEASURE_TYPES)[number];

export const LegalBasisSchema = z.object({
  /** The instrument as the list names it: "Regulation (EU) 2016/44", "Executive Order 14024", a UK regime's regulations. */
  instrument: z.string(),
  /** The part of it the list names: "Annex V", "Section 11"; null when none is named. */
  provision: z.string().nullable(),
  /** Where the instrument is published (EUR-Lex for EU acts); null when the list gives no link. */
  url: z.string().nullable(),
});
export type LegalBasis = z.infer<typeof LegalBasisSchema>;

export const MeasureSchema = z.object({
  type: z.enum(MEASURE_TYPES),
  text: z.string(),
  legalBasis: LegalBasisSchema.nullable(),
});
export type Measure = z.infer<typeof MeasureSchema>;

/** The fields of a designation its measures are derived from. */
export type MeasureContext = { list: string; recordId: string; programs: readonly string[] };

/** Ordered: the first rule whose pattern matches a measure's text gives its type. */
const TYPE_RULES: [RegExp, MeasureType][] = [
  [/secondary sanctions/i, "secondary_sanctions_risk"],
  [/\b(asset|assets|funds)\s+freez|\bfreez(e|ing)\b|^block(ed|ing)?\b/i, "asset_freeze"],
  [/\bport\b.*\b(entry|access|enter)|\b(entry|access|enter)\b.*\bport/i, "port_access_ban"],
  [/\btransport|\bship ban\b|\bshipping\b|\bcontrol of ships\b|\bdetention\b|\bdeflag|\bregistration\b/i, "transport_ban"],
  [/\bservices?\b/i, "services_ban"],
  [/\bfinancial\b|\bsecurities\b|\btransactions? prohibited\b|\bloans?\b|\bcredit\b/i, "financial_restrictions"],
];

export function measureTypeOf(text: string): MeasureType {
  return TYPE_RULES.find(([pattern]) => pattern.test(text))?.[1] ?? "other";
}

/** "32014R0833" -> "Regulation (EU) No 833/2014"; numbering changed style in 2015. */
export function celexToAct(celex: string): string {
  const m = /^3(\d{4})([RLD])(\d{4})$/.exec(celex.trim());
  if (!m) return celex.trim();
  const year = Number(m[1]);
  const number = Number(m[3]);
  const kind = m[2] === "R" ? "Regulation" : m[2] === "D" ? "Decision" : "Directive";
  return year >= 2015 ? `${kind} (EU) ${year}/${number}` : `${kind} (EU) No ${number}/${year}`;
}

export function eurLexUrl(celex: string): string {
  return `https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=CELEX:${encodeURIComponent(celex.trim())}`;
}

const CELEX = /^3\d{4}[RLD]\d{4}$/;

/** An EU annex entry's record id is `<framework CELEX>/<annex>/<entry>`: the framework act and annex are its legal basis. */
function euAnnexBasis(recordId: string): LegalBasis | null {
  const [celex, annex] = recordId.split("/");
  if (!celex || !CELEX.test(celex)) return null;
  return { instrument: celexToAct(celex), provision: annex ? `Annex ${annex}` : null, url: eurLexUrl(celex) };
}

/** The FSF names the act of each entry (`regulation/@numberTitle`, "2022/2423 (OJ L318)"), kept among the programmes; given as it is. */
function euFsfBasis(programs: readonly string[]): LegalBasis | null {
  const title = programs.find((p) => /\b\d{1,4}\/\d{2,4}\b/.test(p));
  return title ? { instrument: title, provision: null, url: null } : null;
}

/** "... Section 11 of Executive Order 14024" / "EO 13599" in an OFAC remark. */
function executiveOrderIn(text: string): LegalBasis | null {
  const m = /(?:(Section\s+\d+[a-z]?(?:\([a-z0-9]+\))*)\s+of\s+)?(?:Executive Order|E\.O\.|\bEO)\s*(\d{5})/i.exec(text);
  return m ? { instrument: `Executive Order ${m[2]}`, provision: m[1] ?? null, url: null } : null;
}

/** An OFAC programme tag that names its executive order ("RUSSIA-EO14024", "IRAN-EO13846"). */
function ofacTagBasis(tag: string): LegalBasis | null {
  const m = /-EO\s*(\d{5})$/i.exec(tag.trim());
  return m ? { instrument: `Executive Order ${m[1]}`, provision: null, url: null } : null;
}

/** The regime named by a list that has one per record (UK regime regulations, NZ regulations). */
function regimeBasis(programs: readonly string[]): LegalBasis | null {
  return programs.length > 0 ? { instrument: programs.join("; "), provision: null, url: null } : null;
}

function basisOf(ctx: MeasureContext, text: string): LegalBasis | null {
  switch (ctx.list) {
    case "ofac":
      return executiveOrderIn(text);
    case "eu":
      return ctx.recordId.startsWith("FSF/") ? euFsfBasis(ctx.programs) : euAnnexBasis(ctx.recordId);
    case "uk":
    case "new-zealand":
      return regimeBasis(ctx.programs);
    default:
      return null;
  }
}

/**
 * A designation's measures from the measure texts its publication gives. OFAC's SDN list
 * blocks the property of everything on it (a fixed fact of the list, named by its title and
 * by SDN_ENHANCED's sanctions type "Block"): one "Block" measure per programme tag, with the
 * executive order the tag names; a bare "Block" the publication gives is that same measure.
 */
export function deriveMeasures(ctx: MeasureContext, texts: readonly string[]): Measure[] {
  const out: Measure[] = [];
  const seen = new Set<string>();
  const add = (text: string, type: MeasureType, legalBasis: LegalBasis | null) => {
    const key = text.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ type, text, legalBasis });
  };
  if (ctx.list === "ofac") {
    for (const tag of ctx.programs) add(`Block (programme ${tag})`, "asset_freeze", ofacTagBasis(tag));
  }
  for (const raw of texts) {
    const text = raw.replace(/[\u00a0\s]+/g, " ").trim();
    if (text === "") continue;
    if (ctx.list === "ofac" && /^block(ed|ing)?$/i.test(text) && ctx.programs.length > 0) continue;
    add(text, measureTypeOf(text), basisOf(ctx, text));
  }
  return out;
}

/** What a diff compares of a measure: its words and its legal basis (the type follows from the words). */
export function measureKey(m: Measure): string {
  const b = m.legalBasis;
  return [m.text, b?.instrument ?? "", b?.provision ?? ""].join("\u0000").toLowerCase();
}

/**
 * A stored record's measures, whatever shape they were stored in: objects (now), or the
 * plain texts records were stored with before, derived exactly as an import derives them.
 */
export function readMeasures(ctx: MeasureContext, stored: unknown): Measure[] {
  if (!Array.isArray(stored)) return deriveMeasures(ctx, []);
  if (stored.every((m) => typeof m === "string")) return deriveMeasures(ctx, stored as string[]);
  return stored.filter((m): m is Measure => MeasureSchema.safeParse(m).success);
}
