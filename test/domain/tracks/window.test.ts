import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { downsample } from "../../../src/adapters/archive/compact.ts";
import { AppError } from "../../../src/domain/errors.ts";
import { bucketCount, bucketIndex, bucketMsFor, checkHistory, creditsFor, DAY_MS, formatIsoTime, HOUR_MS, MAX_POINTS, navStatusName, parseIsoTime, resolveWindow } from "../../../src/domain/tracks/window.ts";
import { matchesAt, nameTerms, normalizeName, TERM_LENGTH } from "../../../src/domain/vessels/names.ts";

const NOW = Date.parse("2026-11-20T12:00:00Z");

describe("track windows", () => {
  it("every hours value gives at most 1,500 buckets and ceil(hours/24) credits", () => {
    for (let hours = 1; hours <= 168; hours++) {
      const w = resolveWindow({ hours }, NOW);
      assert.equal(w.to - w.from, hours * HOUR_MS);
      assert.ok(bucketCount(w, bucketMsFor(w)) <= MAX_POINTS, `${hours} h`);
      assert.equal(creditsFor(w), Math.ceil(hours / 24));
    }
    assert.equal(bucketMsFor({ from: 0, to: 7 * DAY_MS }), 600_000);
    assert.equal(bucketMsFor({ from: 0, to: 60_000 }), 1_000);
  });

  it("buckets are aligned to multiples of their length: ends at odd times cut the first and last, and the count stays at most 1,500", () => {
    const odd = NOW + 12_345;
    for (let hours = 1; hours <= 168; hours++) {
      const w = resolveWindow({ hours }, odd);
      assert.ok(bucketCount(w, bucketMsFor(w)) <= MAX_POINTS, `${hours} h`);
    }
    // A day from mid-minute: 1,439 whole minutes and two cut ones.
    const day = resolveWindow({ hours: 24 }, odd);
    assert.equal(bucketMsFor(day), 60_000);
    assert.equal(bucketCount(day, 60_000), 1_441);
    // 25 hours from mid-minute would need 1,501 minute buckets: two minutes each.
    assert.equal(bucketMsFor(resolveWindow({ hours: 25 }, odd)), 120_000);
    assert.equal(bucketIndex(odd, 60_000), bucketIndex(NOW, 60_000));
    assert.equal(bucketIndex(NOW - 1, 60_000), bucketIndex(NOW, 60_000) - 1);
  });

  it("rules that need the clock name their parameter", () => {
    const rule = (input: Parameters<typeof resolveWindow>[0]) => {
      try {
        resolveWindow(input, NOW);
        return "ok";
      } catch (e) {
        assert.ok(e instanceof AppError);
        return `${e.code}:${e.details.param}`;
      }
    };
    assert.equal(rule({ hours: 2, from: NOW - HOUR_MS }), "invalid_parameter:hours");
    assert.equal(rule({ from: NOW - 8 * DAY_MS }), "invalid_parameter:from");
    assert.equal(rule({ to: NOW - 8 * DAY_MS, from: NOW - 16 * DAY_MS }), "invalid_parameter:from");
    assert.equal(rule({ from: Date.UTC(2026, 4, 31) }), "invalid_parameter:from");
    assert.equal(rule({ to: Date.UTC(2026, 5, 1, 6) }), "ok", "`to` alone reaches back no further than the history start");
    assert.deepEqual(resolveWindow({ to: Date.UTC(2026, 5, 1, 6) }, NOW), { from: Date.UTC(2026, 5, 1), to: Date.UTC(2026, 5, 1, 6) });
    assert.equal(rule({ from: NOW + 1 }), "invalid_parameter:from");
    assert.equal(rule({ from: NOW - 7 * DAY_MS }), "ok");
  });

  it("history: 24 hours for all, then the plan's days, null for everything", () => {
    const w = { from: NOW - 10 * DAY_MS, to: NOW - 9 * DAY_MS };
    assert.throws(() => checkHistory(w, NOW, 0, ["sandbox"]), (e: AppError) => e.code === "plan_lacks_feature" && e.details.param === "from");
    assert.throws(() => checkHistory(w, NOW, 9, ["x"]));
    checkHistory(w, NOW, 10, ["developer"]);
    checkHistory(w, NOW, null, ["pro"]);
    checkHistory({ from: NOW - DAY_MS, to: NOW }, NOW, 0, ["sandbox"]);
  });

  it("ISO 8601 with a zone or a date; nothing else", () => {
    assert.equal(parseIsoTime("2026-11-20T12:00:00Z"), NOW);
    assert.equal(parseIsoTime("2026-11-20T12:00Z"), NOW);
    assert.equal(parseIsoTime("2026-11-20T13:00:00+01:00"), NOW);
    assert.equal(parseIsoTime("2026-11-20T13:00:00+0100"), NOW);
    assert.equal(parseIsoTime("2026-11-20T12:00:00.250Z"), NOW + 250);
    assert.equal(parseIsoTime("2026-11-20"), Date.UTC(2026, 10, 20));
    for (const bad of ["2026-11-20T12:00:00", "2026-02-30", "2026-13-01", "20261120", "2026-11-20T25:00Z", "tomorrow", "", "2026-11-20T12:00:00+15:00", "1e12"]) {
      assert.equal(parseIsoTime(bad), null, bad);
    }
  });

  it("times format as toISOString does", () => {
    for (const t of [0, 1, 999, 86_399_999, NOW, NOW + 123, Date.UTC(2028, 1, 29, 23, 59, 59, 999), Date.UTC(9999, 11, 31, 23, 59, 59, 999), -1]) {
      assert.equal(formatIsoTime(t), new Date(t).toISOString(), String(t));
    }
    for (let t = NOW - 3 * DAY_MS; t < NOW; t += 7_777_777) assert.equal(formatIsoTime(t), new Date(t).toISOString());
  });

  it("navigational status names", () => {
    assert.equal(navStatusName(0), "under_way_using_engine");
    assert.equal(navStatusName(5), "moored");
    assert.equal(navStatusName(null), "not_defined");
    assert.equal(navStatusName(99), "not_defined");
  });

  it("the archive keeps the last fix of each vessel, station and 10-minute slot", () => {
    const fix = (time: number, stationId = 1) => ({ mmsi: 1, time, stationId, lat: 0, lon: 0, sog: null, cog: null, navStatus: 3 });
    const points = downsample([fix(0), fix(60_000), fix(599_999), fix(600_000), fix(30_000, 2)]);
    assert.deepEqual(
      points.map((p) => [p.stationId, p.time]),
      [
        [1, 599_999],
        [1, 600_000],
        [2, 30_000],
      ],
    );
    assert.ok(points.every((p) => !("navStatus" in p)));
  });
});

