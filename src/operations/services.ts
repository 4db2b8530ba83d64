import type { SourceRegistry } from "../domain/rights/source.ts";
import type { AccountStore, CreditLedger, StationStore } from "../ports/accounts.ts";
import type { Clock } from "../ports/clock.ts";
import type { RateLimiter } from "../ports/rate-limiter.ts";
import type { FlagStore, PortStore } from "../ports/reference.ts";

/** Everything an operation or the pipeline may reach: ports only, never adapters. */
export interface Services {
  clock: Clock;
  sources: SourceRegistry;
  accounts: AccountStore;
  ledger: CreditLedger;
  stations: StationStore;
  limiter: RateLimiter;
  ports: PortStore;
  flags: FlagStore;
}
