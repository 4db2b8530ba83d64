import { type AlertSubject, vesselLabel } from "../../domain/alerts/payload.ts";
import { formatId } from "../../domain/ids.ts";
import type { SourceRegistry } from "../../domain/rights/source.ts";
import { designationList, SANCTIONS_LIST_NAMES } from "../../domain/sanctions/designation.ts";
import { directMatch } from "../../domain/sanctions/matching.ts";
import type { AccountStore } from "../../interfaces/accounts.ts";
import type { AlertStore, Follow, SavedSearch } from "../../interfaces/alerts.ts";
import { savedSearchMatches } from "../../domain/alerts/saved-search-match.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { SanctionsEvent, SanctionsStore } from "../../interfaces/sanctions.ts";
import type { NewAlert, WebhookStore } from "../../interfaces/webhooks.ts";
import { commercialUse, newAlert } from "./new-alert.ts";

export const SANCTIONS_CURSOR = "sanctions_events";
const PAGE = 500;

export interface SanctionsAlertsDeps {
  alerts: AlertStore;
  webhooks: WebhookStore;
  sanctions: SanctionsStore;
  accounts: AccountStore;
  sources: SourceRegistry;
  clock: Clock;
  baseUrl: string;
  onEmitted?: (deliveries: number) => void;
}

/**
 * `alert.sanctions`: a followed vessel newly listed. Reads the sanctions outbox
 * (`sanctions_events`) after a stored cursor. Events of a list's first import (`baseline`)
 * are a starting state, not news, and raise nothing; nor do delistings (spec 6.2 names
 * listings only). Each page's alerts, their deliveries and the cursor move are one
 * transaction, and each alert has a unique key (event, account), so a crash or two
 * processes polling at once never lose or double an alert.
 */
export class SanctionsAlerts {
  readonly #d: SanctionsAlertsDeps;
  #running: Promise<number> | null = null;

  constructor(deps: SanctionsAlertsDeps) {
    this.#d = deps;
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
    for (;;) {
      const after = await this.#d.alerts.cursor(SANCTIONS_CURSOR);
      const events = await this.#d.sanctions.events(after, PAGE);
      if (events.length === 0) return total;
      const alerts: NewAlert[] = [];
      let searches: SavedSearch[] | null = null;
      for (const e of events) {
        if (e.baseline || e.action !== "listed") continue;
        const followers = await this.#d.alerts.vesselFollowers(e.imos, e.mmsis);
        const byAccount = new Map<string, Follow>();
        // The listing concerns a followed vessel by the same rule screening applies to its id.
        for (const f of followers) if (!byAccount.has(f.accountId) && followMatches(f, e)) byAccount.set(f.accountId, f);
        for (const [accountId, follow] of byAccount) alerts.push(await this.#alert(e, accountId, follow));
        searches ??= await this.#d.alerts.allSavedSearches();
        for (const search of searches) if (savedSearchMatches(search, e)) alerts.push(await this.#searchAlert(e, search));
      }
      const now = this.#d.clock.now();
      const r = await this.#d.webhooks.emitAlerts(alerts, now, { name: SANCTIONS_CURSOR, value: events[events.length - 1]!.id });
      total += r.alerts;
      if (r.deliveries > 0) this.#d.onEmitted?.(r.deliveries);
    }
  }

  /** `alert.saved_search`: a vessel newly listed matches one of the account's saved searches. */
  async #searchAlert(e: SanctionsEvent, search: SavedSearch): Promise<NewAlert> {
    const subject: AlertSubject = { kind: "vessel", imo: e.imos[0] ?? null, mmsi: e.mmsis[0] ?? null, unlocode: null, name: e.name || null };
    const { list } = designationList(e);
    // The text names the family's list (its name says what it is; an EU annex's name repeats the programme).
    const listName = SANCTIONS_LIST_NAMES[e.list];
    return newAlert(
      { accountId: search.accountId, type: "saved_search", occurredAt: e.createdAt, dedupeKey: `saved_search:${e.id}:${search.id}`, detail: { sanctionsEventId: e.id, savedSearchId: search.id, list: e.list } },
      {
        derived: true,
        subject,
        followId: null,
        zone: null,
        savedSearch: { id: formatId("search", search.id), name: search.name },
        factBase: { t: "saved_search", match: "sanctions_listing", search: search.q, ...listingFact(e, list) },
        factSources: [e.sourceId],
        text: `${vesselLabel(subject)}, newly listed on the ${listName}, matches your saved search ${search.name}.`,
        parts: [],
      },
      { sources: this.#d.sources, rights: { commercialUse: await commercialUse(this.#d.accounts, search.accountId) }, baseUrl: this.#d.baseUrl },
    );
  }

  async #alert(e: SanctionsEvent, accountId: string, follow: Follow): Promise<NewAlert> {
    // The identifier the account followed names the vessel; the listing supplies the other one.
    const imo = follow.imo ?? e.imos[0] ?? null;
    const mmsi = follow.mmsi ?? e.mmsis[0] ?? null;
    const subject: AlertSubject = { kind: "vessel", imo, mmsi, unlocode: null, name: e.name || null };
    const { list } = designationList(e);
    // The text names the family's list (its name says what it is; an EU annex's name repeats the programme).
    const listName = SANCTIONS_LIST_NAMES[e.list];
    const program = e.program ? ` under ${e.program}` : "";
    return newAlert(
      { accountId, type: "sanctions", occurredAt: e.createdAt, dedupeKey: `sanctions:${e.id}:${accountId}`, detail: { sanctionsEventId: e.id, followId: follow.id, list: e.list } },
      {
        derived: false,
        subject,
        followId: formatId("follow", follow.id),
        zone: null,
        savedSearch: null,
        factBase: { t: "sanctions", action: e.action, ...listingFact(e, list) },
        factSources: [e.sourceId],
        text: `${vesselLabel(subject)} was listed on the ${listName}${program}.`,
        parts: [],
      },
      { sources: this.#d.sources, rights: { commercialUse: await commercialUse(this.#d.accounts, accountId) }, baseUrl: this.#d.baseUrl },
    );
  }
}

/**
 * What a listing says, in both alert kinds: the list the vessel is on (`ofac_sdn`), its family
 * (`ofac`, the key of /sanctions/{list}), the programme, the measures with their legal basis,
 * and the source whose rights the fact rests on.
 */
function listingFact(e: SanctionsEvent, list: string) {
  return { list, family: e.list, program: e.program, measures: e.measures, sourceId: e.sourceId };
}

function followMatches(f: Follow, e: SanctionsEvent): boolean {
  const byImo = f.imo !== null && directMatch({ kind: "imo", imo: f.imo }, e) !== null;
  const byMmsi = f.mmsi !== null && directMatch({ kind: "mmsi", mmsi: f.mmsi }, e) !== null;
  return byImo || byMmsi;
}