describe("vessel names", () => {
  it("one normal form for case, accents, ligatures and punctuation", () => {
    assert.equal(normalizeName("  Værøy "), "vaeroy");
    assert.equal(normalizeName("SÃO-PAULO  Express!"), "sao paulo express");
    assert.equal(normalizeName("Große Freiheit"), "grosse freiheit");
    assert.equal(normalizeName("Łódź"), "lodz");
    assert.equal(normalizeName("МОСКВА"), "москва");
    assert.equal(normalizeName("!!!"), "");
  });

  it("terms: every suffix at a letter, ranked name / word / inside, cut to the term length", () => {
    const terms = nameTerms("blue star");
    assert.deepEqual(
      terms.filter((t) => t.rank < 2),
      [
        { term: "blue star", rank: 0 },
        { term: "star", rank: 1 },
      ],
    );
    assert.ok(terms.some((t) => t.term === "tar" && t.rank === 2));
    assert.ok(!terms.some((t) => t.term.startsWith(" ")));
    assert.ok(nameTerms("a".repeat(40)).every((t) => t.term.length <= TERM_LENGTH));
    assert.ok(matchesAt("blue star line", "star line", 1));
    assert.ok(!matchesAt("blue star line", "tar", 1));
    assert.ok(matchesAt("blue star line", "tar", 2));
  });
});
