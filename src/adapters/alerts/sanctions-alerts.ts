import { type AlertSubject, vesselLabel } from "../../domain/alerts/payload.ts";
import { type AccountWatch, WatcherIndex } from "../../domain/alerts/watcher.ts";
import { formatId, MAX_ROW_ID } from "../../domain/ids.ts";
import type { SourceRegistry } from "../../domain/rights/source.ts";
import { designationList, SANCTIONS_LISTS, SANCTIONS_LIST_NAMES } from "../../domain/sanctions/designation.ts";
import type { Measure } from "../../domain/sanctions/measures.ts";
import type { AccountStore } from "../../interfaces/accounts.ts";
import type { AlertStore, SavedSearch, VesselWatchers } from "../../interfaces/alerts.ts";
import { savedSearchMatches } from "../../domain/alerts/saved-search-match.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { SanctionsFeedKey, SanctionsFeedRow, SanctionsStore, SanctionsVersionRow } from "../../interfaces/sanctions.ts";
import type { NewAlert, WebhookStore } from "../../interfaces/webhooks.ts";
import { commercialUse, newAlert } from "./new-alert.ts";
import { followWatchers } from "./vessel-watchers.ts";

/** The last list version whose rows were read (migration 0028 carried it over from the old `sanctions_events` cursor). */
export const SANCTIONS_CURSOR = "sanctions_versions";
/** Rows of the feed per page: whole versions are read until a page holds at least this many. */
const PAGE = 500;
/** Versions looked at per read of the version table. */
const VERSIONS_PER_READ = 200;
/** Alerts recorded per transaction. */
const EMIT_SLICE = 50;

export interface SanctionsAlertsDeps {
  alerts: AlertStore;
  webhooks: WebhookStore;
  sanctions: SanctionsStore;
  accounts: AccountStore;
  sources: SourceRegistry;
  clock: Clock;
  baseUrl: string;
  /** Who is alerted of a vessel: its followers by default; watchlist members join them where watchlists exist. */
  watchers?: VesselWatchers;
  onEmitted?: (deliveries: number) => void;
}

/**
 * `alert.sanctions`: a watched vessel listed, delisted or its designation changed. Reads the
 * change feed (listings, delistings, changes) of whole list versions after a stored cursor,
 * in the order the versions were committed (imports are serialised, so none commits behind
 * the cursor). A list's first import (`baseline`) is a starting state, not news, and raises
 * nothing. Per page: one read of the versions, one of the feed, one of the watchers of every
 * identifier in it, one of the matched designations' measures; the alerts, their deliveries
 * and the cursor move are one transaction. Each alert's key is (version, designation,
 * account): one alert per account per vessel per version however many of its follows and
 * watchlists name the vessel, and a replay or two processes polling at once never double one.
 */
export class SanctionsAlerts {
  readonly #d: SanctionsAlertsDeps;
  readonly #watchers: VesselWatchers;
  #running: Promise<number> | null = null;

  constructor(deps: SanctionsAlertsDeps) {
    this.#d = deps;
    this.#watchers = deps.watchers ?? followWatchers(deps.alerts);
  }

