import { z } from "zod";
import type { FeedWithStatus } from "../interfaces/feeds.ts";
import { FEED_KIND_INFO } from "../domain/feeds/kinds.ts";
import { defineOperation } from "./operation.ts";

/** A status older than this was written by a process that no longer runs the feed (runners write every 10 s). */
export const FEED_STATUS_STALE_MS = 60_000;

const FeedStateSchema = z.object({
  name: z.string(),
  kind: z.string(),
  /** `connected`, `connecting`, `waiting` (backing off after a failure), `stopped`, or `not_running` (no process runs it: serve is down). */
  state: z.string(),
  lastMessageAt: z.string().nullable(),
  /** Seconds since the last message, null before the first. */
  lastMessageAgeSeconds: z.number().int().nullable(),
  ratePerSecond: z.number(),
  /** `silent` (connected, no data: an outage, never a quiet sea), `down` (not connected), `not_running`, or null. */
  alarm: z.string().nullable(),
  alarmSince: z.string().nullable(),
  lastError: z.string().nullable(),
});

const SourceRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  attribution: z.string(),
  license: z.string(),
  url: z.string().nullable(),
  permissions: z.object({ api: z.boolean(), redistribution: z.boolean(), commercial: z.boolean() }),
  note: z.string().nullable(),
  /** The public feeds this source governs, with their live state; empty for datasets. */
  feeds: z.array(FeedStateSchema),
});

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

function feedState(f: FeedWithStatus, now: number): z.infer<typeof FeedStateSchema> {
  const s = f.status;
  const running = s !== null && now - s.reportedAt <= FEED_STATUS_STALE_MS && s.state !== "stopped";
  return {
    name: f.name,
    kind: f.kind,
    state: running ? s.state : "not_running",
    lastMessageAt: iso(s?.lastMessageAt ?? null),
    lastMessageAgeSeconds: s?.lastMessageAt == null ? null : Math.max(0, Math.floor((now - s.lastMessageAt) / 1000)),
    ratePerSecond: running ? s.ratePerSecond : 0,
    alarm: running ? s.alarm : "not_running",
    alarmSince: running ? iso(s.alarmSince) : iso(s?.reportedAt ?? null),
    lastError: s?.lastError ?? null,
  };
}

export const sourcesList = defineOperation({
  id: "sources.list",
  method: "GET",
  path: "/api/v1/sources",
  tool: "list_sources",
  summary: "Every data source with its licence, permissions and, for a live feed, its freshness",
  description:
    "The sources behind every answer: attribution, licence and what they permit (API use, redistribution to third parties, commercial use). " +
    "For a public AIS feed the operator runs (Kystverket, Digitraffic, aisstream.io, AISHub), its state, last message time and age, message rate and alarm: " +
    "`silent` means connected but no data for the feed's threshold (an outage, not a quiet sea). Free.",
  auth: "optional",
  input: z.strictObject({}),
  output: { data: z.array(SourceRowSchema) },
  responseType: "sources",
  apiVersion: "preview",
  cost: 0,
  async run(ctx) {
    const feeds = await ctx.services.feeds.list();
    const bySource = new Map<string, FeedWithStatus[]>();
    for (const f of feeds) {
      const id = FEED_KIND_INFO[f.kind].sourceId;
      bySource.set(id, [...(bySource.get(id) ?? []), f]);
    }
    return {
      data: ctx.services.sources.all().map((s) => ({
        id: s.id,
        name: s.name,
        attribution: s.attribution,
        license: s.license,
        url: s.url ?? null,
        permissions: s.permissions,
        note: s.note ?? null,
        feeds: (bySource.get(s.id) ?? []).map((f) => feedState(f, ctx.now)),
      })),
    };
  },
});
