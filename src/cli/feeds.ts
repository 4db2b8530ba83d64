import { FEED_KIND_INFO, FEED_KINDS, FEED_NAME, feedUrlProblem, isFeedKind } from "../domain/feeds/kinds.ts";
import { FeedExistsError, type FeedWithStatus } from "../interfaces/feeds.ts";
import { parseCommandArgs, str } from "./arguments.ts";
import { CliError, EXIT_BAD_ARGUMENT } from "./cli-error.ts";
import { withServices } from "./context.ts";
import type { CliIo } from "./io.ts";

/** Longest key accepted: aisstream keys are 40 hex characters, AISHub usernames short. */
const MAX_KEY = 200;

/**
 * `mds feeds add <name> --kind <kind> [--url <address>] [--key <key>] [--json]`: a public
 * AIS feed `serve` runs (a running `serve` picks it up within 30 s). `--url` defaults to
 * the feed's official address; the key is stored sealed and never printed.
 */
export async function feedsAdd(argv: string[], io: CliIo): Promise<void> {
  const { values, rest } = parseCommandArgs("feeds add", argv, { kind: { type: "string" }, url: { type: "string" }, key: { type: "string" } });
  const [name, extra] = rest;
  if (name === undefined) throw new CliError("feeds add needs a name: mds feeds add <name> --kind <kind>", EXIT_BAD_ARGUMENT);
  if (extra !== undefined) throw new CliError(`feeds add takes one name, got also ${JSON.stringify(extra)}`, EXIT_BAD_ARGUMENT);
  if (!FEED_NAME.test(name)) throw new CliError(`feed name ${JSON.stringify(name)}: 1 to 40 of a-z 0-9 _ -, starting with a letter or digit`, EXIT_BAD_ARGUMENT);
  const kind = str(values, "kind");
  if (kind === undefined) throw new CliError(`feeds add needs --kind <${FEED_KINDS.join("|")}>`, EXIT_BAD_ARGUMENT);
  if (!isFeedKind(kind)) throw new CliError(`--kind ${JSON.stringify(kind)}: must be one of ${FEED_KINDS.join(", ")}`, EXIT_BAD_ARGUMENT);
  const info = FEED_KIND_INFO[kind];
  const url = str(values, "url") ?? info.defaultUrl;
  const problem = feedUrlProblem(kind, url);
  if (problem) throw new CliError(`--url ${JSON.stringify(url)} ${problem}`, EXIT_BAD_ARGUMENT);
  const key = str(values, "key") ?? null;
  if (info.key === null && key !== null) throw new CliError(`--key: a ${kind} feed takes no key`, EXIT_BAD_ARGUMENT);
  if (info.key?.required && key === null) throw new CliError(`--key: a ${kind} feed needs ${info.key.what}`, EXIT_BAD_ARGUMENT);
  if (key !== null && (key.length === 0 || key.length > MAX_KEY || !/^[\x21-\x7e]+$/.test(key))) {
    throw new CliError(`--key: 1 to ${MAX_KEY} printable ASCII characters, no spaces`, EXIT_BAD_ARGUMENT);
  }
  await withServices(io, async (s) => {
    try {
      const feed = await s.services.feeds.add({ name, kind, url, key });
      await s.feedStations.refresh();
      const out = { name: feed.name, kind: feed.kind, url: feed.url, station: feed.stationId, source: info.sourceId, hasKey: feed.hasKey };
      io.out(values.json ? JSON.stringify(out) : `${feed.name} ${feed.kind} ${feed.url} (station ${feed.stationId}, source ${info.sourceId})`);
    } catch (e) {
      if (e instanceof FeedExistsError) throw new CliError(e.message, EXIT_BAD_ARGUMENT);
      throw e;
    }
  });
}

/** `mds feeds list [--json]`: the feeds, with what their runner last reported. */
export async function feedsList(argv: string[], io: CliIo): Promise<void> {
  const { values, rest } = parseCommandArgs("feeds list", argv, {});
  if (rest.length > 0) throw new CliError(`feeds list takes no arguments, got ${JSON.stringify(rest[0])}`, EXIT_BAD_ARGUMENT);
  await withServices(io, async (s) => {
    const feeds = await s.services.feeds.list();
    if (values.json) io.out(JSON.stringify(feeds.map(feedJson)));
    else if (feeds.length === 0) io.out("no feeds; add one with mds feeds add <name> --kind <kind>");
    else for (const f of feeds) io.out(feedLine(f));
  });
}

/** `mds feeds remove <name>`: stops it (a running serve within 30 s); what it stored stays, under its source. */
export async function feedsRemove(argv: string[], io: CliIo): Promise<void> {
  const { values, rest } = parseCommandArgs("feeds remove", argv, {});
  const [name] = rest;
  if (name === undefined) throw new CliError("feeds remove needs a name: mds feeds remove <name>", EXIT_BAD_ARGUMENT);
  await withServices(io, async (s) => {
    if (!(await s.services.feeds.remove(name))) throw new CliError(`no feed named ${JSON.stringify(name)}; mds feeds list shows them`, EXIT_BAD_ARGUMENT);
    io.out(values.json ? JSON.stringify({ removed: name }) : `removed ${name}`);
  });
}

function feedJson(f: FeedWithStatus) {
  return { name: f.name, kind: f.kind, url: f.url, station: f.stationId, source: FEED_KIND_INFO[f.kind].sourceId, hasKey: f.hasKey, createdAt: new Date(f.createdAt).toISOString(), status: f.status };
}

function feedLine(f: FeedWithStatus): string {
  const s = f.status;
  const state = s ? `${s.state}${s.alarm ? ` ALARM ${s.alarm}` : ""}, last message ${s.lastMessageAt ? new Date(s.lastMessageAt).toISOString() : "never"}, ${s.ratePerSecond} msg/s` : "never run";
  return `${f.name}  ${f.kind}  ${f.url}  station ${f.stationId}  ${state}${s?.lastError ? ` (last error: ${s.lastError})` : ""}`;
}