  /** Reads everything new; returns the alerts recorded. Calls made while one runs share it. */
  poll(): Promise<number> {
    this.#running ??= this.#poll().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #poll(): Promise<number> {
    let total = 0;
    for (let page = 0; ; page++) {
      // A backlog of many pages (a first start on a long history) lets requests in between pages too.
      if (page > 0) await turn();
      const after = await this.#d.alerts.cursor(SANCTIONS_CURSOR);
      const versions = pageOfVersions(await this.#d.sanctions.versionsAfter(after, VERSIONS_PER_READ));
      if (versions.length === 0) return total;
      const through = versions.at(-1)!.id;
      // From the first version with news: the baselines before it (every list's first import) are not read.
      const first = versions.findIndex((v) => !v.baseline && rowCount(v) > 0);
      const rows = first < 0 ? [] : (await this.#rows(versions[first]!.id, through, versions.slice(first).reduce((n, v) => n + rowCount(v), 0))).filter((r) => !r.baseline);
      const alerts = await this.#alerts(rows, new Map(versions.map((v) => [v.id, v])));
      // Recorded a slice at a time, the cursor with the last: a transaction never holds the
      // store (SQLite's one connection) for a whole page, and between slices the event loop
      // turns (node:sqlite answers synchronously, so without it queued API requests would
      // wait for the whole page). A crash between slices reads the page again; the alerts'
      // keys skip those recorded.
      for (let i = 0; i === 0 || i < alerts.length; i += EMIT_SLICE) {
        if (i > 0) await turn();
        const last = i + EMIT_SLICE >= alerts.length;
        const r = await this.#d.webhooks.emitAlerts(alerts.slice(i, i + EMIT_SLICE), this.#d.clock.now(), last ? { name: SANCTIONS_CURSOR, value: through } : undefined);
        total += r.alerts;
        if (r.deliveries > 0) this.#d.onEmitted?.(r.deliveries);
      }
    }
  }

  /**
   * Every feed row of versions `from`..`through`: one read when the versions' counts are right
   * (a page of `expected` + 1 that comes back short), more reads by the feed's cursor if not,
   * so no row is ever left behind the reader's cursor.
   */
  async #rows(from: number, through: number, expected: number): Promise<SanctionsFeedRow[]> {
    const out: SanctionsFeedRow[] = [];
    const limit = expected + 1;
    let after: SanctionsFeedKey = { versionId: from - 1, kind: 1, id: MAX_ROW_ID };
    for (;;) {
      const page = await this.#d.sanctions.feed({ lists: SANCTIONS_LISTS, actions: ["listed", "delisted", "changed"], since: null, until: null, after, throughVersion: through, limit });
      out.push(...page);
      if (page.length < limit) return out;
      after = page.at(-1)!.key;
    }
  }

  async #alerts(rows: readonly SanctionsFeedRow[], versions: ReadonlyMap<number, SanctionsVersionRow>): Promise<NewAlert[]> {
    if (rows.length === 0) return [];
    const ids = rows.map(identifiersOf);
    const index = new WatcherIndex(await this.#watchers.watchersOf([...new Set(ids.flatMap((i) => i.imos))], [...new Set(ids.flatMap((i) => i.mmsis))]));
    const matched = rows.map((row, i) => ({ row, watches: index.accounts(ids[i]!.imos, ids[i]!.mmsis) }));
    const listings = rows.filter((r) => r.action === "listed");
    const searches = listings.length > 0 ? await this.#d.alerts.allSavedSearches() : [];
    const designations = [...new Set([...matched.filter((m) => m.watches.length > 0).map((m) => m.row), ...(searches.length > 0 ? listings : [])].map((r) => r.designationId))];
    const measures = new Map((await this.#d.sanctions.listedFacts(designations)).map((f) => [f.designationId, f.record.measures]));
    const rights = new Map<string, boolean>();
    const commercial = async (accountId: string) => {
      if (!rights.has(accountId)) rights.set(accountId, await commercialUse(this.#d.accounts, accountId));
      return rights.get(accountId)!;
    };
    const out: NewAlert[] = [];
    for (const { row, watches } of matched) {
      const occurredAt = versions.get(row.versionId)?.importedAt ?? this.#d.clock.now();
      const m = measures.get(row.designationId) ?? [];
      for (const w of watches) out.push(this.#alert(row, w, m, occurredAt, await commercial(w.accountId)));
      if (row.action !== "listed") continue;
      for (const search of searches) if (savedSearchMatches(search, row)) out.push(this.#searchAlert(row, search, m, occurredAt, await commercial(search.accountId)));
    }
    return out;
  }

  /** `alert.saved_search`: a vessel newly listed matches one of the account's saved searches. */
  #searchAlert(e: SanctionsFeedRow, search: SavedSearch, measures: Measure[], occurredAt: number, commercialUse: boolean): NewAlert {
    const subject: AlertSubject = { kind: "vessel", imo: e.imos[0] ?? null, mmsi: e.mmsis[0] ?? null, unlocode: null, name: e.name || null };
    // The text names the family's list (its name says what it is; an EU annex's name repeats the programme).
    const listName = SANCTIONS_LIST_NAMES[e.list];
    return newAlert(
      // The listing event's id keys it, as before alerts read whole versions.
      { accountId: search.accountId, type: "saved_search", occurredAt, dedupeKey: `saved_search:${e.key.id}:${search.id}`, detail: { sanctionsEventId: e.key.id, savedSearchId: search.id, list: e.list } },
      {
        derived: true,
        subject,
        followId: null,
        zone: null,
        savedSearch: { id: formatId("search", search.id), name: search.name },
        factBase: { t: "saved_search", match: "sanctions_listing", search: search.q, ...listingFact(e, measures) },
        factSources: [e.list],
        text: `${vesselLabel(subject)}, newly listed on the ${listName}, matches your saved search ${search.name}.`,
        parts: [],
      },
      { sources: this.#d.sources, rights: { commercialUse }, baseUrl: this.#d.baseUrl },
    );
  }

  #alert(e: SanctionsFeedRow, w: AccountWatch, measures: Measure[], occurredAt: number, commercialUse: boolean): NewAlert {
    // The identifier the account watches names the vessel; the designation supplies the other one.
    const imo = w.imo ?? e.imos[0] ?? null;
    const mmsi = w.mmsi ?? e.mmsis[0] ?? null;
    const subject: AlertSubject = { kind: "vessel", imo, mmsi, unlocode: null, name: e.name || null };
    const change = e.action === "changed" ? { fields: e.fields ?? [], before: e.before ?? {}, after: e.after ?? {} } : {};
    return newAlert(
      {
        accountId: w.accountId,
        type: "sanctions",
        occurredAt,
        dedupeKey: `sanctions:v${e.versionId}:d${e.designationId}:${w.accountId}`,
        detail: { versionId: e.versionId, designationId: e.designationId, action: e.action, followId: w.followId, watchlistId: w.watchlist?.id ?? null, list: e.list },
      },
      {
        derived: false,
        subject,
        followId: w.followId === null ? null : formatId("follow", w.followId),
        watchlist: w.watchlist,
        zone: null,
        savedSearch: null,
        factBase: { t: "sanctions", action: e.action, ...listingFact(e, measures), ...change },
        factSources: [e.list],
        text: sanctionsText(vesselLabel(subject), e),
        parts: [],
      },
      { sources: this.#d.sources, rights: { commercialUse }, baseUrl: this.#d.baseUrl },
    );
  }
}

/** One turn of the event loop: what is queued behind synchronous store calls (node:sqlite) runs. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The feed rows a version brought: its listings, delistings and changes. */
const rowCount = (v: SanctionsVersionRow) => v.listed + v.delisted + v.changed;

/** Whole versions, in order, until they hold a page of rows (at least one version). Baselines before the first news count for nothing: they are not read. */
function pageOfVersions(versions: readonly SanctionsVersionRow[]): SanctionsVersionRow[] {
  const out: SanctionsVersionRow[] = [];
  let rows = 0;
  for (const v of versions) {
    const news = !v.baseline || rows > 0;
    if (out.length > 0 && news && rows + rowCount(v) > PAGE) break;
    out.push(v);
    if (news) rows += rowCount(v);
  }
  return out;
}

/**
 * The identifiers a row concerns: those the designation carries, and for a change those it
 * carried before, so a watcher of an MMSI dropped on reflagging or an IMO corrected hears of it.
 */
function identifiersOf(r: SanctionsFeedRow): { imos: number[]; mmsis: number[] } {
  const before = (field: string) => (Array.isArray(r.before?.[field]) ? (r.before[field] as number[]) : []);
  return { imos: [...new Set([...r.imos, ...before("imo")])], mmsis: [...new Set([...r.mmsis, ...before("mmsi")])] };
}

/**
 * What a designation says, in both alert kinds: the list the vessel is on (`ofac_sdn`), its
 * family (`ofac`, the key of /sanctions/{list}), the programme, the measures with their legal
 * basis, and the source whose rights the fact rests on (the family's).
 */
function listingFact(e: SanctionsFeedRow, measures: Measure[]) {
  return { list: designationList(e).list, family: e.list, program: e.program, measures, sourceId: e.list };
}

/** The tracked fields in words, for the text of a change. */
const FIELD_WORDS: Record<string, string> = {
  imo: "IMO number",
  invalidImo: "invalid IMO number",
  mmsi: "MMSI",
  name: "name",
  aliases: "aliases",
  formerNames: "former names",
  flag: "flag",
  callSign: "call sign",
  program: "programme",
  vesselType: "vessel type",
  owners: "owners",
  measures: "measures",
  listedAt: "designation date",
};

/** The alert's text: the family's list by its name (an EU annex's name would repeat the programme). */
function sanctionsText(vessel: string, e: SanctionsFeedRow): string {
  const listName = SANCTIONS_LIST_NAMES[e.list];
  if (e.action === "listed") return `${vessel} was listed on the ${listName}${e.program ? ` under ${e.program}` : ""}.`;
  if (e.action === "delisted") return `${vessel} was delisted from the ${listName}.`;
  return `${vessel}'s designation on the ${listName} changed: ${(e.fields ?? []).map((f) => FIELD_WORDS[f] ?? f).join(", ")}.`;
}
