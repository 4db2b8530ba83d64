import { formatVesselId, parseVesselId } from "../../../domain/identifiers.ts";

/**
 * The tool calls that may run as tasks, and how each is cut into pages of work. Every page is
 * one ordinary call of the same tool (the same execute() as its REST request), so a task costs
 * exactly what paging through REST costs, and is charged page by page as the work completes.
 */

/** Rows of a watchlist screened per page of a task: the REST maximum of `limit`. */
export const WATCHLIST_TASK_PAGE = 100;
/** Vessels per page of a `screen_vessels` task: what one `/api/v1/screen` call takes. */
export const SCREEN_PAGE = 50;
/** The most vessels one `screen_vessels` task screens (20 pages). */
export const MAX_SCREEN_TASK_IDS = 1_000;

/** A call cut into pages: the first page's arguments, and each next page's from the last one's answer. */
export interface PagedWork {
  first: Record<string, unknown>;
  /** The next page's arguments; null when the work is done. */
  next(pageIndex: number, args: Record<string, unknown>, structured: Record<string, unknown>): Record<string, unknown> | null;
  /** The units of the whole work (vessels), when known before the first page; else read from it. */
  total(structured: Record<string, unknown>): number | null;
}

/** Why a call cannot run as a task: the parameter and the rule it breaks, answered as the operation's own errors are. */
export class TaskArgumentError extends Error {
  readonly param: string;
  readonly rule: string;
  constructor(param: string, rule: string) {
    super(`Parameter \`${param}\` ${rule}.`);
    this.param = param;
    this.rule = rule;
  }
}

/** What each task-capable tool's description says about running as a task. */
export const TASK_NOTES: ReadonlyMap<string, string> = new Map([
  [
    "screen_watchlist",
    "As a task (MCP 2026-07-28 clients that declare the `io.modelcontextprotocol/tasks` extension): the whole list from `cursor` is screened, `limit` members a page (default 100); " +
      "a list longer than one page answers with a task to poll with `tasks/get` (progress in `statusMessage`, the rows of every page in order in the result), charged page by page as the work completes, " +
      "the same credits as paging through REST; `tasks/cancel` stops it before the next page. Kept 24 hours. Other clients get one page per call.",
  ],
  [
    "screen_vessels",
    "As a task (MCP 2026-07-28 clients that declare the `io.modelcontextprotocol/tasks` extension): up to 1,000 vessels, screened 50 a page; more than 50 answers with a task to poll with `tasks/get`, " +
      "charged page by page as the work completes (1 credit per vessel, as over REST); `tasks/cancel` stops it before the next page. Kept 24 hours. Other clients: at most 50 per call.",
  ],
]);

/** The task-capable tools, by name: each gives the work for the arguments, or null when the call stays an ordinary one. */
export const LONG_TOOLS: ReadonlyMap<string, (args: Record<string, unknown>) => PagedWork | null> = new Map([
  ["screen_watchlist", watchlistWork],
  ["screen_vessels", screenWork],
]);

/**
 * `screen_watchlist` as a task screens the whole list from `cursor` (from the start without
 * one), `limit` members a page (100 when not given). Always paged work: the first page runs
 * within the call, and only a list longer than a page becomes a task (task-runner.ts).
 */
function watchlistWork(args: Record<string, unknown>): PagedWork {
  const first = { ...args, limit: args.limit ?? WATCHLIST_TASK_PAGE };
  return {
    first,
    next: (_i, prev, structured) => (typeof structured.nextCursor === "string" ? { ...prev, cursor: structured.nextCursor } : null),
    // The list's size counts from its start; with a cursor the remainder is not known.
    total: (structured) => {
      const watchlist = structured.watchlist as { memberCount?: unknown } | undefined;
      return args.cursor === undefined && typeof watchlist?.memberCount === "number" ? watchlist.memberCount : null;
    },
  };
}

/** The `ids` argument as the operation reads it: a comma list, or an array of strings and numbers. */
function idParts(value: unknown): string[] | null {
  const text = typeof value === "string" ? value : Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number") ? value.join(",") : null;
  if (text === null) return null;
  return text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
}

/**
 * `screen_vessels` with more than 50 vessels (the most one REST call takes), up to 1,000, runs
 * as a task of 50 a page. 50 or fewer, or ids the operation would refuse, stay an ordinary
 * call, whose answer (or error, naming the rule) is the operation's own.
 */
function screenWork(args: Record<string, unknown>): PagedWork | null {
  const parts = idParts(args.ids);
  if (parts === null) return null;
  // The same vessel twice is screened and charged once, as within one REST call.
  const unique = new Map<string, string>();
  for (const text of parts) {
    const id = parseVesselId(text);
    if (!id) return null;
    const key = formatVesselId(id);
    if (!unique.has(key)) unique.set(key, text);
  }
  if (unique.size <= SCREEN_PAGE) return null;
  if (unique.size > MAX_SCREEN_TASK_IDS) {
    throw new TaskArgumentError("ids", `names ${unique.size} vessels; at most ${MAX_SCREEN_TASK_IDS} per call as a task (${SCREEN_PAGE} without)`);
  }
  const ids = [...unique.values()];
  const page = (i: number) => ({ ...args, ids: ids.slice(i * SCREEN_PAGE, (i + 1) * SCREEN_PAGE).join(",") });
  return {
    first: page(0),
    next: (i) => ((i + 1) * SCREEN_PAGE < ids.length ? page(i + 1) : null),
    total: () => ids.length,
  };
}
