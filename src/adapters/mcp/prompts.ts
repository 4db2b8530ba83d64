import { z } from "zod";
import { formatVesselId, parseUnlocode, parseVesselId } from "../../domain/identifiers.ts";
import { RIGHTS_URI } from "./rights-doc.ts";

/**
 * One step of a brief: the tool to call and what to look for in its answer. `args` are the
 * arguments the step names exactly (the text says them as written here, and a test calls the
 * tool with them); `call` says in words what else to pass, or how to choose it.
 */
export interface Step {
  tool: string;
  args?: Record<string, string | number>;
  call?: string;
  check: string;
}

/** The step's arguments in words: "with `port` = `NLRTM` and `hours` = 168", then what the step adds. */
function callText(s: Step): string {
  const named = Object.entries(s.args ?? {}).map(([k, v]) => `\`${k}\` = ${typeof v === "number" ? v : `\`${v}\``}`);
  return [named.length > 0 ? `with ${named.join(" and ")}` : "", s.call ?? ""].filter((x) => x !== "").join(" ");
}

export interface PromptSpec {
  name: string;
  title: string;
  description: string;
  argsSchema: z.ZodObject;
  /** The steps of the brief for these arguments, in order. */
  steps(args: Record<string, unknown>): Step[];
  render(args: Record<string, unknown>, tools: ReadonlySet<string>): string;
}

/**
 * Lists the steps whose tool this server offers, and names the others, so the assistant says
 * which checks it could not make instead of quietly leaving them out.
 */
function plan(steps: Step[], tools: ReadonlySet<string>): string {
  const offered = steps.filter((s) => tools.has(s.tool));
  const missing = steps.filter((s) => !tools.has(s.tool));
  const lines = offered.map((s, i) => `${i + 1}. \`${s.tool}\` ${callText(s)}: ${s.check}`);
  if (missing.length > 0) {
    lines.push("", `Not offered by this server yet: ${[...new Set(missing.map((s) => `\`${s.tool}\``))].join(", ")}. Say in the brief which checks these would have covered and that they were not made.`);
  }
  return lines.join("\n");
}

const COMMON_RULES = [
  `Rules: every tool answer lists what was left out for rights reasons under \`withheld\`; report those parts as withheld (naming the sources), never as absent or negative findings, and do not fill them in from elsewhere. Show the \`attribution\` texts of the answers you used at the end of the brief. Respect \`commercialScope\` (read ${RIGHTS_URI} for what the sources and scopes allow).`,
  "Each tool call uses credits like the REST API (the tool descriptions give the cost); if a call fails, the result says why and how to fix it: follow it or report it, and do not retry a failed call more than once.",
].join("\n");

const vesselArg = z
  .string()
  .describe("The vessel: a checksum-valid 7-digit IMO number, or `mmsi-` followed by the 9-digit MMSI.")
  .refine((v) => parseVesselId(v) !== null, { message: "must be a checksum-valid 7-digit IMO number or `mmsi-` followed by 9 digits" });

const unlocodeArg = z
  .string()
  .describe("The port's five-character UN/LOCODE, e.g. NLRTM.")
  .refine((v) => parseUnlocode(v) !== null, { message: "must be a five-character UN/LOCODE, e.g. NLRTM" });

