import type { SourceRegistry } from "../domain/rights/source.ts";
import type { AccountStore, CreditLedger, StationStore } from "../interfaces/accounts.ts";
import type { Admission } from "../interfaces/admission.ts";
import type { Clock } from "../interfaces/clock.ts";
import type { CompanyStore } from "../interfaces/companies.ts";
import type { FlagFleetReader } from "../interfaces/flag-fleet.ts";
import type { InspectionStore } from "../interfaces/inspections.ts";
import type { FeedStore } from "../interfaces/feeds.ts";
import type { PositionStore } from "../interfaces/positions.ts";
import type { DerivedStore, WaterwayCatalog } from "../interfaces/derived.ts";
import type { FlagStore, PortStore, WreckStore } from "../interfaces/reference.ts";
import type { AlertStore, AlertsRuntime } from "../interfaces/alerts.ts";
import type { SanctionsStore } from "../interfaces/sanctions.ts";
import type { ReceiptSigner, ScreeningReceiptStore } from "../interfaces/screenings.ts";
import type { ArchiveStore, TrackStore } from "../interfaces/tracks.ts";
import type { SearchStore, VesselStore } from "../interfaces/vessels.ts";
import type { WatchlistStore } from "../interfaces/watchlists.ts";
import type { WebhookDispatch, WebhookStore } from "../interfaces/webhooks.ts";

/** Everything an operation or the pipeline may reach: ports only, never adapters. */
export interface Services {
  clock: Clock;
  sources: SourceRegistry;
  accounts: AccountStore;
  ledger: CreditLedger;
  stations: StationStore;
  /** AIS received by users' stations; reads name the stations they may see. */
  positions: PositionStore;
  /** Each call's rate limit and credit charge, decided together. */
  admission: Admission;
  ports: PortStore;
  flags: FlagStore;
  /** Ships under each flag as the fleet and sanctions lists give them. */
  flagFleet: FlagFleetReader;
  /** Wreck records (NOAA AWOIS), by record number. */
  wrecks: WreckStore;
  sanctions: SanctionsStore;
  /** Receipts of screening answers, read back by the account that screened. */
  screenings: ScreeningReceiptStore;
  /** The deployment's receipt signing key and the published key set. */
  receiptSigner: ReceiptSigner;
  /** Company records per source and the ships they tie to each company. */
  companies: CompanyStore;
  /** Inspections operators imported, per ship. */
  inspections: InspectionStore;
  /** The vessel registry: identifiers, names, emissions and fleet rows per ship. */
  vessels: VesselStore;
  /** Vessel name search over the registry. */
  search: SearchStore;
  /** Track reads of the recent positions. */
  tracks: TrackStore;
  /** Positions older than 90 days; a store of its own that may be unreachable. */
  archive: ArchiveStore;
  /** Follows, zones and saved searches of accounts. */
  alerts: AlertStore;
  /** Accounts' watchlists of vessels and their members. */
  watchlists: WatchlistStore;
  /** Webhook endpoints, events and the delivery log. */
  webhooks: WebhookStore;
  /** Test sends and wake-ups of this process's delivery worker. */
  webhookDispatch: WebhookDispatch;
  /** Tells this process's zone evaluator about changed zones. */
  alertsRuntime: AlertsRuntime;
  /** Public AIS feeds the operator added, with the status their runner last wrote. */
  feeds: FeedStore;
  /** Port calls and chokepoint gate crossings derived from the positions. */
  derived: DerivedStore;
  /** The chokepoint monitor's waterways and their gates. */
  waterways: WaterwayCatalog;
}
