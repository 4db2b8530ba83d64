import assert from "node:assert/strict";
import { it } from "node:test";
import { ConfigError, parseConfig } from "../src/config.ts";

it("defaults give the embedded store under ./data", () => {
  const c = parseConfig({}, "/project");
  assert.equal(c.port, 8080);
  assert.equal(c.databaseUrl, undefined);
  assert.match(c.dataDir, /data$/);
  assert.equal(c.sourcesFile, "/project/config/sources.json");
});

it("every bad variable is named with its rule, all at once", () => {
  try {
    parseConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", REDIS_URL: "localhost:6379", LOG_LEVEL: "loud" }, "/project");
    assert.fail("expected a ConfigError");
  } catch (e) {
    assert.ok(e instanceof ConfigError);
    const text = e.problems.join("\n");
    for (const name of ["PORT", "DATABASE_URL", "REDIS_URL", "LOG_LEVEL"]) assert.match(text, new RegExp(`^${name}:`, "m"));
    assert.match(text, /DATABASE_URL: must be a URL starting with postgres:/);
  }
});

it("empty variables count as unset; trailing slashes leave BASE_URL", () => {
  const c = parseConfig({ DATABASE_URL: "", BASE_URL: "https://mds.example.org/" }, "/p");
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.baseUrl, "https://mds.example.org");
});

it("a port that is not a number names the rule and the value, not the parser's words", () => {
  assert.throws(() => parseConfig({ PORT: "abc" }, "/p"), (e) => e instanceof ConfigError && e.message === 'PORT: must be a whole number from 0 to 65535, got "abc"');
  assert.throws(() => parseConfig({ SANCTIONS_REFRESH: "0" }, "/p"), (e) => e instanceof ConfigError && /^SANCTIONS_REFRESH: must be off, or an interval of at least one minute/.test(e.message));
  assert.equal(parseConfig({ PORT: "0" }, "/p").port, 0);
});

it("TRUST_PROXY takes addresses, networks and proxy-addr's names, and refuses anything else", () => {
  assert.equal(parseConfig({ TRUST_PROXY: "127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback" }, "/p").trustProxy, "127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback");
  assert.equal(parseConfig({}, "/p").trustProxy, undefined);
  for (const bad of ["true", "10.0.0.0/33", "proxy.internal", "10.0.0.1/8/1"]) {
    assert.throws(() => parseConfig({ TRUST_PROXY: bad }, "/p"), (e) => e instanceof ConfigError && /^TRUST_PROXY: must be a comma-separated list/.test(e.message), bad);
  }
});

it("SCREENING_RETENTION is 5 years by default, takes years or days, and refuses anything else in one line", () => {
  assert.deepEqual(parseConfig({}, "/p").screeningRetention, { count: 5, unit: "years" });
  assert.deepEqual(parseConfig({ SCREENING_RETENTION: "7y" }, "/p").screeningRetention, { count: 7, unit: "years" });
  assert.deepEqual(parseConfig({ SCREENING_RETENTION: "90D" }, "/p").screeningRetention, { count: 90, unit: "days" });
  for (const bad of ["5", "five years", "0d", "0y", "101y", "-1y", "1.5y", "5 years", "1w"]) {
    assert.throws(
      () => parseConfig({ SCREENING_RETENTION: bad }, "/p"),
      (e) => e instanceof ConfigError && e.message === `SCREENING_RETENTION: must be a whole number of years or days with its unit, e.g. 5y or 90d (at least 1d, at most 100y), got ${JSON.stringify(bad)}` && !e.message.includes("\n"),
      bad,
    );
  }
});