export const PROMPTS: PromptSpec[] = [
  {
    name: "vessel_due_diligence_brief",
    title: "Vessel due-diligence brief",
    description: "A sanctions and ownership due-diligence brief on one vessel: which tools to call, in what order, and what to check.",
    argsSchema: z.object({ vessel: vesselArg }),
    steps(args): Step[] {
      const id = formatVesselId(parseVesselId(String(args.vessel))!);
      return [
            { tool: "get_vessel", args: { id }, check: "identity (IMO, MMSI, name, former names), flag, type, particulars, the companies behind it (role, name) and its sanctions entries. Note every section listed under `withheld`." },
            {
              tool: "screen_vessels",
              args: { ids: id },
              call: "(and the IMO or MMSI from get_vessel if it gave the other identifier)",
              check:
                "active and past designations on the OFAC, UK, EU, Canadian and New Zealand lists: the list each is on (`list`, e.g. ofac_sdn; `family` is the key of `lists`) and its `measures` (asset freeze, port-access or transport ban...) with their legal basis. Matching is by identifier only: no match is not a clearance. Check `coverage` for how current each list is.",
            },
            { tool: "get_company", call: "for each company of get_vessel (registered owner, manager, operator)", check: "the legal entity and its fleet; are the company or other vessels of its fleet designated?" },
            {
              tool: "get_vessel_events",
              args: { id },
              check:
                "the behaviour events the service derived from AIS, each with its method, version and confidence: AIS gaps (`ais_gap`: start, end, distance and implied speed across the gap), encounters with other vessels (`encounter`: the `counterpart`; screen it too), loitering at sea, identity changes and conflicts, and port calls (especially in sanctioned jurisdictions or just after a gap). Page on with `cursor` while `nextCursor` is given; events counted under `withheld` exist but may not be shown: report them as withheld, not as absent.",
            },
            { tool: "get_vessel_track", args: { id, hours: 168 }, check: "where the vessel has been over the last week, as context for the events (the events above are the findings: do not derive gaps or loitering from the track yourself)." },
            { tool: "search_entities", call: "with the vessel's name as `q`", check: "other vessels under the same or a former name (possible identity reuse)." },
      ];
    },
    render(args, tools) {
      const id = formatVesselId(parseVesselId(String(args.vessel))!);
      return [
        `Write a due-diligence brief on the vessel \`${id}\` using this server's tools.`,
        "",
        plan(this.steps(args), tools),
        "",
        "Check that the identifiers agree across all answers (IMO, MMSI, name, flag), and flag any disagreement.",
        "Structure the brief as: Identity; Sanctions exposure (active, past, and list versions checked); Ownership and management; Behaviour (events: AIS gaps, encounters, loitering, identity changes, port calls); Gaps (checks not made, withheld parts); Sources (the attribution texts).",
        "",
        COMMON_RULES,
      ].join("\n");
    },
  },
  {
    name: "port_activity_brief",
    title: "Port activity brief",
    description: "A brief on one port's identity, facilities and recent vessel activity, including sanctioned vessels calling there: which tools to call and what to check.",
    argsSchema: z.object({ unlocode: unlocodeArg }),
    steps(args): Step[] {
      const code = parseUnlocode(String(args.unlocode))!;
      return [
            {
              tool: "get_port",
              args: { unlocode: code },
              check: "name, country, subdivision, UN/LOCODE functions and status, coordinates (and their source), and harbour facts from the World Port Index where known. Note every section listed under `withheld` (e.g. coordinates whose source is not cleared).",
            },
            { tool: "get_port_calls", args: { port: code }, check: "recent arrivals and departures: how many, which vessel types and flags, and any unusual callers." },
            {
              tool: "screen_vessels",
              call: "with the IMO numbers of the vessels that called (up to 50 per call, 1 credit per vessel)",
              check: "which of them carry active or past sanctions designations; no match is not a clearance.",
            },
            { tool: "get_chokepoint_transits", call: "for the canals and straits on the port's approaches", check: "traffic through them, for context on the port's activity." },
      ];
    },
    render(args, tools) {
      const code = parseUnlocode(String(args.unlocode))!;
      return [
        `Write an activity brief on the port \`${code}\` using this server's tools.`,
        "",
        plan(this.steps(args), tools),
        "",
        "Structure the brief as: Port identity and facilities; Recent activity; Sanctions exposure of callers; Gaps (checks not made, withheld parts); Sources (the attribution texts).",
        "",
        COMMON_RULES,
      ].join("\n");
    },
  },
];
