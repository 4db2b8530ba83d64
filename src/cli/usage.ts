import { DATASETS } from "../adapters/importers/datasets.ts";
import { ACCOUNT_USAGE } from "./account-commands.ts";
import { USERS_USAGE } from "./users-command.ts";
import { PLAN_IDS } from "../domain/plans.ts";

export const USAGE = `usage: mds <command> [options]

  serve [--demo] [--role api|ingest|worker|all]
                                         serve the API (imports bundled data into an empty store); a role runs one part
                                         of the service (docs/deploy.md), all of it by default
  migrate                                bring the store's schema up to date
  import <dataset|all> [file|url]        import a dataset (${Object.keys(DATASETS).join(", ")})
  import sanctions <list> [file|dir|url ...] [--as-of yyyy-mm-dd] [--max-delisted-share 0..1]
  import sanctions --all                 re-import every list from its configured or official files
  sanctions status [--json]              per list: status, version, as-of date, last attempt, last success, vessels, source
  accounts create [--name N] [--plan P] [--json]
  accounts set <id> --monthly-credits <n|plan> [--rate <per-second|plan>] [--json]
                                         the account's own allowance: n credits a month on top of its plans',
                                         and its own rate in place of theirs
  accounts set <id> --monthly-credits-total <n|plan> [--rate ...] [--json]
                                         exactly n credits a month, in place of its plans' (exact contracts, tests)
  keys create --plan <tier> [--account <id>] [--name N] [--json]
  keys revoke <key-id>
  keys list --account <id> [--json]
  stations create --account <id> --name <name> [--json] [station settings]
  stations update <id> [station settings] [--private] [--deny-redistribution] [--deny-commercial] [--no-plain-port]
                                         station settings: --public [--allow-redistribution] [--allow-commercial]
                                         [--source-name <text>]  share with everyone, granting those uses;
                                         --plain-port  a port of its own for plain NMEA (UDP and TCP);
                                         --allow-from <cidr,...>|any  senders accepted; --connect <host:port>|off
                                         read the receiver's own TCP server (AIS-catcher -S, rtl-ais -T)
  stations list --account <id> [--json]  stations with their ingest counters
  stations rotate-secret --station <id> [--json]
                                         a new secret (and UDP key) for the station; the old one stops working
  feeds add <name> --kind <kystverket|digitraffic|aisstream|aishub> [--url <address>] [--key <key>] [--json]
                                         a public AIS feed serve runs (--url defaults to the official address)
  feeds list [--json]                    feeds with their state, last message, rate and alarm
  feeds remove <name>                    stop a feed (what it stored stays, under its source)
  ingest --station <id> [file|-]         NMEA lines from a file (.gz too) or stdin, as that station's
  simulate [--station <id> --secret <s>] [--target tcp://127.0.0.1:5631] [--vessels N]
                                         a simulated station sending to a running service (tcp:, udp:, http:)
  compact                                move positions older than 90 days to the archive (10-minute points) and link
                                         new AIS identities and sanctions lists into the vessel registry (serve does both)
  derive port-calls [--from <t>] [--to <t>]  recompute port calls, chokepoint crossings and vessel events from stored positions
  derive events [--from <t>] [--to <t>]      the same recompute (every derived fact comes from one walk)
${USERS_USAGE}
${ACCOUNT_USAGE}

plans: ${PLAN_IDS.join(", ")}
environment: PORT, HOST, DATA_DIR, DATABASE_URL, ARCHIVE_DATABASE_URL, REDIS_URL, REDIS_PREFIX, BASE_URL, SOURCES_FILE, LOG_LEVEL, SANCTIONS_REFRESH, SANCTIONS_FETCH_TIMEOUT_SECONDS, SANCTIONS_SOURCES,
  INGEST_TCP_PORT, INGEST_UDP_PORT, INGEST_PLAIN_PORTS, DIGITRAFFIC_USER, FEED_SILENT_MINUTES, DERIVED_FACTS`;
