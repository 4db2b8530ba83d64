import { PLAN_IDS, PLANS } from "../../domain/plans.ts";
import { TYPE_AND_FLAG_SECTION, WITHHELD_REASON_API } from "../../domain/rights/caller-rights.ts";
import type { Source, SourceRegistry } from "../../domain/rights/source.ts";

export const RIGHTS_URI = "service://docs/rights";

const yesNo = (v: boolean) => (v ? "yes" : "no");
/** Table cells hold free text from the operator's file; a pipe or newline would break the row. */
const cell = (v: string) => v.replaceAll("|", "\\|").replace(/\s*\n\s*/g, " ");

function sourceRow(s: Source): string {
  const p = s.permissions;
  return `| \`${s.id}\` | ${cell(s.name)} | ${yesNo(p.api)} | ${yesNo(p.redistribution)} | ${yesNo(p.commercial)} | ${cell(s.attribution)} | ${cell(s.license)}${s.note ? ` (${cell(s.note)})` : ""} |`;
}

/**
 * The rights document of the MCP resource, written from the sources file the service runs
 * with (the operator's, when SOURCES_FILE is set), so it says what this service enforces.
 */
export function rightsDocument(sources: SourceRegistry): string {
  const all = sources.all();
  const blocked = all.filter((s) => !s.permissions.api);
  const scopes = (scope: string) =>
PLAN_IDS.filter((id) => PLANS[id].commercialScope === scope).join(", ");
  return [
    "# Data rights and attribution",
    "",
    "Every fact this service returns rests on one or more sources. A part of an answer is included only when **every** source behind it permits serving it through the API, and, for callers on commercial plans, commercial use as well. A source this service does not know is treated as not permitting anything. The MCP tools apply exactly the same rules as the REST API.",
    "",
    "## What `withheld` means",
    "",
    `Each answer has a \`withheld\` array. An entry \`{ section, sources, rows?, reason }\` says that a part (\`section\`, e.g. \`coordinates\`) exists but was left out because the listed \`sources\` do not permit it; \`rows\` counts left-out rows on lists and tracks; \`reason\` is \`${WITHHELD_REASON_API}\`. One entry is no source's refusal: search answers with vessel hits carry \`{ section: "${TYPE_AND_FLAG_SECTION}", sources, rows, reason: "${WITHHELD_REASON_API}" }\`, because type and flag are always withheld from search hits (the specification's rule, with its API reason); \`sources\` are those holding them for the \`rows\` vessel hits, and \`get_vessel\` gives them as those sources permit. A withheld part is not an error and not a sign that the fact is missing or false: do not guess it, fill it in from elsewhere and present it as this service's data, or present an absent field as a negative finding. Say that it was withheld and name the sources.`,
    "",
    "## What to show",
    "",
    "- `attribution`: texts to show with any data you present from that answer, e.g. in a footnote or a sources line. They name only the sources of what was actually returned.",
    "- `license`: the licence terms of those sources.",
    "- `sources`: the source ids behind the answer; the table below describes each.",
    "- `commercialScope`: what the caller's plan permits doing with the data:",
    `  - \`none\`: personal, non-commercial use (plans: ${scopes("none")});`,
    `  - \`internal\`: use inside the subscriber's own business (plans: ${scopes("internal")});`,
    `  - \`product\`: use in the subscriber's own product (plans: ${scopes("product")}).`,
    "",
    "## Sources",
    "",
    "API: may be served through the API (REST and these tools) at all. Redistribution: may be pushed out to third-party systems in webhook payloads. Commercial: may be served on commercial plans.",
    "",
    "| id | name | API | redistribution | commercial | attribution to show | licence |",
    "|---|---|---|---|---|---|---|",
    ...all.map(sourceRow),
    "",
    blocked.length > 0
      ? `Currently withheld from every answer: ${blocked.map((s) => `\`${s.id}\``).join(", ")}. Facts resting on them appear only as \`withheld\` entries.`
      : "Every source is currently cleared for API use.",
    "",
    "Station feeds (`station:<id>`): a private station is governed by the `station` entry and only ever reaches its owner; a station its owner shared is a source of its own, with the uses the owner granted (API use always; redistribution and commercial use when granted), and its owner's own use is never limited by those grants. " +
      "The stations of public AIS feeds are governed by their feed's entry (`kystverket-open`, `digitraffic-marine`, `aisstream`, `aishub`); `list_sources` shows each feed's freshness.",
    "",
  ].join("\n");
}
