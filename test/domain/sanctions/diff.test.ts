import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseNewZealand } from "../../../src/adapters/importers/sanctions/new-zealand.ts";
import { parseOfac } from "../../../src/adapters/importers/sanctions/ofac.ts";
import { type DesignationInput, makeDesignation } from "../../../src/domain/sanctions/designation.ts";
import {
  assertDelistingGuard,
  checkDelistingGuard,
  DelistingGuardError,
  diffDesignations,
} from "../../../src/domain/sanctions/diff.ts";
import { buildNzWorkbook, fixture, NZ_SHIPS_ROWS, ofacCsvBefore } from "../../helpers/sanctions-fixtures.ts";

const vessel = (recordId: string, extra: Partial<DesignationInput> = {}) =>
  makeDesignation({ list: "uk", recordId, name: `SHIP ${recordId}`, sourceUrl: "https://example.org", ...extra });

describe("diffDesignations", () => {
  test("listed, delisted, changed and unchanged by record id", () => {
    const previous = [vessel("A", { imos: [9187629] }), vessel("B", { imos: [9339301], mmsis: [636013272] }), vessel("C")];
    const current = [vessel("A", { imos: [9187629] }), vessel("B", { name: "NEW NAME", imos: [9339301], mmsis: [352002494] }), vessel("D")];
    const diff = diffDesignations(previous, current);
    assert.equal(diff.list, "uk");
    assert.deepEqual(
      diff.listed.map((d) => d.recordId),
      ["D"],
    );
    assert.deepEqual(
      diff.delisted.map((d) => d.recordId),
      ["C"],
    );
    assert.equal(diff.unchangedCount, 1);
    assert.equal(diff.changed.length, 1);
    const change = diff.changed[0]!;
    assert.equal(change.recordId, "B");
    assert.deepEqual(change.fields, ["mmsi", "name"]);
    assert.deepEqual(change.mmsi, { added: [352002494], removed: [636013272] });
    assert.equal(change.imo, null);
    assert.deepEqual(change.name, { from: "SHIP B", to: "NEW NAME" });
    assert.equal(diff.previousActiveCount, 3);
    assert.equal(diff.currentActiveCount, 3);
  });

  test("an IMO correction under the same record id is a change, not a delisting plus a listing", () => {
    // SASCO ANGARA: OFAC fixed IMO 924298 to 9242986 on 2023-08-03 (history TSV).
    const before = vessel("44245", { name: "SASCO ANGARA", imoValues: ["IMO 924298"] });
    const after = vessel("44245", { name: "SASCO ANGARA", imoValues: ["IMO 9242986"] });
    const diff = diffDesignations([before], [after]);
    assert.deepEqual(diff.listed, []);
    assert.deepEqual(diff.delisted, []);
    assert.deepEqual(diff.changed[0]!.fields, ["imo", "invalidImo"]);
    assert.deepEqual(diff.changed[0]!.imo, { added: [9242986], removed: [] });
  });

  test("order of aliases and programmes does not make a change", () => {
    const a = vessel("A", { aliases: ["X", "Y"], programs: ["SDGT", "IFSR"] });
    const b = vessel("A", { aliases: ["y", "X"], programs: ["IFSR", "SDGT"] });
    assert.equal(diffDesignations([a], [b]).unchangedCount, 1);
  });

  test("refuses mixed lists and duplicate record ids", () => {
    assert.throws(() => diffDesignations([vessel("A")], [makeDesignation({ list: "eu", recordId: "A", name: "X", sourceUrl: "https://e" })]), /different lists/);
    assert.throws(() => diffDesignations([], [vessel("A"), vessel("A")]), /record id A twice/);
  });

  test("real OFAC history: undoing the changes after 2024-04-01 and diffing gives them back", async () => {
    const { csv, events } = ofacCsvBefore("2024-04-01");
    const previous = await parseOfac(Buffer.from(csv));
    const current = await parseOfac(fixture("ofac", "sdn_csv_vessel_rows_2024-05-03.csv"));
    const diff = diffDesignations(previous, current);
    const ids = (kind: string) => events.filter((e) => e.change === kind).map((e) => e.entNum);
    assert.deepEqual(diff.listed.map((d) => d.recordId).sort(), ids("ADDED").sort());
    assert.equal(diff.listed.length, 34);
    assert.deepEqual(
      diff.delisted.map((d) => [d.recordId, d.name, d.imos]),
      [["45329", "YASA GOLDEN BOSPHORUS", [9334038]]],
    );
    // YOUNG YONG -> SAINT LIGHT on 2024-04-04: renamed, reflagged Djibouti -> Guyana, new MMSI, same IMO.
    assert.equal(diff.changed.length, 1);
    const saintLight = diff.changed[0]!;
    assert.equal(saintLight.recordId, "39693");
    assert.deepEqual(saintLight.fields, ["mmsi", "name", "flag"]);
    assert.deepEqual(saintLight.name, { from: "YOUNG YONG", to: "SAINT LIGHT" });
    assert.deepEqual(saintLight.mmsi, { added: [750514000], removed: [621819067] });
    assert.equal(saintLight.imo, null);
    assert.ok(checkDelistingGuard(diff).ok);
  });

  test("New Zealand: a ship marked deleted in the file is delisted, with the list's own date and reason", async () => {
    const beforeRows = NZ_SHIPS_ROWS.map((row) => (row[1] === "NZ-TEST-S0003" ? row.map((c, i) => (i >= 14 ? null : c)) : row));
    const previous = await parseNewZealand(buildNzWorkbook(beforeRows));
    const current = await parseNewZealand(buildNzWorkbook());
    assert.equal(previous.find((d) => d.recordId === "NZ-TEST-S0003")!.status, "active");
    const diff = diffDesignations(previous, current);
    assert.deepEqual(
      diff.delisted.map((d) => [d.recordId, d.status, d.deletedAt, d.deletionReason]),
      [["NZ-TEST-S0003", "deleted", "2026-03-02", "Test: vessel scrapped"]],
    );
    assert.deepEqual(diff.listed, []);
    assert.equal(diff.currentActiveCount, 3);
    // A record already deleted in the first version we ever see is not "listed".
    assert.deepEqual(diffDesignations([], current).listed.length, 3);
  });
});

