#!/usr/bin/env node
/**
 * The command line: serve, migrate, import, accounts, keys, stations, ingest, simulate,
 * compact and the account commands. Each command is a module of src/cli; `create`
 * commands print only what was created (a key alone on stdout), or one JSON object with
 * --json, so scripts can drive the service.
 */
import { main } from "../src/cli/main.ts";
import { processIo } from "../src/cli/io.ts";

process.exitCode = await main(process.argv.slice(2), processIo());
