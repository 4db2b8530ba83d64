import type { SourceRegistry } from "../domain/rights/source.ts";
import type { AccountStore, CreditLedger, StationStore } from "../ports/accounts.ts";
import type { Clock } from "../ports/clock.ts";
import type { PositionStore } from "../ports/positions.ts";
import type { RateLimiter } from "../ports/rate-limiter.ts";
import type { FlagStore, PortStore } from "../ports/reference.ts";
import type { SanctionsStore } from "../ports/sanctions.ts";

/** Everything an operation or the pipeline may reach: ports only, never adapters. */
export interface Services {
  clock: Clock;
  sources: SourceRegistry;
  accounts: AccountStore;
  ledger: CreditLedger;
  stations: StationStore;
  /** AIS received by users' stations; reads name the stations they may see. */
  positions: PositionStore;
  limiter: RateLimiter;
  ports: PortStore;
  flags: FlagStore;
  sanctions: SanctionsStore;
}
