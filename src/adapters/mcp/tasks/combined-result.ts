import type { ToolResult } from "../tool-result.ts";

/**
 * The pages of a screening task put together into one tool result: the rows of every page in
 * order, under the first page's envelope, with the counts, withheld parts, attribution and
 * sources of all of them. Each page was its own charged screening with its own signed receipt;
 * their ids are listed (`_meta["mds/request"].screeningIds`) instead of one `screeningId`.
 */

/** What is kept of each page of a task. */
export interface TaskPage {
  structured: Record<string, unknown>;
  creditsCharged: number;
}

/** What a page keeps of its tool result. */
export function taskPageOf(result: ToolResult): TaskPage {
  const request = result._meta?.["mds/request"] as { creditsCharged?: unknown } | undefined;
  return { structured: result.structuredContent ?? {}, creditsCharged: typeof request?.creditsCharged === "number" ? request.creditsCharged : 0 };
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Values in first-seen order, each once (by their JSON). */
function union(lists: unknown[][]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const list of lists) {
    for (const v of list) {
      const key = JSON.stringify(v);
      if (!seen.has(key)) seen.set(key, v);
    }
  }
  return [...seen.values()];
}

export function combinedResult(pages: readonly TaskPage[], requestId: string): ToolResult {
  const first = pages[0]?.structured ?? {};
  const data = pages.flatMap((p) => asArray(p.structured.data));
  const screeningIds = pages.map((p) => p.structured.screeningId).filter((id): id is string => typeof id === "string");
  const { screeningId: _screeningId, next: _next, nextCursor: _nextCursor, ...envelope } = first;
  const structured: Record<string, unknown> = {
    ...envelope,
    sanctionedCount: pages.reduce((n, p) => n + (typeof p.structured.sanctionedCount === "number" ? p.structured.sanctionedCount : 0), 0),
    count: data.length,
    data,
    withheld: union(pages.map((p) => asArray(p.structured.withheld))),
    attribution: union(pages.map((p) => asArray(p.structured.attribution))),
    license: union(pages.map((p) => asArray(p.structured.license))),
    sources: union(pages.map((p) => asArray(p.structured.sources))),
  };
  const creditsCharged = pages.reduce((n, p) => n + p.creditsCharged, 0);
  const content: ToolResult["content"] = [{ type: "text", text: JSON.stringify(structured) }];
  if (typeof structured.coverageNote === "string") content.push({ type: "text", text: `Sanctions screening coverage: ${structured.coverageNote}` });
  return {
    content,
    structuredContent: structured,
    _meta: { "mds/request": { requestId, creditsCharged, pages: pages.length, screeningIds } },
  };
}
