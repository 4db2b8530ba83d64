#!/usr/bin/env -S node --max-semi-space-size=16
/**
 * The command line: serve, migrate, import, accounts, keys, stations, ingest, simulate,
 * compact and the account commands. Each command is a module of src/cli; `create`
 * commands print only what was created (a key alone on stdout), or one JSON object with
 * --json, so scripts can drive the service.
 *
 * The node option above (also in package.json's scripts and docs/deploy.md's units) caps the
 * young generation's semi-spaces at 16 MB, node 20's size. Left to node 24 it grows with the
 * machine's memory, and a sanctions import that allocates fast (OFAC's 100 MB advanced XML)
 * then peaked at about 345 MB in half the runs instead of 190 (bench/README.md).
 */
import { main } from "../src/cli/main.ts";
import { processIo } from "../src/cli/io.ts";

process.exitCode = await main(process.argv.slice(2), processIo());