describe("delisting guard", () => {
  const list = (n: number) => Array.from({ length: n }, (_, i) => vessel(String(i)));

  test("allows up to the share, refuses beyond it with a clear message", () => {
    const previous = list(100);
    assert.ok(checkDelistingGuard(diffDesignations(previous, previous.slice(20))).ok);
    const verdict = checkDelistingGuard(diffDesignations(previous, previous.slice(21)));
    assert.equal(verdict.ok, false);
    assert.equal(verdict.delisted, 21);
    assert.equal(verdict.allowed, 20);
    assert.match(verdict.message, /refusing the uk import: it would delist 21 of 100 active vessel designations \(21%\), more than the 20% allowed/);
  });

  test("a configurable share", () => {
    const previous = list(100);
    const diff = diffDesignations(previous, previous.slice(40));
    assert.equal(checkDelistingGuard(diff).ok, false);
    assert.equal(checkDelistingGuard(diff, { maxDelistedShare: 0.5 }).ok, true);
    assert.throws(() => checkDelistingGuard(diff, { maxDelistedShare: 2 }), RangeError);
  });

  test("a floor lets small lists change", () => {
    const previous = list(4);
    assert.ok(checkDelistingGuard(diffDesignations(previous, previous.slice(1))).ok, "1 of 4 is 25% but within the floor of 5");
    assert.equal(checkDelistingGuard(diffDesignations(previous, previous.slice(1)), { floor: 0 }).ok, false);
  });

  test("an empty new version is refused even for a tiny list, unless explicitly allowed", () => {
    const previous = list(3);
    const diff = diffDesignations(previous, []);
    const verdict = checkDelistingGuard(diff);
    assert.equal(verdict.ok, false);
    assert.match(verdict.message, /no active vessel designation while the previous had 3/);
    assert.ok(checkDelistingGuard(diff, { allowEmpty: true }).ok);
  });

  test("a truncated real OFAC file is refused; the first import of a list passes", async () => {
    const full = await parseOfac(fixture("ofac", "sdn_csv_vessel_rows_2024-05-03.csv"));
    const lines = fixture("ofac", "sdn_csv_vessel_rows_2024-05-03.csv").toString("utf8").split("\r\n");
    const truncated = await parseOfac(Buffer.from(lines.slice(0, 300).join("\r\n")));
    const diff = diffDesignations(full, truncated);
    assert.throws(
      () => assertDelistingGuard(diff),
      (e: unknown) => e instanceof DelistingGuardError && e.verdict.delisted === 551 && /delist 551 of 851/.test(e.message),
    );
    assert.ok(assertDelistingGuard(diffDesignations([], full)).ok);
  });
});
